// A byte-exact reader of the form posts of Mailgun and SendGrid (multipart/form-data or
// application/x-www-form-urlencoded). Unlike Request.formData(), which decodes every text field
// as UTF-8, it keeps each field's bytes: a raw message field (`body-mime`, `email`) reaches the
// pipeline exactly as sent, 8-bit parts included, and SendGrid's fields are decoded with the
// charsets SendGrid names for them (with iconv-lite). Linear in the body's length, with caps on
// the number of fields and the size of names and part headers (docs/security.md).
import { parseHeaderValue } from "nodemailer/lib/mime-funcs";
import { decodeCharset } from "../parsing/charsets";
import { createInboundInvalidMessageError } from "./inbound-providers.errors";

export type FormPart = {
  name: string;
  /** Set for a file part (an attachment). */
  filename: string | undefined;
  contentType: string | undefined;
  data: Buffer;
};

/** Caps on a form post's structure (docs/security.md): over one, the post is refused with 400. */
export const FORM_LIMITS = {
  /** Fields and parts, all together. */
  maxFields: 1000,
  /** A field's name, in bytes. */
  maxFieldNameBytes: 256,
  /** A multipart part's header block, in bytes. */
  maxPartHeaderBytes: 8 * 1024,
} as const;

/**
 * The fields of a form post, in one pass over the body (linear in its length). With `partial`, a
 * body cut short (a prefix) yields the fields complete so far instead of an error.
 */
export function parseFormBody(body: Buffer, contentType: string | null, { partial = false } = {}): FormPart[] {
  const { value: mediaType, params } = parseHeaderValue(contentType ?? "");
  switch (mediaType.toLowerCase()) {
    case "multipart/form-data":
      if (!params.boundary) throw createInboundInvalidMessageError("the multipart body has no boundary.");
      return parseMultipartFormData(body, params.boundary, partial);
    case "application/x-www-form-urlencoded":
      return parseUrlEncodedForm(partial ? body.subarray(0, body.lastIndexOf(0x26) + 1) : body);
    default:
      throw createInboundInvalidMessageError(
        "expected a form post (multipart/form-data or application/x-www-form-urlencoded), " +
          `got "${mediaType || "no content type"}".`,
      );
  }
}

/** The first part of that name. */
export function findFormPart(parts: readonly FormPart[], name: string): FormPart | undefined {
  return parts.find((part) => part.name === name);
}

/** A field's text, decoded from `charset` (see decodeCharset); undefined when absent. */
export function readFormText(parts: readonly FormPart[], name: string, charset?: string): string | undefined {
  const part = findFormPart(parts, name);
  return part ? decodeText(part.data, charset) : undefined;
}

/** Bytes in `charset` with iconv-lite; no charset or an unknown one: UTF-8 when valid, else latin1. */
export function decodeText(data: Buffer, charset?: string): string {
  return decodeCharset(data, charset);
}

function ensureFieldCount(parts: readonly FormPart[]) {
  if (parts.length >= FORM_LIMITS.maxFields) {
    throw createInboundInvalidMessageError(`the form has more than ${FORM_LIMITS.maxFields} fields.`);
  }
}

function ensureFieldName(name: string): string {
  if (Buffer.byteLength(name) > FORM_LIMITS.maxFieldNameBytes) {
    throw createInboundInvalidMessageError(`a field name is longer than ${FORM_LIMITS.maxFieldNameBytes} bytes.`);
  }
  return name;
}

function parseMultipartFormData(body: Buffer, boundary: string, partial: boolean): FormPart[] {
  // A delimiter is "--boundary" at the start of the body or of a line: searching for it with the
  // line end in front finds each one with one forward search from the end of the previous part.
  const delimiter = Buffer.from(`--${boundary}`);
  const lineDelimiter = Buffer.from(`\n--${boundary}`);
  const parts: FormPart[] = [];
  const findDelimiter = (from: number) => {
    const index = body.indexOf(lineDelimiter, Math.max(from - 1, 0));
    return index === -1 ? -1 : index + 1;
  };
  let position = body.subarray(0, delimiter.length).equals(delimiter) ? 0 : findDelimiter(0);
  if (position === -1) {
    if (partial) return parts;
    throw createInboundInvalidMessageError("the multipart body has no part.");
  }
  for (;;) {
    let cursor = position + delimiter.length;
    if (body[cursor] === 0x2d && body[cursor + 1] === 0x2d) break; // "--": the closing delimiter
    cursor = skipLine(body, cursor);
    const headerEnd = findHeaderEnd(body, cursor);
    if (headerEnd === -1) {
      if (partial && body.length - cursor < FORM_LIMITS.maxPartHeaderBytes) return parts;
      throw createInboundInvalidMessageError(
        `a multipart part has no end of headers within ${FORM_LIMITS.maxPartHeaderBytes} bytes.`,
      );
    }
    const next = findDelimiter(headerEnd.end);
    if (next === -1) {
      if (partial) return parts;
      throw createInboundInvalidMessageError("the multipart body is cut short.");
    }
    const headers = parsePartHeaders(body.subarray(cursor, headerEnd.start).toString("utf8"));
    const dataEnd = body[next - 2] === 0x0d ? next - 2 : next - 1;
    const disposition = parseHeaderValue(headers.get("content-disposition") ?? "");
    if (disposition.params.name !== undefined) {
      ensureFieldCount(parts);
      parts.push({
        name: ensureFieldName(disposition.params.name),
        filename: disposition.params.filename,
        contentType: headers.get("content-type"),
        data: body.subarray(headerEnd.end, Math.max(headerEnd.end, dataEnd)),
      });
    }
    position = next;
  }
  return parts;
}

function skipLine(body: Buffer, from: number): number {
  const lineEnd = body.indexOf(0x0a, from);
  return lineEnd === -1 ? body.length : lineEnd + 1;
}

/**
 * Where a part's header block ends (its blank line) and its content starts, looked for within
 * FORM_LIMITS.maxPartHeaderBytes only, so no part makes the parser search the rest of the body.
 */
function findHeaderEnd(body: Buffer, from: number): { start: number; end: number } | -1 {
  if (body[from] === 0x0d && body[from + 1] === 0x0a) return { start: from, end: from + 2 };
  if (body[from] === 0x0a) return { start: from, end: from + 1 };
  const window = body.subarray(from, from + FORM_LIMITS.maxPartHeaderBytes + 4);
  const crlf = window.indexOf("\r\n\r\n");
  const lf = window.indexOf("\n\n");
  if (crlf !== -1 && (lf === -1 || crlf < lf)) return { start: from + crlf, end: from + crlf + 4 };
  return lf === -1 ? -1 : { start: from + lf, end: from + lf + 2 };
}

function parsePartHeaders(block: string): Map<string, string> {
  const headers = new Map<string, string>();
  for (const line of block.replace(/\r?\n[ \t]+/g, " ").split(/\r?\n/)) {
    const colon = line.indexOf(":");
    if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  return headers;
}

function parseUrlEncodedForm(body: Buffer): FormPart[] {
  const parts: FormPart[] = [];
  let start = 0;
  while (start <= body.length) {
    const ampersand = body.indexOf(0x26, start);
    const end = ampersand === -1 ? body.length : ampersand;
    // "=" is looked for inside this field only: a search to the end of the body for every field
    // without one made a body of many tiny fields quadratic.
    const equals = body.subarray(start, end).indexOf(0x3d);
    const nameEnd = equals === -1 ? end : start + equals;
    if (end > start) {
      ensureFieldCount(parts);
      parts.push({
        name: ensureFieldName(decodeUrlComponent(body.subarray(start, nameEnd)).toString("utf8")),
        filename: undefined,
        contentType: undefined,
        data: decodeUrlComponent(body.subarray(Math.min(nameEnd + 1, end), end)),
      });
    }
    start = end + 1;
  }
  return parts;
}

/** Percent-decoding to bytes ("+" is a space), so a non-UTF-8 value keeps its bytes. */
function decodeUrlComponent(encoded: Buffer): Buffer {
  const decoded = Buffer.allocUnsafe(encoded.length);
  let length = 0;
  for (let index = 0; index < encoded.length; index++) {
    const byte = encoded[index] as number;
    const high = hexValue(encoded[index + 1]);
    const low = hexValue(encoded[index + 2]);
    if (byte === 0x25 && high !== -1 && low !== -1) {
      decoded[length++] = high * 16 + low;
      index += 2;
    } else {
      decoded[length++] = byte === 0x2b ? 0x20 : byte;
    }
  }
  return decoded.subarray(0, length);
}

function hexValue(byte: number | undefined): number {
  if (byte === undefined) return -1;
  if (byte >= 0x30 && byte <= 0x39) return byte - 0x30;
  const lower = byte | 0x20;
  return lower >= 0x61 && lower <= 0x66 ? lower - 0x61 + 10 : -1;
}
