// The Standard Webhooks signature and headers of a Hookmail webhook (docs/webhooks.md): the key is the
// secret's UTF-8 bytes, the signed content is `{id}.{timestamp}.{body}` over the exact body bytes.
import { createHmac } from "node:crypto";
import { WEBHOOK_USER_AGENT } from "./delivery.constants";

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
