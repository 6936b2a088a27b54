// Which IP addresses a webhook may reach (SSRF, docs/security.md): only globally reachable unicast.
// IPv4: everything but loopback, private, link-local (cloud metadata included), carrier-grade NAT,
// "this network", IETF protocol assignments, documentation, benchmarking, 6to4 relay, multicast,
// reserved and broadcast. IPv6: only global unicast (2000::/3) minus its special-purpose blocks;
// the forms that carry an IPv4 address (IPv4-compatible, -mapped, -translated, NAT64 64:ff9b::/96,
// 6to4) are judged as that IPv4 address. Any text that is not an address is refused.

/** The verdict on one address; `rule` names the range that decided (tests and logs, never errors shown to users). */
export type AddressVerdict = { isAllowed: boolean; rule: string };

type Ipv4Range = { base: string; bits: number; rule: string };

const REFUSED_IPV4_RANGES: Ipv4Range[] = [
  { base: "0.0.0.0", bits: 8, rule: "ipv4 this network (0.0.0.0/8)" },
  { base: "10.0.0.0", bits: 8, rule: "ipv4 private (10.0.0.0/8)" },
  { base: "100.64.0.0", bits: 10, rule: "ipv4 carrier-grade NAT (100.64.0.0/10)" },
  { base: "127.0.0.0", bits: 8, rule: "ipv4 loopback (127.0.0.0/8)" },
  { base: "168.63.129.16", bits: 32, rule: "ipv4 Azure platform endpoint (168.63.129.16/32)" },
  { base: "169.254.0.0", bits: 16, rule: "ipv4 link-local and cloud metadata (169.254.0.0/16)" },
  { base: "172.16.0.0", bits: 12, rule: "ipv4 private (172.16.0.0/12)" },
  { base: "192.0.0.0", bits: 24, rule: "ipv4 IETF protocol assignments (192.0.0.0/24)" },
  { base: "192.0.2.0", bits: 24, rule: "ipv4 documentation (192.0.2.0/24)" },
  { base: "192.88.99.0", bits: 24, rule: "ipv4 6to4 relay anycast (192.88.99.0/24)" },
  { base: "192.168.0.0", bits: 16, rule: "ipv4 private (192.168.0.0/16)" },
  { base: "198.18.0.0", bits: 15, rule: "ipv4 benchmarking (198.18.0.0/15)" },
  { base: "198.51.100.0", bits: 24, rule: "ipv4 documentation (198.51.100.0/24)" },
  { base: "203.0.113.0", bits: 24, rule: "ipv4 documentation (203.0.113.0/24)" },
  { base: "224.0.0.0", bits: 4, rule: "ipv4 multicast (224.0.0.0/4)" },
  { base: "240.0.0.0", bits: 4, rule: "ipv4 reserved and broadcast (240.0.0.0/4)" },
];

type Ipv6Range = { prefix: bigint; bits: number; rule: string };

const ipv6 = (text: string) => parseIpv6(text) ?? 0n;

/** Blocks inside global unicast 2000::/3 that are not globally reachable, or not safe to reach. */
const REFUSED_GLOBAL_IPV6_RANGES: Ipv6Range[] = [
  // Teredo carries an obfuscated IPv4 client address and is reached through whatever relay the local
  // network offers; the service is obsolete, so it is refused outright rather than decoded.
  { prefix: ipv6("2001::"), bits: 32, rule: "ipv6 Teredo (2001::/32)" },
  { prefix: ipv6("2001:db8::"), bits: 32, rule: "ipv6 documentation (2001:db8::/32)" },
  // IETF protocol assignments (benchmarking, ORCHID, AMT, AS112, anycast services): none is a webhook host.
  { prefix: ipv6("2001::"), bits: 23, rule: "ipv6 IETF protocol assignments (2001::/23)" },
  { prefix: ipv6("3fff::"), bits: 20, rule: "ipv6 documentation (3fff::/20)" },
  { prefix: ipv6("5f00::"), bits: 16, rule: "ipv6 segment routing SIDs (5f00::/16)" },
];

const IPV6_OUTSIDE_GLOBAL_UNICAST: Ipv6Range[] = [
  { prefix: 0n, bits: 128, rule: "ipv6 unspecified (::)" },
  { prefix: 1n, bits: 128, rule: "ipv6 loopback (::1)" },
  { prefix: ipv6("64:ff9b:1::"), bits: 48, rule: "ipv6 local-use NAT64 (64:ff9b:1::/48)" },
  { prefix: ipv6("100::"), bits: 64, rule: "ipv6 discard-only (100::/64)" },
  { prefix: ipv6("fc00::"), bits: 7, rule: "ipv6 unique local (fc00::/7)" },
  { prefix: ipv6("fe80::"), bits: 10, rule: "ipv6 link-local (fe80::/10)" },
  { prefix: ipv6("fec0::"), bits: 10, rule: "ipv6 site-local (fec0::/10)" },
  { prefix: ipv6("ff00::"), bits: 8, rule: "ipv6 multicast (ff00::/8)" },
];

/** Forms whose last 32 bits are an IPv4 address, judged as that address. */
const IPV6_WITH_TRAILING_IPV4: Ipv6Range[] = [
  { prefix: ipv6("::ffff:0:0"), bits: 96, rule: "ipv6 IPv4-mapped (::ffff:0:0/96)" },
  { prefix: ipv6("::ffff:0:0:0"), bits: 96, rule: "ipv6 IPv4-translated (::ffff:0:0:0/96)" },
  { prefix: ipv6("64:ff9b::"), bits: 96, rule: "ipv6 NAT64 (64:ff9b::/96)" },
  { prefix: 0n, bits: 96, rule: "ipv6 IPv4-compatible (::/96)" },
];

const SIX_TO_FOUR: Ipv6Range = { prefix: ipv6("2002::"), bits: 16, rule: "ipv6 6to4 (2002::/16)" };
const GLOBAL_UNICAST: Ipv6Range = { prefix: ipv6("2000::"), bits: 3, rule: "ipv6 global unicast (2000::/3)" };

function isInIpv6Range(value: bigint, { prefix, bits }: Ipv6Range): boolean {
  const shift = BigInt(128 - bits);
  return value >> shift === prefix >> shift;
}

/** Strict dotted decimal: four parts 0–255, no leading zeros (which some parsers read as octal). */
function parseIpv4(text: string): number | undefined {
  const parts = text.split(".");
  if (parts.length !== 4) return undefined;
  let value = 0;
  for (const part of parts) {
    if (!/^(0|[1-9]\d{0,2})$/.test(part)) return undefined;
    const byte = Number(part);
    if (byte > 255) return undefined;
    value = value * 256 + byte;
  }
  return value;
}

/** Any textual IPv6 form: compressed or not, any case, 1–4 digit groups, a dotted IPv4 tail, a zone id. */
function parseIpv6(text: string): bigint | undefined {
  const address = (text.startsWith("[") && text.endsWith("]") ? text.slice(1, -1) : text).split("%")[0]!.toLowerCase();
  const halves = address.split("::");
  if (halves.length > 2) return undefined;
  const toGroups = (half: string): number[] | undefined => {
    if (half === "") return [];
    const groups: number[] = [];
    const pieces = half.split(":");
    for (const [index, piece] of pieces.entries()) {
      if (piece.includes(".") && index === pieces.length - 1) {
        const ipv4 = parseIpv4(piece);
        if (ipv4 === undefined) return undefined;
        groups.push(ipv4 >>> 16, ipv4 & 0xffff);
      } else if (/^[0-9a-f]{1,4}$/.test(piece)) {
        groups.push(Number.parseInt(piece, 16));
      } else {
        return undefined;
      }
    }
    return groups;
  };
  const head = toGroups(halves[0]!);
  const tail = halves.length === 2 ? toGroups(halves[1]!) : [];
  if (!head || !tail) return undefined;
  // A dotted IPv4 part may only end the address.
  if (halves.length === 2 && halves[0]!.includes(".")) return undefined;
  const missing = 8 - head.length - tail.length;
  if (halves.length === 2 ? missing < 1 : missing !== 0) return undefined;
  const groups = [...head, ...Array<number>(missing).fill(0), ...tail];
  return groups.reduce((total, group) => (total << 16n) + BigInt(group), 0n);
}

function judgeIpv4(value: number, via?: string): AddressVerdict {
  for (const { base, bits, rule } of REFUSED_IPV4_RANGES) {
    const start = parseIpv4(base)!;
    if (value >= start && value < start + 2 ** (32 - bits)) return { isAllowed: false, rule: via ? `${via} → ${rule}` : rule };
  }
  return { isAllowed: true, rule: via ? `${via} → ipv4 public` : "ipv4 public" };
}

function judgeIpv6(value: bigint): AddressVerdict {
  for (const range of IPV6_OUTSIDE_GLOBAL_UNICAST.slice(0, 2)) {
    if (isInIpv6Range(value, range)) return { isAllowed: false, rule: range.rule };
  }
  for (const range of IPV6_WITH_TRAILING_IPV4) {
    if (isInIpv6Range(value, range)) return judgeIpv4(Number(value & 0xffffffffn), range.rule);
  }
  if (isInIpv6Range(value, SIX_TO_FOUR)) return judgeIpv4(Number((value >> 80n) & 0xffffffffn), SIX_TO_FOUR.rule);
  for (const range of IPV6_OUTSIDE_GLOBAL_UNICAST) {
    if (isInIpv6Range(value, range)) return { isAllowed: false, rule: range.rule };
  }
  if (!isInIpv6Range(value, GLOBAL_UNICAST)) return { isAllowed: false, rule: "ipv6 outside global unicast (2000::/3)" };
  for (const range of REFUSED_GLOBAL_IPV6_RANGES) {
    if (isInIpv6Range(value, range)) return { isAllowed: false, rule: range.rule };
  }
  return { isAllowed: true, rule: GLOBAL_UNICAST.rule };
}

/** Judges one address, IPv4 or IPv6 in any textual form; whatever is not an address is refused. */
export function classifyAddress(ip: string): AddressVerdict {
  const ipv4 = parseIpv4(ip);
  if (ipv4 !== undefined) return judgeIpv4(ipv4);
  const value = ip.includes(":") ? parseIpv6(ip) : undefined;
  if (value === undefined) return { isAllowed: false, rule: "not an IP address" };
  return judgeIpv6(value);
}

/** True for an address a webhook must not reach (anything that is not a globally reachable unicast address). */
export function isPrivateAddress(ip: string): boolean {
  return !classifyAddress(ip).isAllowed;
}
