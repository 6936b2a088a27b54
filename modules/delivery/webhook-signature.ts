// The Standard Webhooks signatures and headers of a Hookmail webhook (docs/webhooks.md): the signed
// content is `{id}.{timestamp}.{body}` over the exact body bytes; `v1` is an HMAC-SHA256 keyed with
// the secret's UTF-8 bytes, `v1a` an Ed25519 signature by the endpoint's private key.
import { createHmac, type KeyObject, sign, timingSafeEqual, verify } from "node:crypto";
import { WEBHOOK_USER_AGENT } from "./delivery.constants";
import { parsePublicKey } from "./signing-keys";

export type WebhookSignatureInput = {
  /** The processing id: the same on every retry. */
  id: string;
  /** Unix seconds of this attempt. */
  timestamp: number;
  /** The exact bytes sent (a string is taken as UTF-8). */
  body: string | Uint8Array;
  secret: string;
};

/** `v1,` + base64(HMAC-SHA256(secret's UTF-8 bytes, `{id}.{timestamp}.{body}`)). */
export function signWebhook({ id, timestamp, body, secret }: WebhookSignatureInput): string {
  const signer = createWebhookSigner({ id, timestamp, secret });
  signer.update(typeof body === "string" ? Buffer.from(body, "utf8") : body);
  return signer.sign();
}

/** The same signature over a body that comes in parts (a large stored body read a slice at a time). */
export function createWebhookSigner({ id, timestamp, secret }: Omit<WebhookSignatureInput, "body">) {
  if (!Number.isInteger(timestamp)) throw new TypeError("the webhook timestamp must be whole Unix seconds");
  const hmac = createHmac("sha256", Buffer.from(secret, "utf8"));
  hmac.update(`${id}.${timestamp}.`, "utf8");
  return {
    update: (part: Uint8Array) => void hmac.update(part),
    sign: () => `v1,${hmac.digest("base64")}`,
  };
}

/** The headers of one attempt; `webhook-signature` only when the callback has a secret. */
export function buildWebhookHeaders({
  id,
  timestamp,
  body,
  secret,
}: Omit<WebhookSignatureInput, "secret"> & { secret?: string | null }): Record<string, string> {
  const headers: Record<string, string> = {
    "Content-Type": "application/json",
    "User-Agent": WEBHOOK_USER_AGENT,
    "webhook-id": id,
    "webhook-timestamp": String(timestamp),
  };
  if (secret) headers["webhook-signature"] = signWebhook({ id, timestamp, body, secret });
  return headers;
}

/** `v1a,` + base64(Ed25519 signature of `{id}.{timestamp}.{body}`) (docs/webhooks.md: Ed25519 signatures). */
export function signWebhookEd25519({
  id,
  timestamp,
  body,
  privateKey,
}: Omit<WebhookSignatureInput, "secret"> & { privateKey: KeyObject }): string {
  const signer = createWebhookEd25519Signer({ id, timestamp, privateKey });
  signer.update(typeof body === "string" ? Buffer.from(body, "utf8") : body);
  return signer.sign();
}

/**
 * The same over a body that comes in parts. Ed25519 reads its message twice, so the parts are kept
 * (as the Buffers they are, never turned into text, and not copied: a part must not be reused
 * before `sign`) and signed once, joined, at the end.
 */
export function createWebhookEd25519Signer({
  id,
  timestamp,
  privateKey,
}: Pick<WebhookSignatureInput, "id" | "timestamp"> & { privateKey: KeyObject }) {
  if (!Number.isInteger(timestamp)) throw new TypeError("the webhook timestamp must be whole Unix seconds");
  if (privateKey.type !== "private" || privateKey.asymmetricKeyType !== "ed25519") {
    throw new TypeError("an Ed25519 private key is expected");
  }
  const parts: Uint8Array[] = [Buffer.from(`${id}.${timestamp}.`, "utf8")];
  return {
    update: (part: Uint8Array) => void parts.push(part),
    sign: () => `v1a,${sign(null, Buffer.concat(parts), privateKey).toString("base64")}`,
  };
}

export type WebhookVerificationKey = { scheme: "hmac"; secret: string } | { scheme: "ed25519"; publicKey: string };

/**
 * Whether a `webhook-signature` header holds a valid signature of this id, timestamp (as the header
 * gave it) and body under the key: `v1` for a secret, `v1a` for a `whpk_` public key. The header may
 * hold several space-separated signatures; one valid is enough. The timestamp's age is the
 * receiver's own check (docs/webhooks.md: Verifying the signature).
 */
export function verifyWebhookSignature({
  id,
  timestamp,
  body,
  signature,
  key,
}: {
  id: string;
  timestamp: string | number;
  body: string | Uint8Array;
  signature: string;
  key: WebhookVerificationKey;
}): boolean {
  const content = Buffer.concat([
    Buffer.from(`${id}.${timestamp}.`, "utf8"),
    typeof body === "string" ? Buffer.from(body, "utf8") : body,
  ]);
  const version = key.scheme === "hmac" ? "v1" : "v1a";
  const candidates = signature
    .split(" ")
    .filter((part) => part.startsWith(`${version},`))
    .map((part) => Buffer.from(part.slice(version.length + 1), "base64"));
  if (key.scheme === "hmac") {
    const expected = createHmac("sha256", Buffer.from(key.secret, "utf8")).update(content).digest();
    return candidates.some((given) => given.length === expected.length && timingSafeEqual(given, expected));
  }
  const publicKey = parsePublicKey(key.publicKey);
  return candidates.some((given) => given.length === 64 && verify(null, content, publicKey, given));
}
