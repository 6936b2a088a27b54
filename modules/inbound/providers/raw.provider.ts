// POST /api/inbound/raw: the body is the message; `Authorization: Bearer $INBOUND_SECRET`; the
// envelope in X-Envelope-From / X-Envelope-To (a comma list), else taken from the headers; the SMTP
// client that handed it to the relay in X-Envelope-Client-IP and X-Envelope-Helo (for SPF).
import { isIP } from "node:net";
import { openSpooledMessage, type SpooledMessage } from "../parsing/message-source";
import { createInboundInvalidMessageError } from "./inbound-providers.errors";
import type { InboundMessage } from "./inbound-providers.types";
import { HEADER_WINDOW_BYTES, parseAddressList, parseEnvelopeSender, readMessageHeaderFieldsOrThrow } from "./message-headers";
import { createSecretProvider, withEnvelope } from "./provider-steps";

export const rawProvider = createSecretProvider({
  name: "raw",
  scheme: "bearer",
  encoding: "raw",
  parse: (raw, { request }) => parseRawRequest(raw, request.headers),
  // A body over 1 MiB is spooled as it arrives: its headers are read from the file's first bytes.
  parseSpooled: async (spooled, { request }) => {
    const head = (await openSpooledMessage(spooled)).slice(0, HEADER_WINDOW_BYTES);
    return parseRawRequest(spooled, request.headers, Buffer.from(await head.arrayBuffer()));
  },
});

/** The message, its envelope from the request's headers or its own; the header fields from `head` when given. */
export function parseRawRequest<Raw extends Buffer | SpooledMessage>(
  raw: Raw,
  headers: Headers,
  head?: Buffer,
): InboundMessage<Raw> {
  const headerFields = readMessageHeaderFieldsOrThrow(head ?? (raw as Buffer), "the body");
  const envelopeFrom = readHeader(headers, "x-envelope-from");
  return withEnvelope(raw, {
    headerFields,
    sender: envelopeFrom === null ? undefined : parseEnvelopeSender(envelopeFrom),
    recipientLists: [parseAddressList([readHeader(headers, "x-envelope-to")])],
    noRecipient: "no recipient: send X-Envelope-To or a message with To/Cc headers.",
    client: readClient(headers),
  });
}

/** A HELO name as SMTP allows it: a host name or an address literal, at most 255 characters. */
const HELO_PATTERN = /^(?:[A-Za-z0-9_-]+(?:\.[A-Za-z0-9_-]+)*\.?|\[[0-9A-Fa-f:.]+\]|\[IPv6:[0-9A-Fa-f:.]+\])$/;

/** The relaying client of X-Envelope-Client-IP and X-Envelope-Helo; 400 for a value that is neither. */
function readClient(headers: Headers): InboundMessage["envelope"]["client"] {
  const ip = headers.get("x-envelope-client-ip")?.trim();
  const helo = headers.get("x-envelope-helo")?.trim() || null;
  if (!ip) return null;
  if (isIP(ip) === 0) throw createInboundInvalidMessageError("X-Envelope-Client-IP must be an IPv4 or IPv6 address.");
  if (helo !== null && (helo.length > 255 || !HELO_PATTERN.test(helo))) {
    throw createInboundInvalidMessageError("X-Envelope-Helo must be a host name or an address literal.");
  }
  return { ip, helo };
}

/**
 * A request header's value. HTTP header values are bytes; a sender that put UTF-8 in them
 * (an SMTPUTF8 address) arrives as Latin-1 characters, which are turned back into UTF-8 here.
 */
function readHeader(headers: Headers, name: string): string | null {
  const value = headers.get(name);
  if (value === null || !/[\u0080-\u00ff]/.test(value)) return value;
  const bytes = Buffer.from(value, "latin1");
  const decoded = bytes.toString("utf8");
  return Buffer.from(decoded, "utf8").equals(bytes) ? decoded : value;
}
