// Credentials of the HTTP ingest routes (README: Receiving mail): a Bearer token or HTTP basic auth whose
// password is INBOUND_SECRET, and Mailgun's signed timestamp/token. Every secret comparison takes
// the same time whatever the input: both sides are hashed, then compared with timingSafeEqual.
import { createHash, createHmac, timingSafeEqual } from "node:crypto";
import { MAILGUN_TIMESTAMP_TOLERANCE_SECONDS } from "./inbound-providers.constants";

/** Equality of two strings in a time that depends on neither their content nor their length. */
export function isEqualInConstantTime(actual: string, expected: string): boolean {
  const digest = (value: string) => createHash("sha256").update(value, "utf8").digest();
  return timingSafeEqual(digest(actual), digest(expected));
}

/** `Authorization: Bearer <secret>`. */
export function isBearerTokenValid(authorization: string | null, secret: string): boolean {
  const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(authorization ?? "");
  return isEqualInConstantTime(match?.[1] ?? "", secret) && Boolean(match);
}

/** `Authorization: Basic base64(user:password)` whose password is the secret; any user name. */
export function isBasicAuthPasswordValid(authorization: string | null, secret: string): boolean {
  const match = /^Basic[ \t]+([A-Za-z0-9+/]+=*)[ \t]*$/i.exec(authorization ?? "");
  const credentials = match?.[1] ? Buffer.from(match[1], "base64").toString("utf8") : "";
  const colon = credentials.indexOf(":");
  const password = colon === -1 ? "" : credentials.slice(colon + 1);
  return isEqualInConstantTime(password, secret) && colon !== -1;
}

export type MailgunSignature = { timestamp: string; token: string; signature: string };

/** Mailgun's signature: hex HMAC-SHA256 of timestamp + token, keyed with the signing key. */
export function computeMailgunSignature({ timestamp, token }: Omit<MailgunSignature, "signature">, signingKey: string) {
  return createHmac("sha256", signingKey)
    .update(timestamp + token)
    .digest("hex");
}

export function isMailgunSignatureValid(fields: MailgunSignature, signingKey: string): boolean {
  return isEqualInConstantTime(fields.signature.toLowerCase(), computeMailgunSignature(fields, signingKey));
}

/** A timestamp (Unix seconds) within the tolerance of `nowMs`, in the past or the future. */
export function isMailgunTimestampFresh(timestamp: string, nowMs: number): boolean {
  if (!/^\d{1,12}$/.test(timestamp)) return false;
  return Math.abs(nowMs / 1000 - Number(timestamp)) <= MAILGUN_TIMESTAMP_TOLERANCE_SECONDS;
}

/**
 * The Mailgun tokens already used. A token is accepted once: Mailgun's signature covers the
 * timestamp and the token only, not the body, so whoever sees one signed post could send any body
 * with it. The routes use the mailgun_token table (mailgun-token.repository.ts), shared by every process.
 */
export type MailgunTokenRegistry = {
  /** Whether the token was already used within its lifetime. */
  has(token: string, nowMs: number): Promise<boolean>;
  /** Remembers a token; false when it was already there (a replay). */
  claim(token: string, nowMs: number): Promise<boolean>;
  /** Forgets a token whose message was not accepted, so the provider's retry is not a replay. */
  release(token: string): Promise<void>;
};
