// Builds the raw RFC 5322 message of a provider that posted parsed fields instead of the message,
// with nodemailer's MailComposer. The pipeline then treats it like any other raw message.
import { createHash } from "node:crypto";
import MailComposer from "nodemailer/lib/mail-composer";
import type { MimeNodeHeaderValue } from "nodemailer/lib/mime-node";
import { GENERATED_MESSAGE_ID_DOMAIN, STRUCTURAL_HEADER_PATTERN } from "./inbound-providers.constants";
import type { HeaderField } from "./message-headers";

export type ComposedAttachment = {
  filename: string | undefined;
  contentType: string | undefined;
  content: Buffer;
  /** Content-ID without angle brackets: the part is inline, beside the HTML that refers to it. */
  contentId: string | undefined;
};

/** An address list as a header value ("A <a@x>, b@y") or as named addresses. */
export type AddressesInput = string | { name: string; address: string }[];

export type MessageFields = {
  from: AddressesInput | undefined;
  to: AddressesInput | undefined;
  cc: AddressesInput | undefined;
  replyTo?: AddressesInput | undefined;
  subject: string | undefined;
  messageId: string | undefined;
  /** A Date header value as sent; kept as is when it is not a date JavaScript can read. */
  date: string | undefined;
  text: string | undefined;
  html: string | undefined;
  /** The message's other headers; structural ones (Content-*, MIME-Version) and those given above are left out. */
  headers: readonly HeaderField[];
  attachments: readonly ComposedAttachment[];
};

const FIELD_HEADER_NAMES = {
  from: "from",
  to: "to",
  cc: "cc",
  replyTo: "reply-to",
  subject: "subject",
  messageId: "message-id",
  date: "date",
} as const;

export async function composeRawMessage(fields: MessageFields): Promise<Buffer> {
  const given = new Set<string>(
    Object.entries(FIELD_HEADER_NAMES)
      .filter(([key]) => isGiven(fields[key as keyof typeof FIELD_HEADER_NAMES]))
      .map(([, header]) => header),
  );
  const headers = fields.headers
    .filter(({ name, value }) => value && !STRUCTURAL_HEADER_PATTERN.test(name) && !given.has(name.toLowerCase()))
    .map(({ name, value }) => ({ key: name, value: toHeaderValue(name, value) }));
  const composer = new MailComposer({
    from: isGiven(fields.from) ? fields.from : undefined,
    to: isGiven(fields.to) ? fields.to : undefined,
    cc: isGiven(fields.cc) ? fields.cc : undefined,
    replyTo: isGiven(fields.replyTo) ? fields.replyTo : undefined,
    subject: fields.subject,
    messageId: fields.messageId || generateMessageId(fields),
    date: toDateValue(fields.date),
    text: fields.text,
    html: fields.html || undefined,
    headers,
    attachments: fields.attachments.map((attachment) => ({
      filename: attachment.filename || false,
      contentType: attachment.contentType || "application/octet-stream",
      content: attachment.content,
      ...(attachment.contentId ? { cid: attachment.contentId.replace(/^<|>$/g, "") } : {}),
    })),
    // The fields come from the network: never read a file or a URL named in them.
    disableFileAccess: true,
    disableUrlAccess: true,
    newline: "win",
  });
  return composer.compile().build();
}

/** Headers the composer parses and rebuilds itself (nodemailer's FORMATTED_HEADERS). */
const COMPOSER_FORMATTED_HEADERS = new Set(["from", "sender", "to", "cc", "bcc", "reply-to", "date", "references"]);

/**
 * A printable ASCII value goes out as sent, only folded: the composer would otherwise MIME-encode
 * a whole value for one double quote, and leave it encoded for readers of unknown headers. Other
 * values (non-ASCII text) are MIME-encoded by the composer.
 */
function toHeaderValue(name: string, value: string): MimeNodeHeaderValue {
  const oneLine = value.replace(/\r?\n|\r/g, " ");
  if (COMPOSER_FORMATTED_HEADERS.has(name.toLowerCase()) || !/^[\x20-\x7e\t]*$/.test(oneLine)) return oneLine;
  return { prepared: true, foldLines: true, value: oneLine };
}

function isGiven(value: AddressesInput | string | undefined): value is AddressesInput {
  return value !== undefined && value.length > 0;
}

/** An RFC 5322 date stays as sent (its zone kept); another readable date is rewritten as one. */
function toDateValue(date: string | undefined): Date | string | undefined {
  if (!date) return undefined;
  const parsed = new Date(date);
  if (Number.isNaN(parsed.getTime()) || /\d{2}:\d{2}(:\d{2})? [+-]\d{4}( \(.*\))?$/.test(date.trim())) return date;
  return parsed;
}

/**
 * A Message-ID derived from the content, for a provider that sent none: the same message
 * posted again gets the same one, so the pipeline's duplicate check still recognises it.
 */
function generateMessageId(fields: MessageFields): string {
  const hash = createHash("sha256");
  for (const value of [fields.from, fields.to, fields.cc, fields.subject, fields.date, fields.text, fields.html]) {
    hash.update(typeof value === "object" ? JSON.stringify(value) : (value ?? "")).update("\0");
  }
  for (const attachment of fields.attachments) hash.update(attachment.content).update("\0");
  return `<${hash.digest("hex").slice(0, 40)}@${GENERATED_MESSAGE_ID_DOMAIN}>`;
}
