// A received message: parsed once with mailparser, turned into the webhook body of docs/webhooks.md
// (version 1) and into the summary the inbox row keeps. A message may be 25 MiB: it is fed to the
// parser in slices, and the attachments' base64 is written straight from their decoded bytes into
// the one Buffer of the body, never held as strings (webhook-body.ts, bench/large-message.ts).
import { createHash } from "node:crypto";
import { Readable } from "node:stream";
import { type Attachment, type ParsedMail, simpleParser } from "mailparser";
import type { ContentLinkSigner } from "@/modules/content-links/content-links";
import type { MailAuthentication } from "@/modules/mail-checks/mail-auth.models";
import { type EndpointSelection, selectEndpoints } from "./endpoint-filter";
import { readHeaderFields } from "./header-fields";
import { htmlToPlainText } from "./html-to-text";
import { findFromAddress, listAddresses } from "./mail-addresses";
import { type MailSummary, summarizeMail } from "./mail-summary";
import { readMailFlags, readThreadId } from "./mail-traits";
import { MAIL_PARSER_OPTIONS, WEBHOOK_EVENT_TYPE } from "./parsing.constants";
import { createInvalidMessageError } from "./parsing.errors";
import { extractReplyText } from "./reply/reply-text";
import {
  rememberAttachmentBytes,
  serializeWebhookPayload,
  type WebhookAttachment,
  type WebhookPayload,
  type WebhookSpamVerdict,
} from "./webhook-body";

export type { MailSummary } from "./mail-summary";
export { summarizeMail } from "./mail-summary";
export type { WebhookAddress, WebhookAttachment, WebhookPayload } from "./webhook-body";
export type { ParsedMail };

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

/** What one parse of a message gives every payload built from it. */
export type ReceivedMessage = {
  parsed: ParsedMail;
  receivedAt: Date;
  /** Size and SHA-256 of the message exactly as received. */
  rawFacts: { size: number; sha256: string };
  authentication: MailAuthentication | null;
  spam: WebhookSpamVerdict | null;
  /** Signs the links to the content; null: no links (the payload's urls are null). */
  links: ContentLinkSigner | null;
};

export type AttachmentDelivery = "inline" | "url";

export function buildWebhookPayload({
  processingId,
  emailCallbackId,
  address,
  recipient = address,
  tag,
  envelope,
  attachmentDelivery = "inline",
  parsed,
  receivedAt,
  rawFacts,
  authentication = null,
  spam = null,
  links = null,
}: {
  processingId: string;
  emailCallbackId: string;
  /** The callback's address (username@domain; a pattern or `*` on a user's own domain). */
  address: string;
  /** The recipient routed to it as the sender wrote it, tag included (the address when left out). */
  recipient?: string;
  tag: string | null;
  /** The envelope as it concerns this callback: the sender and the recipients routed to it. */
  envelope: { from: string | null; to: string[] };
  /** The address's choice: attachments as base64 in the body, or as links (only when links can be signed). */
  attachmentDelivery?: AttachmentDelivery;
} & Pick<ReceivedMessage, "parsed" | "receivedAt" | "rawFacts"> &
  Partial<Pick<ReceivedMessage, "authentication" | "spam" | "links">>): WebhookPayload {
  const headers = readHeaderFields(parsed);
  const linkTo = links ? (part: Parameters<ContentLinkSigner["link"]>[1]) => links.link(processingId, part) : null;
  const byLink = attachmentDelivery === "url" && linkTo !== null;
  return {
    type: WEBHOOK_EVENT_TYPE,
    timestamp: receivedAt.toISOString(),
    data: {
      id: processingId,
      emailCallbackId,
      address,
      recipient,
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
      attachments: parsed.attachments.map((attachment, index) =>
        formatAttachment(attachment, byLink ? linkTo(`attachments/${index}`) : null),
      ),
      raw: {
        ...rawFacts,
        url: linkTo ? linkTo("raw") : null,
        expiresAt: links ? links.expiresAt.toISOString() : null,
      },
      authentication,
      spam,
      flags: readMailFlags({ headers, sender: envelope.from, parsed }),
      reply: { text: extractReplyText(parsed.text) },
      threadId: readThreadId(parsed),
    },
  };
}

/** The message exactly as received, as the payload's `raw` describes it. */
export function describeRawMessage(raw: Buffer): ReceivedMessage["rawFacts"] {
  return { size: raw.length, sha256: createHash("sha256").update(raw).digest("hex") };
}

/** One webhook body to build: everything of it that is not in the message. */
export type WebhookPayloadRequest = Omit<Parameters<typeof buildWebhookPayload>[0], keyof ReceivedMessage>;

/**
 * What a received message gives the pipeline: the inbox row's summary, the serialized webhook body of
 * each request and, for each selection, the endpoints whose filter the mail passes, from one parse.
 * The parsed message never leaves this function: this is the work of a parsing thread
 * (parse-worker.ts), and only bytes, the summary and endpoint ids go back.
 * Throws inbound.invalid_message as parseMail does.
 */
export async function buildMessageOutputs({
  raw,
  sender,
  payloads,
  selections = [],
  ...message
}: {
  raw: Buffer;
  sender: string | null;
  payloads: WebhookPayloadRequest[];
  /** The endpoints to choose from, per address (docs/webhooks.md: Filters). */
  selections?: EndpointSelection[];
} & Pick<ReceivedMessage, "receivedAt"> &
  Partial<Pick<ReceivedMessage, "authentication" | "spam" | "links">>): Promise<{
  summary: MailSummary;
  payloads: Buffer[];
  /** Per selection, the ids of the endpoints that take the mail, in their order. */
  taken: string[][];
}> {
  const rawFacts = describeRawMessage(raw);
  const parsed = await parseMail(raw);
  return {
    summary: summarizeMail(parsed, sender),
    payloads: payloads.map((request) =>
      serializeWebhookPayload(buildWebhookPayload({ ...request, ...message, parsed, rawFacts })),
    ),
    taken: selections.map((selection) =>
      selectEndpoints(selection, parsed, { authentication: message.authentication ?? null, spam: message.spam ?? null }),
    ),
  };
}

// ---------------------------------------------------------------------------------------------
// Headers

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
function formatAttachment(attachment: Attachment, url: string | null): WebhookAttachment {
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
  if (url) formatted.content = null;
  else Object.defineProperty(formatted, "content", { enumerable: true, get: () => bytes.toString("base64") });
  formatted.sha256 = createHash("sha256").update(bytes).digest("hex");
  formatted.url = url;
  if (!url) rememberAttachmentBytes(formatted, bytes);
  return formatted;
}
