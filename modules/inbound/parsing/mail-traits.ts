// What a receiver wants to know about a mail before reading it (docs/webhooks.md: Flags and
// threads): whether a machine sent it (an auto-reply, a bounce) or a list, and the thread it
// belongs to. Read from the headers and the structure only; every check is linear in the headers.
import type { ParsedMessage } from "./mail-stream";

export type MailFlags = { isAutoReply: boolean; isBounce: boolean; isMailingList: boolean };

type HeaderField = { name: string; value: string };

const headerValue = (headers: HeaderField[], name: string) =>
  headers.find((field) => field.name.toLowerCase() === name)?.value.trim() ?? null;

/** RFC 3834's Auto-Submitted (anything but "no"), and the headers vacation responders are known to set. */
function isAutoReply(headers: HeaderField[]): boolean {
  const autoSubmitted = headerValue(headers, "auto-submitted")?.toLowerCase();
  if (autoSubmitted && !autoSubmitted.startsWith("no")) return true;
  if (headerValue(headers, "x-autoreply") || headerValue(headers, "x-autorespond")) return true;
  if (/^(auto[-_ ]?reply|autoreply)$/i.test(headerValue(headers, "x-auto-response-suppress") ?? "")) return true;
  const precedence = headerValue(headers, "precedence")?.toLowerCase();
  return precedence === "auto_reply" || precedence === "auto-reply";
}

/** A delivery status notification: multipart/report; report-type=delivery-status, or a null sender with a delivery-status part. */
function isBounce(headers: HeaderField[], sender: string | null, parsed: ParsedMessage): boolean {
  const contentType = headerValue(headers, "content-type")?.toLowerCase() ?? "";
  if (contentType.startsWith("multipart/report") && /report-type\s*=\s*"?delivery-status/.test(contentType)) return true;
  const hasStatusPart = parsed.attachments.some((part) => /^message\/(global-)?delivery-status$/i.test(part.contentType));
  return sender === null && hasStatusPart;
}

function isMailingList(headers: HeaderField[]): boolean {
  if (headerValue(headers, "list-id") || headerValue(headers, "list-unsubscribe")) return true;
  const precedence = headerValue(headers, "precedence")?.toLowerCase();
  return precedence === "list" || precedence === "bulk";
}

export function readMailFlags({
  headers,
  sender,
  parsed,
}: {
  headers: HeaderField[];
  /** The envelope sender; null for the null sender (<>) of bounces. */
  sender: string | null;
  parsed: ParsedMessage;
}): MailFlags {
  return {
    isAutoReply: isAutoReply(headers),
    isBounce: isBounce(headers, sender, parsed),
    isMailingList: isMailingList(headers),
  };
}

/** A message id without its angle brackets and surrounding space, or null when empty. */
function normalizeMessageId(value: string | undefined | null): string | null {
  const id = value?.trim().replace(/^<+/, "").replace(/>+$/, "").trim();
  return id ? id : null;
}

/**
 * The thread a message belongs to: the first of References (the thread's root), else In-Reply-To,
 * else its own Message-ID; null when it has none of them. A message and all its replies share it.
 */
export function readThreadId(parsed: Pick<ParsedMessage, "references" | "inReplyTo" | "messageId">): string | null {
  const references = parsed.references === undefined ? [] : [parsed.references].flat();
  const firstReference = references.flatMap((value) => value.split(/\s+/)).find((value) => normalizeMessageId(value));
  return normalizeMessageId(firstReference) ?? normalizeMessageId(parsed.inReplyTo) ?? normalizeMessageId(parsed.messageId);
}
