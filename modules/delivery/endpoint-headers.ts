// The headers of one delivery attempt to one endpoint (docs/webhooks.md: Endpoints): the product's
// own, by format (`json`: the version-1 body; `raw`: the message as received) and signing scheme,
// then the endpoint's custom headers, which never replace or add to the product's.
import type { KeyObject } from "node:crypto";
import { type EndpointFormat, WEBHOOK_USER_AGENT } from "./delivery.constants";
import { isReservedHeaderName } from "./reserved-headers";
import { signWebhook, signWebhookEd25519 } from "./webhook-signature";

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

function signDelivery(signing: DeliverySigning, id: string, timestamp: number, body: string | Uint8Array): string | null {
  switch (signing.scheme) {
    case "hmac":
      return signWebhook({ id, timestamp, body, secret: signing.secret });
    case "ed25519":
      return signWebhookEd25519({ id, timestamp, body, privateKey: signing.privateKey });
    case "none":
      return null;
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
  const signature = signDelivery(endpoint.signing, id, timestamp, body);
  if (signature !== null) own["webhook-signature"] = signature;

  const ownNames = new Set(Object.keys(own).map((name) => name.toLowerCase()));
  const custom = Object.entries(endpoint.headers)
    .filter(([name]) => !isReservedHeaderName(name) && !ownNames.has(name.toLowerCase()))
    .map(([name, value]) => [name, toWireValue(value)] as const);
  return { ...Object.fromEntries(custom), ...own };
}
