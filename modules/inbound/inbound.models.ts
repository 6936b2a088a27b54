// Pure functions of the inbound pipeline: route an envelope recipient, normalise the envelope
// sender, check a sender against a callback's allowed origins (README: Receiving mail).
import { MAX_RECIPIENT_LENGTH } from "./inbound.constants";

export type RoutedRecipient = {
  /** The callback's username: the local part before the first "+", lower-cased. */
  username: string;
  domain: string;
  /** What follows the first "+" of the local part, or null. */
  tag: string | null;
  /** The whole envelope address, lower-cased and without angle brackets. */
  address: string;
  /** The address as the sender wrote it (without angle brackets): the webhook's `data.recipient`. */
  written: string;
};

// Whitespace, control characters, and what no address may hold unquoted.
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it refuses
const FORBIDDEN_ADDRESS_CHARACTERS = /[\s\u0000-\u001f\u007f<>(),;:\\"[\]]/;

/** Strips surrounding whitespace and one pair of angle brackets: ` <a@b> ` → `a@b`. */
function unwrapAddress(address: string): string {
  const trimmed = address.trim();
  return trimmed.startsWith("<") && trimmed.endsWith(">") ? trimmed.slice(1, -1).trim() : trimmed;
}

/**
 * Reads an envelope recipient: `User+Tag@Example.com` → username "user", tag "tag", domain
 * "example.com", whatever the domain (which domains are served is the routing's question). Null
 * for anything that cannot be an address.
 */
export function parseAnyRecipient(address: string): RoutedRecipient | null {
  const written = unwrapAddress(address);
  const unwrapped = written.toLowerCase();
  if (unwrapped.length === 0 || unwrapped.length > MAX_RECIPIENT_LENGTH) return null;
  const at = unwrapped.lastIndexOf("@");
  if (at <= 0) return null;
  const localPart = unwrapped.slice(0, at);
  const domain = unwrapped.slice(at + 1).replace(/\.$/, "");
  if (!domain || FORBIDDEN_ADDRESS_CHARACTERS.test(localPart) || localPart.includes("@")) return null;
  const plus = localPart.indexOf("+");
  const username = plus === -1 ? localPart : localPart.slice(0, plus);
  const tag = plus === -1 ? null : localPart.slice(plus + 1) || null;
  if (!username) return null;
  return { username, domain, tag, address: `${localPart}@${domain}`, written };
}

/** parseAnyRecipient, provided the domain is one of `emailDomains`. */
export function parseRecipient(address: string, emailDomains: readonly string[]): RoutedRecipient | null {
  const routed = parseAnyRecipient(address);
  if (!routed || !emailDomains.some((candidate) => candidate.trim().toLowerCase() === routed.domain)) return null;
  return routed;
}

/** The envelope sender lower-cased, or null for the null sender `<>` (bounces) and an empty one. */
export function normalizeSender(address: string | null | undefined): string | null {
  if (address == null) return null;
  const unwrapped = unwrapAddress(address).toLowerCase();
  return unwrapped.length > 0 ? unwrapped : null;
}

/**
 * Whether a callback accepts mail from this envelope sender: an empty list accepts everyone;
 * otherwise an entry must be the sender's address or `@` + the sender's domain (case-insensitive).
 * The null sender matches no entry.
 */
export function isSenderAllowed(sender: string | null | undefined, allowedOrigins: readonly string[]): boolean {
  if (allowedOrigins.length === 0) return true;
  const normalized = normalizeSender(sender);
  if (!normalized) return false;
  const at = normalized.lastIndexOf("@");
  const senderDomain = at === -1 ? null : `@${normalized.slice(at + 1)}`;
  return allowedOrigins.some((origin) => {
    const entry = origin.trim().toLowerCase();
    return entry.startsWith("@") ? entry === senderDomain : entry === normalized;
  });
}
