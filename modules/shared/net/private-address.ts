// Which IP addresses a webhook must never reach (SSRF): loopback, private, link-local (cloud
// metadata included), carrier-grade NAT, unique-local, multicast, reserved and unspecified ranges.
import net from "node:net";

const BLOCKED_IPV4_RANGES: [string, number][] = [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.0.2.0", 24],
  ["192.88.99.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["198.51.100.0", 24],
  ["203.0.113.0", 24],
  ["224.0.0.0", 4],
  ["240.0.0.0", 4],
];

const BLOCKED_IPV6_PREFIXES: [bigint, number][] = [
  [0n, 128], // ::
  [1n, 128], // ::1
  [0xfc00n << 112n, 7], // unique local
  [0xfe80n << 112n, 10], // link-local
  [0xff00n << 112n, 8], // multicast
  [0x20010db8n << 96n, 32], // documentation
  [0x0064ff9bn << 96n, 96], // NAT64 (checked through its embedded IPv4 below)
];

function ipv4ToNumber(ip: string): number {
  return ip.split(".").reduce((total, part) => total * 256 + Number(part), 0);
}

function isBlockedIpv4(ip: string): boolean {
  const value = ipv4ToNumber(ip);
  return BLOCKED_IPV4_RANGES.some(([base, bits]) => {
    const size = 2 ** (32 - bits);
    const start = ipv4ToNumber(base);
    return value >= start && value < start + size;
  });
}

function ipv6ToBigInt(ip: string): bigint {
  let address = ip;
  const embeddedIpv4 = address.match(/(\d+\.\d+\.\d+\.\d+)$/)?.[1];
  if (embeddedIpv4) {
    const value = ipv4ToNumber(embeddedIpv4);
    address = address.replace(embeddedIpv4, `${(value >>> 16).toString(16)}:${(value & 0xffff).toString(16)}`);
  }
  const [head = "", tail] = address.split("::");
  const headGroups = head ? head.split(":") : [];
  const tailGroups = tail !== undefined && tail !== "" ? tail.split(":") : [];
  const missing = 8 - headGroups.length - tailGroups.length;
  const groups = [...headGroups, ...Array<string>(tail === undefined ? 0 : missing).fill("0"), ...tailGroups];
  return groups.reduce((total, group) => (total << 16n) + BigInt(Number.parseInt(group || "0", 16)), 0n);
}

function isBlockedIpv6(ip: string): boolean {
  const value = ipv6ToBigInt(ip.split("%")[0] ?? ip);
  const mappedIpv4 = value >> 32n === 0xffffn || value >> 32n === 0x64ff9b0000000000000000n >> 32n;
  if (mappedIpv4) {
    const ipv4 = Number(value & 0xffffffffn);
    return isBlockedIpv4([ipv4 >>> 24, (ipv4 >>> 16) & 255, (ipv4 >>> 8) & 255, ipv4 & 255].join("."));
  }
  return BLOCKED_IPV6_PREFIXES.some(([prefix, bits]) => value >> BigInt(128 - bits) === prefix >> BigInt(128 - bits));
}

/** True for an address a webhook must not reach (anything that is not a plain public unicast address). */
export function isPrivateAddress(ip: string): boolean {
  if (net.isIPv4(ip)) return isBlockedIpv4(ip);
  if (net.isIPv6(ip)) return isBlockedIpv6(ip);
  return true;
}
