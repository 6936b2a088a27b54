// A received message: parsed once with mailparser's streaming parser, turned into the webhook body of
// docs/webhooks.md (version 1) and into the summary the inbox row keeps. A message may be 25 MiB: its
// attachments' base64 goes into the bodies chunk by chunk as they are decoded, and no attachment is
// held whole (mail-stream.ts, webhook-pieces.ts; docs/architecture.md: Large values).
import { createHash } from "node:crypto";
import type { ContentLinkSigner } from "@/modules/content-links/content-links";
import type { MailAuthentication } from "@/modules/mail-checks/mail-auth.models";
import { createJoiningSink } from "./body-sinks";
import { type EndpointSelection, selectEndpoints } from "./endpoint-filter";
import { readHeaderFields } from "./header-fields";
import { findFromAddress, listAddresses } from "./mail-addresses";
import { type MessageAttachment, type ParsedMessage, streamMessage } from "./mail-stream";
import { type MailSummary, summarizeMail } from "./mail-summary";
import { readMailFlags, readThreadId } from "./mail-traits";
import type { MessageSource } from "./message-source";
import { WEBHOOK_EVENT_TYPE } from "./parsing.constants";
import { extractReplyText } from "./reply/reply-text";
import type { WebhookAttachment, WebhookPayload, WebhookSpamVerdict } from "./webhook-body";
import { attachmentContentPart, type BodySink, createBase64Encoder, writeBodyFrame } from "./webhook-pieces";

export type { MailSummary } from "./mail-summary";
export { summarizeMail } from "./mail-summary";
export type { WebhookAddress, WebhookAttachment, WebhookPayload } from "./webhook-body";
export type { ParsedMessage };

/**
 * Parses a raw RFC 5322 message with every attachment's bytes kept (mail-stream.ts): for reading
 * one message's attachments whole, never on the way of receiving mail.
 * Throws inbound.invalid_message (400) for an empty body or one mailparser cannot read at all.
 */
export async function parseMail(raw: Buffer): Promise<ParsedMessage> {
  return streamMessage(raw, { keep: () => true });
}

/** What one parse of a message gives every payload built from it. */
export type ReceivedMessage = {
  parsed: ParsedMessage;
  receivedAt: Date;
  /** Size and SHA-256 of the message exactly as received. */
  rawFacts: { size: number; sha256: string };
  authentication: MailAuthentication | null;
  spam: WebhookSpamVerdict | null;
  /** Signs the links to the content; null: no links (the payload's urls are null). */
  links: ContentLinkSigner | null;
};

export type AttachmentDelivery = "inline" | "url";

/** Whether a payload gives the attachments as links (only when links can be signed), not as base64. */
export const isByLink = (attachmentDelivery: AttachmentDelivery | undefined, links: ContentLinkSigner | null = null) =>
  attachmentDelivery === "url" && links !== null;

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
  const byLink = isByLink(attachmentDelivery, links);
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
        formatAttachment(attachment, byLink && linkTo ? linkTo(`attachments/${index}`) : null),
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
 * What a received message gives the pipeline: the inbox row's summary, the webhook body of each
 * request and, for each selection, the endpoints whose filter the mail passes, from one parse. Each
 * body is written to the sink `openSink` gives it (body-sinks.ts): the attachments' base64 while the
 * message streams through the parser, encoded once for all bodies, the rest at the end
 * (webhook-pieces.ts). The parsed message never leaves this function: this is the work of a parsing
 * thread (parse-worker.ts), and only bytes, the summary and endpoint ids go back.
 * Throws inbound.invalid_message as parseMail does.
 */
export async function buildMessageOutputs<Body = Buffer>({
  raw,
  sender,
  payloads,
  selections = [],
  openSink = createJoiningSink as unknown as (index: number) => BodySink<Body>,
  ...message
}: {
  /** The message's bytes, or its spooled file: hashed as the parser reads it (message-source.ts). */
  raw: MessageSource;
  sender: string | null;
  payloads: WebhookPayloadRequest[];
  /** The endpoints to choose from, per address (docs/webhooks.md: Filters). */
  selections?: EndpointSelection[];
  /** Where the body of the request at `index` goes; joined into one Buffer when left out. */
  openSink?: (index: number) => BodySink<Body>;
} & Pick<ReceivedMessage, "receivedAt"> &
  Partial<Pick<ReceivedMessage, "authentication" | "spam" | "links">>): Promise<{
  summary: MailSummary;
  payloads: Body[];
  /** Per selection, the ids of the endpoints that take the mail, in their order. */
  taken: string[][];
}> {
  // Hashed as the parser reads it: a spooled message is never whole in memory.
  const hash = createHash("sha256");
  const sinks = payloads.map((_, index) => openSink(index));
  const inline = sinks.filter((_, index) => !isByLink(payloads[index]!.attachmentDelivery, message.links));
  const base64 = createBase64Encoder();
  const parsed = await streamMessage(raw, {
    onBytes: (slice) => hash.update(slice),
    onChunk: async (index, chunk) => {
      if (inline.length === 0) return;
      const text = base64.push(chunk);
      for (const sink of inline) await sink.append(attachmentContentPart(index), text, "latin1");
    },
    onEnd: async (index) => {
      const text = base64.end();
      for (const sink of inline) {
        await sink.append(attachmentContentPart(index), text, "latin1");
        await sink.endPart(attachmentContentPart(index));
      }
    },
  });
  const rawFacts = { size: Buffer.isBuffer(raw) ? raw.length : raw.size, sha256: hash.digest("hex") };
  const bodies: Body[] = [];
  for (const [index, request] of payloads.entries()) {
    await writeBodyFrame(buildWebhookPayload({ ...request, ...message, parsed, rawFacts }), sinks[index]!);
    bodies.push(await sinks[index]!.finish());
  }
  return {
    summary: summarizeMail(parsed, sender),
    payloads: bodies,
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
 * An attachment of the payload. Its `content` is the base64 of its bytes when the parse kept them
 * (parseMail), else empty: the body's base64 is written from the stream (webhook-pieces.ts).
 */
function formatAttachment(attachment: MessageAttachment, url: string | null): WebhookAttachment {
  const declared = attachment.headers?.get("content-type") as { value?: string } | undefined;
  return {
    filename: attachment.filename ?? "",
    // The type as declared: mailparser would guess a type from the file name of an application/octet-stream part.
    contentType: (declared?.value || attachment.contentType || "application/octet-stream").toLowerCase(),
    size: attachment.size,
    contentId: attachment.contentId?.trim() || null,
    disposition: attachment.contentDisposition?.toLowerCase() === "inline" ? "inline" : "attachment",
    content: url ? null : (attachment.content?.toString("base64") ?? ""),
    // mailparser's checksum, SHA-256 as it is told to compute (parsing.constants.ts)
    sha256: attachment.checksum,
    url,
  };
}
