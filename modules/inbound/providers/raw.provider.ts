// POST /api/inbound/raw: the body is the message; `Authorization: Bearer $INBOUND_SECRET`; the
// envelope in X-Envelope-From / X-Envelope-To (a comma list), else taken from the headers.
import type { InboundMessage } from "./inbound-providers.types";
import { parseAddressList, parseEnvelopeSender, readMessageHeaderFieldsOrThrow } from "./message-headers";
import { createSecretProvider, withEnvelope } from "./provider-steps";

export const rawProvider = createSecretProvider({
  name: "raw",
  scheme: "bearer",
  encoding: "raw",
  parse: (raw, { request }) => parseRawRequest(raw, request.headers),
});

export function parseRawRequest(raw: Buffer, headers: Headers): InboundMessage {
  const headerFields = readMessageHeaderFieldsOrThrow(raw, "the body");
  const envelopeFrom = readHeader(headers, "x-envelope-from");
  return withEnvelope(raw, {
    headerFields,
    sender: envelopeFrom === null ? undefined : parseEnvelopeSender(envelopeFrom),
    recipientLists: [parseAddressList([readHeader(headers, "x-envelope-to")])],
    noRecipient: "no recipient: send X-Envelope-To or a message with To/Cc headers.",
  });
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
