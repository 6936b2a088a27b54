// The steps the HTTP ingest providers share (README: Receiving mail): INBOUND_SECRET checked before
// any byte of the body is read, the message a provider posted whole or rebuilt from its fields, and
// an envelope completed from the message's own headers where the provider named none.
import { isSpooledMessage, type SpooledMessage } from "../parsing/message-source";
import { isBasicAuthPasswordValid, isBearerTokenValid } from "./inbound-auth";
import type { BODY_SIZE_ALLOWANCE } from "./inbound-providers.constants";
import { createInboundInvalidMessageError, createInboundUnauthorizedError } from "./inbound-providers.errors";
import type { InboundMessage, InboundProvider, InboundProviderName } from "./inbound-providers.types";
import { ensureLooksLikeMessage, type HeaderField, readEnvelopeFromHeaders, readHeaderFields } from "./message-headers";
import { ensureMessageWithinLimit, getBodyLimit, readBodyOrSpool, readProviderBody } from "./read-body-with-limit";

/** How INBOUND_SECRET is sent in the Authorization header, and what a 401 tells the sender. */
const SECRET_SCHEMES = {
  basic: { isValid: isBasicAuthPasswordValid, hint: "Use HTTP basic auth with INBOUND_SECRET as the password." },
  bearer: { isValid: isBearerTokenValid, hint: "Send Authorization: Bearer with INBOUND_SECRET." },
} as const;

export type SecretProviderOptions = {
  name: InboundProviderName;
  scheme: keyof typeof SECRET_SCHEMES;
  /** The provider's encoding, which sets how much larger than the message its body may be. */
  encoding: keyof typeof BODY_SIZE_ALLOWANCE;
  /** Turns the body read within the limit into the message; throws 400 / 413 as InboundProvider says. */
  parse(body: Buffer, context: { request: Request; maxMessageBytes: number }): InboundMessage | Promise<InboundMessage>;
  /**
   * Given for a body that is the message itself: a body over 1 MiB is written to the process's spool
   * as it arrives (readBodyOrSpool) and turned into the message by this, never read whole.
   */
  parseSpooled?(body: SpooledMessage, context: { request: Request }): Promise<InboundMessage<SpooledMessage>>;
};

/** A provider authenticated by INBOUND_SECRET: 401 inbound.unauthorized before the body is read. */
export function createSecretProvider({ name, scheme, encoding, parse, parseSpooled }: SecretProviderOptions): InboundProvider {
  const { isValid, hint } = SECRET_SCHEMES[scheme];
  return {
    name,
    async readMessage({ request, settings, spool }) {
      if (!isValid(request.headers.get("authorization"), settings.secret)) throw createInboundUnauthorizedError(hint);
      const { maxMessageBytes } = settings;
      if (!parseSpooled || !spool) {
        const body = await readProviderBody(request, maxMessageBytes, encoding);
        return { message: await parse(body, { request, maxMessageBytes }) };
      }
      const { raw: body, release } = await readBodyOrSpool(
        request,
        getBodyLimit(maxMessageBytes, encoding),
        maxMessageBytes,
        spool,
      );
      try {
        const message = isSpooledMessage(body)
          ? await parseSpooled(body, { request })
          : await parse(body, { request, maxMessageBytes });
        return { message, release };
      } catch (error) {
        await release();
        throw error;
      }
    },
  };
}

/**
 * The message the provider posted whole when `posted` is not empty (400 when it is no message,
 * naming `source`), else the one `compose` rebuilds from its fields (400 when the post has none of
 * them); 413 over `maxMessageBytes`.
 */
export async function takeOrComposeMessage(
  posted: Uint8Array | undefined,
  source: string,
  compose: () => Promise<Buffer>,
  maxMessageBytes: number,
): Promise<Buffer> {
  const raw = posted?.length ? ensureLooksLikeMessage(Buffer.from(posted), source) : await compose();
  return ensureMessageWithinLimit(raw, maxMessageBytes);
}

/**
 * The message with its envelope: `sender` where the provider named one (undefined where it did
 * not), else the message's From; the first non-empty list of `recipientLists`, else the message's
 * To, Cc, Delivered-To and X-Original-To. 400 inbound.invalid_message (`noRecipient`) without any.
 */
export function withEnvelope<Raw extends Buffer | SpooledMessage>(
  raw: Raw,
  {
    headerFields = (Buffer.isBuffer(raw) && readHeaderFields(raw)) || [],
    sender,
    recipientLists,
    noRecipient,
    client = null,
    spf = null,
  }: {
    headerFields?: readonly HeaderField[];
    sender: string | null | undefined;
    recipientLists: readonly string[][];
    noRecipient: string;
  } & Pick<InboundMessage["envelope"], "client" | "spf">,
): InboundMessage<Raw> {
  const fromHeaders = readEnvelopeFromHeaders(headerFields);
  const to = [...recipientLists, fromHeaders.to].find((addresses) => addresses.length > 0);
  if (!to) throw createInboundInvalidMessageError(noRecipient);
  const from = sender === undefined ? fromHeaders.from : sender;
  return { raw, envelope: { from, to, ...(client ? { client } : {}), ...(spf ? { spf } : {}) } };
}
