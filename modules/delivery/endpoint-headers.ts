// The headers of one delivery attempt to one endpoint (docs/webhooks.md: Endpoints): the product's
// own, by format (`json`: the version-1 body; `raw`: the message as received) and signing scheme,
// then the endpoint's custom headers, which never replace or add to the product's.
import type { KeyObject } from "node:crypto";
import { type EndpointFormat, WEBHOOK_USER_AGENT } from "./delivery.constants";
import { isReservedHeaderName } from "./reserved-headers";
import { decryptSigningKey } from "./signing-keys";
import { createWebhookEd25519Signer, createWebhookSigner } from "./webhook-signature";

export type DeliverySigning =
  | { scheme: "hmac"; secret: string }
  | { scheme: "ed25519"; privateKey: KeyObject }
  | { scheme: "none" };

export type DeliveryEndpoint = {
  format: EndpointFormat;
  signing: DeliverySigning;
  /** Validated when saved (modules/endpoints: endpoints.schemas.ts). */
  headers: Record<string, string>;
};

/**
 * A header value as Node writes it: one character per byte, so text beyond Latin-1 (`€`) would be
 * refused and Latin-1 text would not go out as UTF-8. The value's UTF-8 bytes are sent instead.
 */
function toWireValue(value: string): string {
  return /^[\t\x20-\x7e]*$/.test(value) ? value : Buffer.from(value, "utf8").toString("latin1");
}

/**
 * The recipient as an ASCII header value: its UTF-8 bytes outside printable ASCII, a space, and `%`
 * itself, percent-encoded, so that `decodeURIComponent` gives back the recipient exactly.
 */
export function encodeRecipientHeader(recipient: string): string {
  return Array.from(Buffer.from(recipient, "utf8"), (byte) =>
    byte > 0x20 && byte < 0x7f && byte !== 0x25
      ? String.fromCharCode(byte)
      : `%${byte.toString(16).toUpperCase().padStart(2, "0")}`,
  ).join("");
}

/** An endpoint's signing as stored (the endpoint table's columns). */
export type StoredSigning = {
  endpointId: string;
  signingScheme: string;
  secret: string | null;
  publicKey: string | null;
  privateKeyEncrypted: string | null;
};

/**
 * How an endpoint's requests are signed; an Ed25519 key is decrypted for the caller's use only (an
 * attempt, one live event). Without the encryption key, an Ed25519 endpoint cannot be signed for.
 */
export function toDeliverySigning(stored: StoredSigning, encryptionKey: KeyObject | undefined): DeliverySigning {
  if (stored.signingScheme === "hmac" && stored.secret) return { scheme: "hmac", secret: stored.secret };
  if (stored.signingScheme !== "ed25519") return { scheme: "none" };
  if (!encryptionKey || !stored.privateKeyEncrypted || !stored.publicKey) {
    throw new Error(`endpoint ${stored.endpointId} signs with Ed25519 and its key cannot be read here`);
  }
  return {
    scheme: "ed25519",
    privateKey: decryptSigningKey({ encrypted: stored.privateKeyEncrypted, publicKey: stored.publicKey, encryptionKey }),
  };
}

/**
 * The signature of a body that comes in parts (a large stored body read a slice at a time): `sign`
 * answers the `webhook-signature` value, or null when the endpoint does not sign.
 */
export function createDeliverySigner(signing: DeliverySigning, id: string, timestamp: number) {
  switch (signing.scheme) {
    case "hmac":
      return createWebhookSigner({ id, timestamp, secret: signing.secret });
    case "ed25519":
      return createWebhookEd25519Signer({ id, timestamp, privateKey: signing.privateKey });
    case "none":
      return { update: (_part: Uint8Array) => undefined, sign: () => null };
  }
}

/**
 * The headers of one attempt. `id` is the processing id (the same for every endpoint of a mail and
 * every retry), `timestamp` the attempt's Unix seconds, `body` the exact bytes sent: the JSON body,
 * or the raw message; `recipient` the envelope recipient as the sender wrote it (sent with `raw`).
 */
export function buildDeliveryHeaders({
  endpoint,
  id,
  timestamp,
  body,
  recipient,
}: {
  endpoint: DeliveryEndpoint;
  id: string;
  timestamp: number;
  body: string | Uint8Array;
  recipient: string;
}): Record<string, string> {
  const signer = createDeliverySigner(endpoint.signing, id, timestamp);
  signer.update(typeof body === "string" ? Buffer.from(body, "utf8") : body);
  return buildSignedDeliveryHeaders({ endpoint, id, timestamp, signature: signer.sign(), recipient });
}

/** The same headers, with the signature made already (`null`: the endpoint does not sign). */
export function buildSignedDeliveryHeaders({
  endpoint,
  id,
  timestamp,
  signature,
  recipient,
}: {
  endpoint: Pick<DeliveryEndpoint, "format" | "headers">;
  id: string;
  timestamp: number;
  signature: string | null;
  recipient: string;
}): Record<string, string> {
  const own: Record<string, string> =
    endpoint.format === "raw"
      ? {
          "Content-Type": "message/rfc822",
          "User-Agent": WEBHOOK_USER_AGENT,
          "X-Hookmail-Recipient": encodeRecipientHeader(recipient),
          "X-Hookmail-Processing-Id": id,
        }
      : { "Content-Type": "application/json", "User-Agent": WEBHOOK_USER_AGENT };
  own["webhook-id"] = id;
  own["webhook-timestamp"] = String(timestamp);
  if (signature !== null) own["webhook-signature"] = signature;

  const ownNames = new Set(Object.keys(own).map((name) => name.toLowerCase()));
  const custom = Object.entries(endpoint.headers)
    .filter(([name]) => !isReservedHeaderName(name) && !ownNames.has(name.toLowerCase()))
    .map(([name, value]) => [name, toWireValue(value)] as const);
  return { ...Object.fromEntries(custom), ...own };
}
