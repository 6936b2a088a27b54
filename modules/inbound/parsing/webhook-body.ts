// The webhook payload's shape (docs/webhooks.md) and its bytes, built from the payload
// buildWebhookPayload made (webhook-payload.ts): one Buffer of the final size, with each
// attachment's base64 written straight from its decoded bytes, so that a 25 MiB message's
// attachments never exist as strings (bench/large-message.ts).
import { randomUUID } from "node:crypto";
import type { MailAuthentication } from "@/modules/mail-checks/mail-auth.models";
import type { MailFlags } from "./mail-traits";
import type { WEBHOOK_EVENT_TYPE } from "./parsing.constants";

export type WebhookAddress = { address: string; name: string };

export type WebhookAttachment = {
  filename: string;
  contentType: string;
  /** Decoded size in bytes. */
  size: number;
  /** The Content-ID header as sent (with its angle brackets), or null. */
  contentId: string | null;
  disposition: "attachment" | "inline";
  /** The decoded bytes, base64; null when the address takes attachments by link. */
  content: string | null;
  /** SHA-256 of the decoded bytes, hex. */
  sha256: string;
  /** A signed, expiring link to the bytes when the address takes attachments by link; else null. */
  url: string | null;
};

/** The message exactly as received. */
export type WebhookRawMessage = { size: number; sha256: string; url: string | null; expiresAt: string | null };

/** rspamd's opinion of the mail, when an rspamd is configured. */
export type WebhookSpamVerdict = { score: number; action: string; isSpam: boolean };

export type WebhookPayload = {
  type: typeof WEBHOOK_EVENT_TYPE;
  timestamp: string;
  data: {
    id: string;
    emailCallbackId: string;
    address: string;
    /** The recipient as the sender wrote it (tag included), routed to this address. */
    recipient: string;
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
    raw: WebhookRawMessage;
    /** Null when the checks are off or could not run. */
    authentication: MailAuthentication | null;
    spam: WebhookSpamVerdict | null;
    flags: MailFlags;
    reply: { text: string | null };
    threadId: string | null;
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
  const { attachments } = payload.data;
  if (!attachments.some((attachment) => attachmentBytes.has(attachment) && attachment.content !== null)) {
    return Buffer.from(JSON.stringify(payload), "utf8");
  }
  // The body with a unique placeholder where the attachments go, split around it.
  const placeholder = `attachments-${randomUUID()}`;
  const [before, after] = JSON.stringify({ ...payload, data: { ...payload.data, attachments: placeholder } }).split(
    JSON.stringify(placeholder),
  ) as [string, string];
  const parts: (string | Buffer)[] = [`${before}[`];
  for (const [index, attachment] of attachments.entries()) {
    if (index > 0) parts.push(",");
    parts.push(...serializeAttachment(attachment));
  }
  parts.push(`]${after}`);

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

/** One attachment's JSON in its key order, its `content` as the decoded bytes to write as base64. */
function serializeAttachment(attachment: WebhookAttachment): (string | Buffer)[] {
  const bytes = attachmentBytes.get(attachment);
  if (!bytes || attachment.content === null) return [JSON.stringify(attachment)];
  const keys = Object.keys(attachment) as (keyof WebhookAttachment)[];
  const contentIndex = keys.indexOf("content");
  const pick = (selected: (keyof WebhookAttachment)[]) => Object.fromEntries(selected.map((key) => [key, attachment[key]]));
  // `{…,"content":"` then the base64, then `"` and the keys after content (`,…}`), or `"}`.
  const head = JSON.stringify({ ...pick(keys.slice(0, contentIndex)), content: "" }).slice(0, -2);
  const rest = keys.slice(contentIndex + 1);
  const tail = rest.length > 0 ? `",${JSON.stringify(pick(rest)).slice(1)}` : '"}';
  return [head, bytes, tail];
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
