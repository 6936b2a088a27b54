// What the inbox row keeps of a message (the sender, the subject, the Message-ID), cut to what its
// text columns hold.

import { findFromAddress } from "./mail-addresses";
import type { ParsedMessage } from "./mail-stream";
import { MAX_FROM_ADDRESS_LENGTH, MAX_MESSAGE_ID_BYTES, MAX_SUBJECT_LENGTH } from "./parsing.constants";

export type MailSummary = { fromAddress: string; subject: string; messageId: string | null };

/** What the inbox row shows: the sender (the From header, else the envelope sender), the subject and the Message-ID. */
export function summarizeMail(parsed: ParsedMessage, envelopeFrom: string | null = null): MailSummary {
  const fromAddress = findFromAddress(parsed)?.address || envelopeFrom || "";
  const messageId = removeNul(parsed.messageId ?? "");
  return {
    fromAddress: truncateCodePoints(removeNul(fromAddress), MAX_FROM_ADDRESS_LENGTH),
    subject: truncateCodePoints(removeNul(parsed.subject ?? ""), MAX_SUBJECT_LENGTH),
    messageId: messageId ? truncateUtf8(messageId, MAX_MESSAGE_ID_BYTES) : null,
  };
}

/** PostgreSQL's text type cannot hold U+0000. */
function removeNul(value: string): string {
  return value.replaceAll("\u0000", "");
}

function truncateCodePoints(value: string, maxLength: number): string {
  if (value.length <= maxLength) return value;
  return Array.from(value).slice(0, maxLength).join("");
}

function truncateUtf8(value: string, maxBytes: number): string {
  if (Buffer.byteLength(value, "utf8") <= maxBytes) return value;
  let output = "";
  let bytes = 0;
  for (const character of value) {
    bytes += Buffer.byteLength(character, "utf8");
    if (bytes > maxBytes) break;
    output += character;
  }
  return output;
}
