// The SSRF address rules of docs/security.md, one row per rule: every textual form of an address
// that reaches a non-global destination is refused; globally reachable unicast is allowed.
import { describe, expect, it } from "vitest";
import { classifyAddress, isPrivateAddress } from "./private-address";

describe("classifyAddress refuses every IPv4 range that is not globally reachable", () => {
  it.each([
    ["this network 0.0.0.0/8", "0.0.0.0"],
    ["this network 0.0.0.0/8", "0.255.1.2"],
    ["private 10.0.0.0/8", "10.1.2.3"],
    ["carrier-grade NAT 100.64.0.0/10 (Alibaba metadata)", "100.100.100.200"],
    ["loopback 127.0.0.0/8", "127.0.0.1"],
    ["loopback 127.0.0.0/8", "127.255.0.9"],
    ["link-local and cloud metadata 169.254.0.0/16", "169.254.169.254"],
    ["Azure platform endpoint 168.63.129.16", "168.63.129.16"],
    ["private 172.16.0.0/12", "172.16.0.1"],
    ["private 172.16.0.0/12", "172.31.255.255"],
    ["IETF protocol assignments 192.0.0.0/24 (Oracle metadata)", "192.0.0.192"],
    ["documentation 192.0.2.0/24", "192.0.2.1"],
    ["6to4 relay anycast 192.88.99.0/24", "192.88.99.1"],
    ["private 192.168.0.0/16", "192.168.1.1"],
    ["benchmarking 198.18.0.0/15", "198.19.255.1"],
    ["documentation 198.51.100.0/24", "198.51.100.7"],
    ["documentation 203.0.113.0/24", "203.0.113.9"],
    ["multicast 224.0.0.0/4", "224.0.0.1"],
    ["reserved 240.0.0.0/4", "240.0.0.1"],
    ["broadcast 255.255.255.255", "255.255.255.255"],
  ])("%s: %s is not allowed", (_rule, ip) => {
    expect(classifyAddress(ip).isAllowed).toBe(false);
  });
});

describe("classifyAddress refuses every IPv6 address outside global unicast 2000::/3", () => {
  it.each([
    ["unspecified ::", "::"],
    ["unspecified, written out", "0:0:0:0:0:0:0:0"],
    ["loopback ::1", "::1"],
    ["loopback with leading zeros", "0000:0000:0000:0000:0000:0000:0000:0001"],
    ["loopback in brackets", "[::1]"],
    ["link-local fe80::/10", "fe80::1"],
    ["link-local with a zone id", "fe80::1%eth0"],
    ["link-local, upper case", "FE80::ABCD"],
    ["link-local, top of the range", "febf::1"],
    ["unique local fc00::/7", "fc00::abcd"],
    ["unique local fd00::/8 (AWS metadata fd00:ec2::254)", "fd00:ec2::254"],
    ["site-local fec0::/10", "fec0::1"],
    ["site-local, top of the range", "feff:ffff::1"],
    ["multicast ff00::/8", "ff02::1"],
    ["discard-only 100::/64", "100::1"],
    ["discard-only, written out", "0100:0000:0000:0000:0000:0000:0000:0001"],
    ["local-use NAT64 64:ff9b:1::/48 (refused whatever it embeds)", "64:ff9b:1::808:808"],
    ["local-use NAT64 with a dotted tail", "64:ff9b:1::8.8.8.8"],
    ["anything else below 2000::/3", "1000::1"],
    ["anything else above 2000::/3", "4000::1"],
  ])("%s: %s is not allowed", (_rule, ip) => {
    expect(classifyAddress(ip).isAllowed).toBe(false);
  });
});

describe("classifyAddress refuses the special-purpose blocks inside 2000::/3", () => {
  it.each([
    ["documentation 2001:db8::/32", "2001:db8::1"],
    ["documentation 3fff::/20", "3fff::1"],
    ["documentation 3fff::/20, top of the range", "3fff:fff::1"],
    ["IETF protocol assignments 2001::/23 (benchmarking 2001:2::/48)", "2001:2::1"],
    ["IETF protocol assignments 2001::/23 (ORCHIDv2 2001:20::/28)", "2001:20::1"],
    ["IETF protocol assignments 2001::/23, top of the range", "2001:1ff::1"],
    ["Teredo 2001::/32 embedding a public client (refused outright)", "2001:0:4136:e378:8000:63bf:f7f7:f7f7"],
    ["Teredo 2001::/32 embedding the loopback client 127.0.0.1 (obfuscated 80ff:fffe)", "2001:0:4136:e378:8000:63bf:80ff:fffe"],
    ["segment routing SIDs 5f00::/16", "5f00::1"],
  ])("%s: %s is not allowed", (_rule, ip) => {
    expect(classifyAddress(ip).isAllowed).toBe(false);
  });
});

describe("classifyAddress judges an IPv6 form that embeds an IPv4 address as that IPv4 address", () => {
  it.each([
    ["IPv4-mapped ::ffff:a.b.c.d", "::ffff:127.0.0.1", false],
    ["IPv4-mapped in hex", "::ffff:7f00:1", false],
    ["IPv4-mapped, upper case and written out", "0:0:0:0:0:FFFF:7F00:0001", false],
    ["IPv4-mapped private", "::ffff:10.0.0.1", false],
    ["IPv4-mapped metadata", "::ffff:169.254.169.254", false],
    ["IPv4-mapped public", "::ffff:8.8.8.8", true],
    ["IPv4-compatible ::a.b.c.d", "::127.0.0.1", false],
    ["IPv4-compatible in hex, as the URL parser writes it", "::7f00:1", false],
    ["IPv4-compatible private", "::192.168.0.1", false],
    ["IPv4-compatible public", "::8.8.8.8", true],
    ["IPv4-translated ::ffff:0:a.b.c.d", "::ffff:0:127.0.0.1", false],
    ["IPv4-translated in hex", "::ffff:0:a00:1", false],
    ["IPv4-translated public", "::ffff:0:8.8.8.8", true],
    ["NAT64 64:ff9b::/96 loopback", "64:ff9b::127.0.0.1", false],
    ["NAT64 64:ff9b::/96 metadata in hex", "64:ff9b::a9fe:a9fe", false],
    ["NAT64 64:ff9b::/96 public", "64:ff9b::8.8.8.8", true],
    ["6to4 2002::/16 loopback (2002:7f00:1::)", "2002:7f00:1::", false],
    ["6to4 2002::/16 private", "2002:c0a8:101::1", false],
    ["6to4 2002::/16 metadata, upper case", "2002:A9FE:A9FE::1", false],
    ["6to4 2002::/16 public", "2002:808:808::1", true],
  ])("%s: %s allowed = %s", (_rule, ip, isAllowed) => {
    expect(classifyAddress(ip).isAllowed).toBe(isAllowed);
  });
});

describe("classifyAddress allows globally reachable unicast", () => {
  it.each([
    ["public IPv4", "93.184.216.34"],
    ["public IPv4 next to a private range", "172.32.0.1"],
    ["public IPv4 next to carrier-grade NAT", "100.128.0.1"],
    ["public IPv4", "1.1.1.1"],
    ["global unicast IPv6", "2606:4700:4700::1111"],
    ["global unicast IPv6, upper case with leading zeros", "2606:4700:4700:0000:0000:0000:0000:1111"],
    ["global unicast IPv6 right after 2001::/23", "2001:200::1"],
    ["global unicast IPv6 with a zone id", "2a00:1450:4007:80e::200e%eth0"],
  ])("%s: %s is allowed", (_rule, ip) => {
    expect(classifyAddress(ip).isAllowed).toBe(true);
  });
});

describe("classifyAddress refuses what is not an address", () => {
  it.each([
    ["a host name", "example.com"],
    ["an empty string", ""],
    ["octal IPv4 (some parsers read it as 127.0.0.1)", "0177.0.0.1"],
    ["an IPv4 with a leading zero", "127.0.0.01"],
    ["a decimal IPv4", "2130706433"],
    ["an IPv4 part over 255", "256.1.1.1"],
    ["two ::", "1::2::3"],
    ["nine groups", "1:2:3:4:5:6:7:8:9"],
    ["a five-digit group", "2606:04700::1"],
    ["a dotted tail with a leading zero", "::ffff:127.0.0.01"],
    ["a dotted part that does not end the address", "::1.2.3.4:1"],
  ])("%s: %s is not allowed", (_rule, ip) => {
    expect(classifyAddress(ip).isAllowed).toBe(false);
  });

  it("isPrivateAddress is the negation of the verdict", () => {
    expect(isPrivateAddress("::ffff:127.0.0.1")).toBe(true);
    expect(isPrivateAddress("2606:4700:4700::1111")).toBe(false);
  });
});
