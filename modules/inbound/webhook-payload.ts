// A received message: parsed once with mailparser, turned into the webhook body of docs/webhooks.md
// (version 1) and into the summary the inbox row keeps. A message may be 25 MiB: it is fed to the
// parser in slices, and the attachments' base64 is written straight from their decoded bytes into
// the one Buffer of the body, never held as strings (webhook-body.ts, bench/large-message.ts).
import { Readable } from "node:stream";
import { type AddressObject, type Attachment, type EmailAddress, type ParsedMail, simpleParser } from "mailparser";
import { decodeEncodedWords } from "./encoded-words";
import { htmlToPlainText } from "./html-to-text";
import {
  MAIL_PARSER_OPTIONS,
  MAX_FROM_ADDRESS_LENGTH,
  MAX_MESSAGE_ID_BYTES,
  MAX_SUBJECT_LENGTH,
  WEBHOOK_EVENT_TYPE,
} from "./inbound.constants";
import { createInvalidMessageError } from "./inbound.errors";
import {
  rememberAttachmentBytes,
  serializeWebhookPayload,
  type WebhookAddress,
  type WebhookAttachment,
  type WebhookPayload,
} from "./webhook-body";

export type { WebhookAddress, WebhookAttachment, WebhookPayload } from "./webhook-body";
export type { ParsedMail };

export type MailSummary = { fromAddress: string; subject: string; messageId: string | null };

/**
 * Parses a raw RFC 5322 message. Bodies and attachments are kept as sent: no cid: link becomes a
 * data: URL, no delivery status or attached message is unpacked into the text.
 * Throws inbound.invalid_message (400) for an empty body or one mailparser cannot read at all.
 */
export async function parseMail(raw: Buffer): Promise<ParsedMail> {
  if (isBlank(raw)) throw createInvalidMessageError();
  let parsed: ParsedMail;
  try {
    parsed = await simpleParser(readInSlices(raw), MAIL_PARSER_OPTIONS);
  } catch (error) {
    throw createInvalidMessageError(error);
  }
  // An HTML-only body: its text is made here, in bounded time (the parser is told to skip it).
  if (!parsed.text?.trim() && parsed.html) parsed.text = htmlToPlainText(parsed.html);
  return parsed;
}

/** What the parser is fed at a time: small enough that its line splitting and decoding keep pace. */
const PARSE_SLICE_BYTES = 256 * 1024;

/**
 * The message as a stream of slices (views, not copies). Given one Buffer, mailparser would split
 * and decode all of it in one synchronous step, queueing every line of a 25 MiB message at once;
 * fed in slices with backpressure, it holds about a slice in flight.
 */
function readInSlices(raw: Buffer): Readable {
  let offset = 0;
  return new Readable({
    read() {
      if (offset >= raw.length) return void this.push(null);
      const end = Math.min(offset + PARSE_SLICE_BYTES, raw.length);
      this.push(raw.subarray(offset, end));
      offset = end;
    },
  });
}

/** Whether the bytes hold nothing but spaces, tabs and line breaks (stops at the first other byte). */
function isBlank(raw: Buffer): boolean {
  for (const byte of raw) if (byte !== 0x20 && byte !== 0x09 && byte !== 0x0a && byte !== 0x0d) return false;
  return true;
}

export function buildWebhookPayload({
  processingId,
  emailCallbackId,
  address,
  tag,
  envelope,
  parsed,
  receivedAt,
}: {
  processingId: string;
  emailCallbackId: string;
  /** The callback's address (username@domain). */
  address: string;
  tag: string | null;
  /** The envelope as it concerns this callback: the sender and the recipients routed to it. */
  envelope: { from: string | null; to: string[] };
  parsed: ParsedMail;
  receivedAt: Date;
}): WebhookPayload {
  const headers = readHeaderFields(parsed);
  return {
    type: WEBHOOK_EVENT_TYPE,
    timestamp: receivedAt.toISOString(),
    data: {
      id: processingId,
      emailCallbackId,
      address,
      tag,
      envelope: { from: envelope.from, to: [...envelope.to] },
      from: findFromAddress(parsed),
      to: listAddresses(parsed.to),
      cc: listAddresses(parsed.cc),
      replyTo: listAddresses(parsed.replyTo),
      subject: parsed.subject ?? "",
      date: readDate(headers),
      messageId: parsed.messageId ?? "",
      inReplyTo: parsed.inReplyTo || null,
      references: parsed.references === undefined ? [] : [parsed.references].flat(),
      text: parsed.text ?? "",
      html: parsed.html || "",
      headers,
      attachments: parsed.attachments.map(formatAttachment),
    },
  };
}

/** One webhook body to build: everything of it that is not in the message. */
export type WebhookPayloadRequest = Omit<Parameters<typeof buildWebhookPayload>[0], "parsed" | "receivedAt">;

/**
 * What a received message gives the pipeline: the inbox row's summary and the serialized webhook
 * body of each request, from one parse. The parsed message never leaves this function: this is the
 * work of a parsing thread (parse-worker.ts), and only bytes and the summary go back.
 * Throws inbound.invalid_message as parseMail does.
 */
export async function buildMessageOutputs({
  raw,
  sender,
  receivedAt,
  payloads,
}: {
  raw: Buffer;
  sender: string | null;
  receivedAt: Date;
  payloads: WebhookPayloadRequest[];
}): Promise<{ summary: MailSummary; payloads: Buffer[] }> {
  const parsed = await parseMail(raw);
  return {
    summary: summarizeMail(parsed, sender),
    payloads: payloads.map((request) => serializeWebhookPayload(buildWebhookPayload({ ...request, parsed, receivedAt }))),
  };
}

/** What the inbox row shows: the sender (the From header, else the envelope sender), the subject and the Message-ID. */
export function summarizeMail(parsed: ParsedMail, envelopeFrom: string | null = null): MailSummary {
  const fromAddress = findFromAddress(parsed)?.address || envelopeFrom || "";
  const messageId = removeNul(parsed.messageId ?? "");
  return {
    fromAddress: truncateCodePoints(removeNul(fromAddress), MAX_FROM_ADDRESS_LENGTH),
    subject: truncateCodePoints(removeNul(parsed.subject ?? ""), MAX_SUBJECT_LENGTH),
    messageId: messageId ? truncateUtf8(messageId, MAX_MESSAGE_ID_BYTES) : null,
  };
}

// ---------------------------------------------------------------------------------------------
// Addresses

/** Every mailbox of a header, groups flattened; entries without an address are left out. */
function flattenMailboxes(entries: EmailAddress[]): WebhookAddress[] {
  return entries.flatMap((entry) => [
    ...(entry.address ? [{ address: entry.address, name: entry.name ?? "" }] : []),
    ...flattenMailboxes(entry.group ?? []),
  ]);
}

function listAddresses(header: AddressObject | AddressObject[] | undefined): WebhookAddress[] {
  if (!header) return [];
  return [header].flat().flatMap((object) => flattenMailboxes(object.value ?? []));
}

/** The first mailbox of the From header, or null when there is none or it cannot be read. */
function findFromAddress(parsed: ParsedMail): WebhookAddress | null {
  return listAddresses(parsed.from)[0] ?? null;
}

// ---------------------------------------------------------------------------------------------
// Headers

/**
 * The message's header fields in their order, with their names as sent and their values
 * unfolded, RFC 2047-decoded and read as UTF-8 (RFC 6532). Lines that are no field (no name
 * before a colon) are left out.
 */
function readHeaderFields(parsed: ParsedMail): { name: string; value: string }[] {
  return (parsed.headerLines ?? []).flatMap(({ line }) => {
    // mailparser hands the raw header bytes over as a binary string.
    const text = Buffer.from(line, "latin1").toString("utf8");
    const colon = text.indexOf(":");
    const name = colon > 0 ? text.slice(0, colon).trim() : "";
    if (!name) return [];
    const value = text
      .slice(colon + 1)
      .replace(/\r?\n/g, "")
      .trim();
    return [{ name, value: decodeEncodedWords(value) }];
  });
}

/** The Date header as an ISO string, or null when it is missing or no date (mailparser would say "now"). */
function readDate(headers: { name: string; value: string }[]): string | null {
  const header = headers.findLast((field) => field.name.toLowerCase() === "date");
  if (!header) return null;
  const date = new Date(header.value);
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}

// ---------------------------------------------------------------------------------------------
// Attachments

/**
 * An attachment of the payload. Its `content` (base64) is computed when read: serializing writes
 * the base64 from the bytes directly, so that a large attachment never exists as a string.
 */
function formatAttachment(attachment: Attachment): WebhookAttachment {
  const declared = attachment.headers?.get("content-type") as { value?: string } | undefined;
  const bytes = attachment.content;
  const formatted = {
    filename: attachment.filename ?? "",
    // The type as declared: mailparser would guess a type from the file name of an application/octet-stream part.
    contentType: (declared?.value || attachment.contentType || "application/octet-stream").toLowerCase(),
    size: bytes.length,
    contentId: attachment.contentId?.trim() || null,
    disposition: attachment.contentDisposition?.toLowerCase() === "inline" ? "inline" : "attachment",
  } as WebhookAttachment;
  Object.defineProperty(formatted, "content", { enumerable: true, get: () => bytes.toString("base64") });
  rememberAttachmentBytes(formatted, bytes);
  return formatted;
}

// ---------------------------------------------------------------------------------------------
// Text columns

/** PostgreSQL's text type cannot hold U+0000. */
function removeNul(value: string): string {
  return value.replaceAll("\u0000", "");
}

function truncateCodePoints(value: string, maxLength: number): string {
  if (value.length <= maxLength) return value;
  return Array.from(value).slice(0, maxLength).join("");
}

function truncateUtf8(value: string, maxBytes: number): string {
  if (Buffer.byteLength(value, "utf8") <= maxBytes) return value;
  let output = "";
  let bytes = 0;
  for (const character of value) {
    bytes += Buffer.byteLength(character, "utf8");
    if (bytes > maxBytes) break;
    output += character;
  }
  return output;
}
