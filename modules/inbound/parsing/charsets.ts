// Every charset the inbound code decodes itself goes through iconv-lite (docs/security.md):
// Node 20's TextDecoder("windows-1252") maps the bytes 0x80–0x9F to control characters, where
// windows-1252 has € ‘ ’ “ ” – — and the like.
import iconv from "iconv-lite";

/**
 * The text of `bytes` in the charset `label` (any label iconv-lite knows, case-insensitive).
 * The stateful ISO-2022 family, which iconv-lite lacks (mailparser pairs it with another
 * library for them), goes to the platform's decoder, which follows the WHATWG encoding standard
 * for those. An absent or unknown label: UTF-8 when the bytes are valid UTF-8 (most unlabelled
 * mail is), else latin1, which maps every byte to one character and loses nothing.
 */
export function decodeCharset(bytes: Uint8Array, label: string | undefined): string {
  const name = label?.trim().toLowerCase();
  const buffer = Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (name && isKnownCharset(name)) return iconv.decode(buffer, name);
  if (name && ISO_2022_LABELS.has(name)) return new TextDecoder(name).decode(buffer);
  return isValidUtf8(buffer) ? buffer.toString("utf8") : buffer.toString("latin1");
}

/** The ISO-2022 labels iconv-lite lacks and the WHATWG decoder has (Japanese only there). */
const ISO_2022_LABELS = new Set(["iso-2022-jp", "csiso2022jp"]);

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
