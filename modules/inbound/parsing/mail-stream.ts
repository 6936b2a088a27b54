// A received message read with mailparser's streaming parser (docs/architecture.md: Large values).
// The headers, the text and the HTML are kept; each attachment's decoded bytes go by, a chunk at a
// time, to whoever reads them (the webhook body's base64, webhook-pieces.ts), and only its metadata,
// size and SHA-256 stay: a 25 MiB message's attachments are never held whole, unless a caller asks
// for one attachment's bytes (a content link) or all of them (readMessage).
import { type Attachment, type AttachmentStream, MailParser, type MessageText, type ParsedMail } from "mailparser";
import { htmlToPlainText } from "./html-to-text";
import { type MessageSource, readInSlices } from "./message-source";
import { MAIL_PARSER_OPTIONS } from "./parsing.constants";
import { createInvalidMessageError } from "./parsing.errors";

/** An attachment of a parsed message; `content` only when its bytes were asked to be kept. */
export type MessageAttachment = Omit<Attachment, "content" | "type" | "related"> & { content?: Buffer };

/** A parsed message: what mailparser's simpleParser gives, the attachments without their bytes unless kept. */
export type ParsedMessage = Omit<ParsedMail, "attachments"> & { attachments: MessageAttachment[] };

/**
 * Told each decoded chunk of the attachment at `index` (its place in the payload's list), then its
 * end; either may make the parser wait.
 */
export type AttachmentReader = {
  onChunk?: (index: number, chunk: Buffer) => void | Promise<void>;
  onEnd?: (index: number) => void | Promise<void>;
};

/** What a text part gives the parsed message, as simpleParser takes it. */
const TEXT_KEYS = ["text", "html", "textAsHtml"] as const;

/** The header fields mailparser names on the parsed message, as simpleParser sets them. */
const NAMED_HEADERS = ["subject", "references", "date", "to", "from", "cc", "bcc", "message-id", "in-reply-to", "reply-to"];

/**
 * Parses a raw RFC 5322 message, telling `onChunk` each attachment's decoded bytes as they come.
 * Bodies and attachments are kept as sent: no cid: link becomes a data: URL, no delivery status or
 * attached message is unpacked into the text. `keep` chooses the attachments whose bytes stay on
 * the result; `onBytes` is told each slice of the message as the parser takes it. The message is
 * its bytes or its spooled file (message-source.ts). Throws inbound.invalid_message (400) for an
 * empty body or one mailparser cannot read at all; an error of the reader is thrown as it is.
 */
export async function streamMessage(
  raw: MessageSource,
  {
    onChunk,
    onEnd,
    onBytes,
    keep = () => false,
  }: AttachmentReader & { keep?: (index: number) => boolean; onBytes?: (slice: Buffer) => void } = {},
): Promise<ParsedMessage> {
  // A file is checked for blankness as it is read (it is never held whole).
  if (Buffer.isBuffer(raw) && isBlank(raw)) throw createInvalidMessageError();
  let isAllBlank = true;
  const parser = new MailParser(MAIL_PARSER_OPTIONS);
  const message = { attachments: [] as MessageAttachment[] } as ParsedMessage;
  parser.on("headers", (headers) => {
    message.headers = headers;
    // The root's header lines, set before this event (a documented property the types leave out).
    message.headerLines = (parser as MailParser & { headerLines: ParsedMessage["headerLines"] }).headerLines;
  });
  const input = readInSlices(raw, PARSE_SLICE_BYTES);
  input.on("data", (slice: Buffer) => {
    if (isAllBlank && !isBlank(slice)) isAllBlank = false;
    onBytes?.(slice);
  });
  input.pipe(parser);
  let failure: { error: unknown } | undefined;
  try {
    for await (const data of parser as AsyncIterable<ParsedPart>) {
      if (data.type === "text") {
        for (const key of TEXT_KEYS) if (key in data) (message as Record<string, unknown>)[key] = data[key];
        continue;
      }
      const index = message.attachments.length;
      const kept: Buffer[] = [];
      const tell = async (read: () => void | Promise<void>) => {
        try {
          await read();
        } catch (error) {
          failure = { error };
          throw error;
        }
      };
      for await (const chunk of data.content as unknown as AsyncIterable<Buffer>) {
        if (keep(index)) kept.push(chunk);
        if (onChunk) await tell(() => onChunk(index, chunk));
      }
      if (onEnd) await tell(() => onEnd(index));
      data.release();
      const { content: _stream, release: _release, type: _type, ...facts } = data;
      message.attachments.push(keep(index) ? { ...facts, content: Buffer.concat(kept) } : facts);
    }
  } catch (error) {
    input.destroy();
    parser.destroy();
    throw failure ? failure.error : createInvalidMessageError(error);
  }
  if (isAllBlank) throw createInvalidMessageError();
  for (const key of NAMED_HEADERS) {
    if (message.headers?.has(key)) {
      const name = key.replace(/-([a-z])/g, (_, letter: string) => letter.toUpperCase()) as keyof ParsedMessage;
      (message as Record<string, unknown>)[name] = message.headers.get(key);
    }
  }
  // An HTML-only body: its text is made here, in bounded time (the parser is told to skip it).
  if (!message.text?.trim() && message.html) message.text = htmlToPlainText(message.html);
  return message;
}

/** What the streaming parser hands out: the bodies once, at the end, and each attachment as it starts. */
type ParsedPart = (MessageText & { textAsHtml?: string }) | (AttachmentStream & { type: "attachment"; release: () => void });

/**
 * What the parser is fed at a time from bytes in memory: small enough that its line splitting and
 * decoding keep pace. Given one Buffer, mailparser would split and decode all of it in one
 * synchronous step, queueing every line of a 25 MiB message at once.
 */
const PARSE_SLICE_BYTES = 256 * 1024;

/** Whether the bytes hold nothing but spaces, tabs and line breaks (stops at the first other byte). */
function isBlank(raw: Buffer): boolean {
  for (const byte of raw) if (byte !== 0x20 && byte !== 0x09 && byte !== 0x0a && byte !== 0x0d) return false;
  return true;
}
