// The webhook payload's shape (docs/webhooks.md) and its bytes, built from the payload
// buildWebhookPayload made (webhook-payload.ts): one Buffer of the final size, with each
// attachment's base64 written straight from its decoded bytes, so that a 25 MiB message's
// attachments never exist as strings (bench/large-message.ts).
import type { WEBHOOK_EVENT_TYPE } from "./inbound.constants";

export type WebhookAddress = { address: string; name: string };

export type WebhookAttachment = {
  filename: string;
  contentType: string;
  /** Decoded size in bytes. */
  size: number;
  /** The Content-ID header as sent (with its angle brackets), or null. */
  contentId: string | null;
  disposition: "attachment" | "inline";
  /** The decoded bytes, base64. */
  content: string;
};

export type WebhookPayload = {
  type: typeof WEBHOOK_EVENT_TYPE;
  timestamp: string;
  data: {
    id: string;
    emailCallbackId: string;
    address: string;
    tag: string | null;
    envelope: { from: string | null; to: string[] };
    from: WebhookAddress | null;
    to: WebhookAddress[];
    cc: WebhookAddress[];
    replyTo: WebhookAddress[];
    subject: string;
    date: string | null;
    messageId: string;
    inReplyTo: string | null;
    references: string[];
    text: string;
    html: string;
    headers: { name: string; value: string }[];
    attachments: WebhookAttachment[];
  };
};

/** The decoded bytes behind the `content` of the attachments buildWebhookPayload made. */
const attachmentBytes = new WeakMap<WebhookAttachment, Buffer>();

/** Records the decoded bytes behind an attachment's `content`, for serializeWebhookPayload to write. */
export function rememberAttachmentBytes(attachment: WebhookAttachment, bytes: Buffer) {
  attachmentBytes.set(attachment, bytes);
}

/**
 * The body's bytes: exactly `JSON.stringify(payload)` in UTF-8. The content of attachments made by
 * buildWebhookPayload is written as base64 from their decoded bytes, a slice at a time, into one
 * Buffer of the final size: no base64 string and no JSON string of the whole body is built.
 */
export function serializeWebhookPayload(payload: WebhookPayload): Buffer {
  const { attachments, ...data } = payload.data;
  const isDataLast = Object.keys(payload).at(-1) === "data" && Object.keys(payload.data).at(-1) === "attachments";
  if (!isDataLast || !attachments.some((attachment) => attachmentBytes.has(attachment))) {
    return Buffer.from(JSON.stringify(payload), "utf8");
  }
  // `{…,"attachments":[]}}` without its last three characters, then each attachment, then `]}}`.
  const parts: (string | Buffer)[] = [JSON.stringify({ ...payload, data: { ...data, attachments: [] } }).slice(0, -3)];
  for (const [index, attachment] of attachments.entries()) {
    const separator = index === 0 ? "" : ",";
    const bytes = attachmentBytes.get(attachment);
    if (!bytes) {
      parts.push(separator + JSON.stringify(attachment));
      continue;
    }
    // The metadata in its key order, then `"content":"` (the last key), the base64 and `"}`.
    const metadata = Object.fromEntries(
      Object.keys(attachment)
        .filter((key) => key !== "content")
        .map((key) => [key, attachment[key as keyof WebhookAttachment]]),
    );
    parts.push(`${separator}${JSON.stringify({ ...metadata, content: "" }).slice(0, -2)}`, bytes, '"}');
  }
  parts.push("]}}");

  const length = parts.reduce(
    (total, part) => total + (typeof part === "string" ? Buffer.byteLength(part, "utf8") : base64Length(part.length)),
    0,
  );
  const body = Buffer.allocUnsafe(length);
  let offset = 0;
  for (const part of parts) {
    if (typeof part === "string") offset += body.write(part, offset, "utf8");
    else offset = writeBase64(part, body, offset);
  }
  if (offset !== length) throw new Error(`the webhook body came out ${offset} bytes long instead of ${length}`);
  return body;
}

/** Bytes encoded at a time: a multiple of 3, so that the slices' base64 joins into the whole's. */
const BASE64_SLICE_BYTES = 3 * 16 * 1024;

const base64Length = (byteLength: number) => 4 * Math.ceil(byteLength / 3);

/** Writes the base64 of `bytes` into `target` at `offset`; answers the offset after it. */
function writeBase64(bytes: Buffer, target: Buffer, offset: number): number {
  let position = offset;
  for (let start = 0; start < bytes.length; start += BASE64_SLICE_BYTES) {
    position += target.write(bytes.subarray(start, start + BASE64_SLICE_BYTES).toString("base64"), position, "latin1");
  }
  return position;
}
