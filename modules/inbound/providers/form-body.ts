// A byte-exact reader of the form posts of Mailgun and SendGrid (multipart/form-data or
// application/x-www-form-urlencoded). Unlike Request.formData(), which decodes every text field
// as UTF-8, it keeps each field's bytes: a raw message field (`body-mime`, `email`) reaches the
// pipeline exactly as sent, 8-bit parts included, and SendGrid's fields are decoded with the
// charsets SendGrid names for them.
import { parseHeaderValue } from "nodemailer/lib/mime-funcs";
import { createInboundInvalidMessageError } from "./inbound-providers.errors";

export type FormPart = {
  name: string;
  /** Set for a file part (an attachment). */
  filename: string | undefined;
  contentType: string | undefined;
  data: Buffer;
};

export function parseFormBody(body: Buffer, contentType: string | null): FormPart[] {
  const { value: mediaType, params } = parseHeaderValue(contentType ?? "");
  switch (mediaType.toLowerCase()) {
    case "multipart/form-data":
      if (!params.boundary) throw createInboundInvalidMessageError("the multipart body has no boundary.");
      return parseMultipartFormData(body, params.boundary);
    case "application/x-www-form-urlencoded":
      return parseUrlEncodedForm(body);
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

/** A field's text, decoded from `charset` (UTF-8 when absent or unknown); undefined when absent. */
export function readFormText(parts: readonly FormPart[], name: string, charset?: string): string | undefined {
  const part = findFormPart(parts, name);
  return part ? decodeText(part.data, charset) : undefined;
}

export function decodeText(data: Buffer, charset = "utf-8"): string {
  let decoder: TextDecoder;
  try {
    decoder = new TextDecoder(charset);
  } catch {
    decoder = new TextDecoder("utf-8");
  }
  return decoder.decode(data);
}

function parseMultipartFormData(body: Buffer, boundary: string): FormPart[] {
  const delimiter = Buffer.from(`--${boundary}`);
  const parts: FormPart[] = [];
  let position = findDelimiter(body, delimiter, 0);
  if (position === -1) throw createInboundInvalidMessageError("the multipart body has no part.");
  for (;;) {
    let cursor = position + delimiter.length;
    if (body[cursor] === 0x2d && body[cursor + 1] === 0x2d) break; // "--": the closing delimiter
    cursor = skipLine(body, cursor);
    const headerEnd = findHeaderEnd(body, cursor);
    if (headerEnd === -1) throw createInboundInvalidMessageError("a multipart part has no end of headers.");
    const headers = parsePartHeaders(body.subarray(cursor, headerEnd.start).toString("utf8"));
    const next = findDelimiter(body, delimiter, headerEnd.end);
    if (next === -1) throw createInboundInvalidMessageError("the multipart body is cut short.");
    const dataEnd = body[next - 2] === 0x0d ? next - 2 : next - 1;
    const disposition = parseHeaderValue(headers.get("content-disposition") ?? "");
    if (disposition.params.name !== undefined) {
      parts.push({
        name: disposition.params.name,
        filename: disposition.params.filename,
        contentType: headers.get("content-type"),
        data: body.subarray(headerEnd.end, Math.max(headerEnd.end, dataEnd)),
      });
    }
    position = next;
  }
  return parts;
}

/** The next delimiter at the start of the body or of a line. */
function findDelimiter(body: Buffer, delimiter: Buffer, from: number): number {
  let index = body.indexOf(delimiter, from);
  while (index !== -1 && index !== 0 && body[index - 1] !== 0x0a) index = body.indexOf(delimiter, index + 1);
  return index;
}

function skipLine(body: Buffer, from: number): number {
  const lineEnd = body.indexOf(0x0a, from);
  return lineEnd === -1 ? body.length : lineEnd + 1;
}

/** Where a part's header block ends (its blank line) and its content starts. */
function findHeaderEnd(body: Buffer, from: number): { start: number; end: number } | -1 {
  if (body[from] === 0x0d && body[from + 1] === 0x0a) return { start: from, end: from + 2 };
  if (body[from] === 0x0a) return { start: from, end: from + 1 };
  const crlf = body.indexOf("\r\n\r\n", from);
  const lf = body.indexOf("\n\n", from);
  if (crlf !== -1 && (lf === -1 || crlf < lf)) return { start: crlf, end: crlf + 4 };
  return lf === -1 ? -1 : { start: lf, end: lf + 2 };
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
    const equals = body.indexOf(0x3d, start);
    const nameEnd = equals === -1 || equals > end ? end : equals;
    if (end > start) {
      parts.push({
        name: decodeUrlComponent(body.subarray(start, nameEnd)).toString("utf8"),
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
