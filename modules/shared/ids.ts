// Prefixed, URL-safe random ids (`usr_…`, `ecb_…`, `ep_…`, `ak_…`, `dom_…`): the prefix tells a reader
// what an id names, 22 base62 characters give ~131 bits of randomness.
import { randomInt } from "node:crypto";

export const ID_PREFIXES = {
  user: "usr",
  session: "ses",
  account: "acc",
  verification: "ver",
  rateLimit: "rl",
  emailCallback: "ecb",
  emailProcessing: "ep",
  deliveryAttempt: "da",
  endpoint: "ept",
  delivery: "dlv",
  apiKey: "ak",
  domain: "dom",
} as const;

export type IdKind = keyof typeof ID_PREFIXES;

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

export function generateRandomBase62(length: number): string {
  let out = "";
  for (let index = 0; index < length; index += 1) out += BASE62[randomInt(BASE62.length)];
  return out;
}

export function createId(kind: IdKind): string {
  return `${ID_PREFIXES[kind]}_${generateRandomBase62(22)}`;
}
