// A message's header fields as they were sent, for the webhook body's `headers` and for filters on a
// header (endpoint-filter.ts).

import { decodeEncodedWords } from "./encoded-words";
import type { ParsedMessage } from "./mail-stream";

/**
 * The message's header fields in their order, with their names as sent and their values
 * unfolded, RFC 2047-decoded and read as UTF-8 (RFC 6532). Lines that are no field (no name
 * before a colon) are left out.
 */
export function readHeaderFields(parsed: ParsedMessage): { name: string; value: string }[] {
  return (parsed.headerLines ?? []).flatMap(({ line }) => {
    // mailparser hands the raw header bytes over as a binary string.
    const text = Buffer.from(line, "latin1").toString("utf8");
    const colon = text.indexOf(":");
    const name = colon > 0 ? text.slice(0, colon).trim() : "";
    if (!name) return [];
    const value = text
      .slice(colon + 1)
      .replace(/\r?\n/g, "")
      .trim();
    return [{ name, value: decodeEncodedWords(value) }];
  });
}
