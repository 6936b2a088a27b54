// The part of punycode.js (RFC 3492) the dashboard uses to show IDNs as typed (domain-names.ts).
declare module "punycode.js" {
  /** The Unicode form of a Punycode string (a label's part after `xn--`); throws a RangeError on invalid input. */
  export function decode(input: string): string;
}
