// Reading just the header block of a raw message: whether a body looks like mail at all, and the
// envelope its headers imply when the provider gave none. The full parse is the pipeline's.
import addressparser from "nodemailer/lib/addressparser";
import { createInboundInvalidMessageError } from "./inbound-providers.errors";

export type HeaderField = { name: string; value: string };

/** The header block is looked for in a message's first bytes only, this many. */
export const HEADER_WINDOW_BYTES = 1024 * 1024;

/** Header fields that any real message carries at least one of. */
const MESSAGE_HEADER_NAMES = new Set([
  "from",
  "to",
  "cc",
  "subject",
  "date",
  "message-id",
  "received",
  "mime-version",
  "content-type",
  "return-path",
  "delivered-to",
  "x-original-to",
  "sender",
  "reply-to",
]);

const FIELD_NAME = /^[\x21-\x39\x3b-\x7e]+$/;

/**
 * The header fields of a raw message or of a header block, unfolded, values trimmed; null when
 * the text does not start with a header field (a leading mbox "From " line is skipped). Later
 * lines that are neither a field nor a continuation (real mail has them: obsolete syntax, a broken
 * fold, a stray word) are passed over, as mail servers and the pipeline's parser do.
 */
export function readHeaderFields(raw: Buffer | string): HeaderField[] | null {
  const text = typeof raw === "string" ? raw : readHeaderBlock(raw);
  const lines = text.replace(/^From [^\n]*\n/, "").split(/\r?\n/);
  // A field's value is kept as its non-empty trimmed lines and joined once: joining at each
  // continuation line is quadratic in a field folded over thousands of lines.
  const fields: { name: string; parts: string[] }[] = [];
  let isAfterField = false;
  for (const line of lines) {
    if (line === "") break;
    const last = fields.at(-1);
    if (/^[ \t]/.test(line)) {
      const part = line.trim();
      if (last && isAfterField && part) last.parts.push(part);
      continue;
    }
    const colon = line.indexOf(":");
    const name = colon > 0 ? line.slice(0, colon).trimEnd() : "";
    isAfterField = FIELD_NAME.test(name);
    const first = isAfterField ? line.slice(colon + 1).trim() : "";
    if (isAfterField) fields.push({ name, parts: first ? [first] : [] });
    else if (fields.length === 0) return null;
  }
  return fields.length > 0 ? fields.map(({ name, parts }) => ({ name, value: parts.join(" ") })) : null;
}

/** The header fields of a message that looks like one; 400 inbound.invalid_message otherwise. */
export function readMessageHeaderFieldsOrThrow(raw: Buffer, source: string): HeaderField[] {
  if (raw.length === 0) throw createInboundInvalidMessageError(`${source} is empty.`);
  const fields = readHeaderFields(raw);
  if (!fields?.some(({ name }) => MESSAGE_HEADER_NAMES.has(name.toLowerCase()))) {
    throw createInboundInvalidMessageError(`${source} does not start with message headers.`);
  }
  return fields;
}

/** The message itself when it looks like one; 400 inbound.invalid_message otherwise. */
export function ensureLooksLikeMessage(raw: Buffer, source: string): Buffer {
  readMessageHeaderFieldsOrThrow(raw, source);
  return raw;
}

/** The envelope the headers imply: From's address; To, Cc, Delivered-To and X-Original-To. */
export function readEnvelopeFromHeaders(fields: readonly HeaderField[]): { from: string | null; to: string[] } {
  const valuesOf = (...names: string[]) =>
    fields.filter(({ name }) => names.includes(name.toLowerCase())).map(({ value }) => value);
  return {
    from: parseAddressList(valuesOf("from"))[0] ?? null,
    to: parseAddressList(valuesOf("to", "cc", "delivered-to", "x-original-to")),
  };
}

/** The addresses of address-list header values or of comma lists, deduplicated (case-insensitive). */
export function parseAddressList(values: readonly (string | null | undefined)[]): string[] {
  const addresses = new Map<string, string>();
  for (const value of values) {
    for (const { address } of addressparser(value ?? "", { flatten: true })) {
      const trimmed = address.trim();
      if (trimmed && !addresses.has(trimmed.toLowerCase())) addresses.set(trimmed.toLowerCase(), trimmed);
    }
  }
  return [...addresses.values()];
}

/** A single envelope sender: null for an absent, empty or null (`<>`) sender. */
export function parseEnvelopeSender(value: string | null | undefined): string | null {
  return parseAddressList([value])[0] ?? null;
}

/** The header block as text: up to the first blank line, at most the first 1 MiB. */
function readHeaderBlock(raw: Buffer): string {
  const window = raw.subarray(0, HEADER_WINDOW_BYTES);
  const crlf = window.indexOf("\r\n\r\n");
  const lf = window.indexOf("\n\n");
  const ends = [crlf, lf].filter((index) => index !== -1);
  const end = ends.length > 0 ? Math.min(...ends) : window.length;
  return window.subarray(0, end).toString("utf8");
}
