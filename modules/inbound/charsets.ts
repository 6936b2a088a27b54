// Every charset the inbound code decodes itself goes through iconv-lite (docs/security.md):
// Node 20's TextDecoder("windows-1252") maps the bytes 0x80–0x9F to control characters, where
// windows-1252 has € ‘ ’ “ ” – — and the like.
import iconv from "iconv-lite";

/**
 * The text of `bytes` in the charset `label` (any label iconv-lite knows, case-insensitive).
 * An absent or unknown label: UTF-8 when the bytes are valid UTF-8 (most unlabelled mail is),
 * else latin1, which maps every byte to one character and loses nothing.
 */
export function decodeCharset(bytes: Uint8Array, label: string | undefined): string {
  const name = label?.trim().toLowerCase();
  const buffer = Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (name && isKnownCharset(name)) return iconv.decode(buffer, name);
  return isValidUtf8(buffer) ? buffer.toString("utf8") : buffer.toString("latin1");
}

export function isKnownCharset(label: string): boolean {
  try {
    return iconv.encodingExists(label);
  } catch {
    return false;
  }
}

const strictUtf8 = new TextDecoder("utf-8", { fatal: true });

function isValidUtf8(bytes: Buffer): boolean {
  try {
    strictUtf8.decode(bytes);
    return true;
  } catch {
    return false;
  }
}
