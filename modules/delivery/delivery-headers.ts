// The headers of one delivery attempt to one endpoint (docs/webhooks.md: Destinations): the Standard
// Webhooks headers (`webhook-id` is the mail's processing id for every endpoint), the body's type (the
// webhook JSON, or the message as received with its recipient and processing id), and the endpoint's
// own headers, which never replace the product's.
import type { DeliveryTarget } from "./delivery.models";
import { buildWebhookHeaders } from "./webhook-signature";

export function buildDeliveryHeaders({
  target,
  timestamp,
  body,
  recipient,
}: {
  target: Pick<DeliveryTarget, "processingId" | "format" | "signingScheme" | "secret" | "headers">;
  timestamp: number;
  body: Uint8Array;
  /** The envelope recipient, sent with a raw message. */
  recipient: string;
}): Record<string, string> {
  const secret = target.signingScheme === "hmac" ? target.secret : null;
  const signed = buildWebhookHeaders({ id: target.processingId, timestamp, body, secret });
  const own =
    target.format === "raw"
      ? {
          ...signed,
          "Content-Type": "message/rfc822",
          "X-Hookmail-Recipient": recipient,
          "X-Hookmail-Processing-Id": target.processingId,
        }
      : signed;
  const taken = new Set(Object.keys(own).map((name) => name.toLowerCase()));
  const extra = Object.entries(target.headers).filter(([name]) => !taken.has(name.toLowerCase()));
  return { ...Object.fromEntries(extra), ...own };
}
