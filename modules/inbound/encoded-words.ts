// RFC 2047 encoded-words in header values, decoded for the webhook's header list.

const ENCODED_WORD = /=\?([^?\s]+)\?([bBqQ])\?([^?]*)\?=/g;

function decodeWordBytes(encoding: string, text: string): Buffer {
  if (encoding.toUpperCase() === "B") return Buffer.from(text, "base64");
  const binary = text.replace(/_/g, " ").replace(/=([0-9a-fA-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  return Buffer.from(binary, "latin1");
}

function decodeCharset(bytes: Buffer, charset: string): string {
  try {
    return new TextDecoder(charset).decode(bytes);
  } catch {
    // An unknown charset: most such words are ASCII or UTF-8 in practice.
    return bytes.toString("utf8");
  }
}

/**
 * Decodes RFC 2047 encoded-words (`=?UTF-8?B?…?=`, `=?iso-8859-1?Q?…?=`). Whitespace between two
 * encoded-words is dropped, and consecutive words of one charset are decoded together, since
 * senders split multi-byte characters across words.
 */
export function decodeEncodedWords(value: string): string {
  if (!value.includes("=?")) return value;
  const parts: (string | { charset: string; bytes: Buffer })[] = [];
  let last = 0;
  for (const match of value.matchAll(ENCODED_WORD)) {
    const [word, rawCharset = "", encoding = "", text = ""] = match;
    const index = match.index ?? 0;
    const between = value.slice(last, index);
    if (!(typeof parts.at(-1) === "object" && between.trim() === "")) parts.push(between);
    const charset = (rawCharset.split("*")[0] ?? "").toLowerCase();
    const bytes = decodeWordBytes(encoding, text);
    const previous = parts.at(-1);
    if (typeof previous === "object" && previous.charset === charset) previous.bytes = Buffer.concat([previous.bytes, bytes]);
    else parts.push({ charset, bytes });
    last = index + word.length;
  }
  parts.push(value.slice(last));
  return parts.map((part) => (typeof part === "string" ? part : decodeCharset(part.bytes, part.charset))).join("");
}
