// POST /api/inbound/raw: the body is the message; `Authorization: Bearer $INBOUND_SECRET`; the
// envelope in X-Envelope-From / X-Envelope-To (a comma list), else taken from the headers.
import { isBearerTokenValid } from "./inbound-auth";
import { createInboundInvalidMessageError, createInboundUnauthorizedError } from "./inbound-providers.errors";
import type { InboundMessage, InboundProvider } from "./inbound-providers.types";
import {
  parseAddressList,
  parseEnvelopeSender,
  readEnvelopeFromHeaders,
  readMessageHeaderFieldsOrThrow,
} from "./message-headers";
import { readProviderBody } from "./read-body-with-limit";

export const rawProvider: InboundProvider = {
  name: "raw",
  async readMessage({ request, settings }) {
    if (!isBearerTokenValid(request.headers.get("authorization"), settings.secret)) {
      throw createInboundUnauthorizedError("Send Authorization: Bearer with INBOUND_SECRET.");
    }
    const raw = await readProviderBody(request, settings.maxMessageBytes, "raw");
    return { message: parseRawRequest(raw, request.headers) };
  },
};

export function parseRawRequest(raw: Buffer, headers: Headers): InboundMessage {
  const fromMessage = readEnvelopeFromHeaders(readMessageHeaderFieldsOrThrow(raw, "the body"));
  const envelopeFrom = readHeader(headers, "x-envelope-from");
  const envelopeTo = parseAddressList([readHeader(headers, "x-envelope-to")]);
  const envelope = {
    from: envelopeFrom === null ? fromMessage.from : parseEnvelopeSender(envelopeFrom),
    to: envelopeTo.length > 0 ? envelopeTo : fromMessage.to,
  };
  if (envelope.to.length === 0) {
    throw createInboundInvalidMessageError("no recipient: send X-Envelope-To or a message with To/Cc headers.");
  }
  return { raw, envelope };
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
