// RFC 2047 encoded-words in header values, decoded for the webhook's header list. Linear in the
// value's length (docs/security.md): one pass of the pattern, and the bytes of a run of words are
// gathered in a list and joined once.
import { decodeCharset } from "./charsets";

const ENCODED_WORD = /=\?([^?\s]+)\?([bBqQ])\?([^?]*)\?=/g;

function decodeWordBytes(encoding: string, text: string): Buffer {
  if (encoding.toUpperCase() === "B") return Buffer.from(text, "base64");
  const binary = text
    .replace(/_/g, " ")
    .replace(/=([0-9a-fA-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  return Buffer.from(binary, "latin1");
}

type EncodedRun = { charset: string; chunks: Buffer[] };

/**
 * Decodes RFC 2047 encoded-words (`=?UTF-8?B?…?=`, `=?iso-8859-1?Q?…?=`). Whitespace between two
 * encoded-words is dropped, and consecutive words of one charset are decoded together, since
 * senders split multi-byte characters across words. Charsets are decoded with iconv-lite; an
 * unknown one as UTF-8 when valid, else latin1 (see charsets.ts).
 */
export function decodeEncodedWords(value: string): string {
  if (!value.includes("=?")) return value;
  const parts: (string | EncodedRun)[] = [];
  let last = 0;
  for (const match of value.matchAll(ENCODED_WORD)) {
    const [word, rawCharset = "", encoding = "", text = ""] = match;
    const index = match.index ?? 0;
    const between = value.slice(last, index);
    if (!(typeof parts.at(-1) === "object" && between.trim() === "")) parts.push(between);
    const charset = (rawCharset.split("*")[0] ?? "").toLowerCase();
    const bytes = decodeWordBytes(encoding, text);
    const previous = parts.at(-1);
    if (typeof previous === "object" && previous.charset === charset) previous.chunks.push(bytes);
    else parts.push({ charset, chunks: [bytes] });
    last = index + word.length;
  }
  parts.push(value.slice(last));
  return parts
    .map((part) => (typeof part === "string" ? part : decodeCharset(Buffer.concat(part.chunks), part.charset)))
    .join("");
}
