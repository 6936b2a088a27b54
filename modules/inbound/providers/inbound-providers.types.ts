// Shapes shared by the HTTP ingest providers and the usecase that runs them.
import type { AuthResult } from "@/modules/mail-checks/mail-auth.models";
import type { SmtpClient } from "@/modules/mail-checks/mail-auth.usecases";
import type { MessageSpool } from "../message-spool";
import type { SpooledMessage } from "../parsing/message-source";
import type { MailgunTokenRegistry } from "./inbound-auth";
import type { INBOUND_PROVIDER_NAMES } from "./inbound-providers.constants";

export type InboundProviderName = (typeof INBOUND_PROVIDER_NAMES)[number];

/**
 * What the pipeline receives: the raw RFC 5322 message and its SMTP envelope; the SMTP client when
 * the route knows it (SPF is checked against it), else the provider's own SPF verdict when it sent one.
 */
export type InboundMessage<Raw extends Buffer | SpooledMessage = Buffer> = {
  /** The message's bytes; or, as a route may hand it on, the file it was spooled to as it arrived. */
  raw: Raw;
  envelope: { from: string | null; to: string[]; client?: SmtpClient | null; spf?: AuthResult | null };
};

/** The pipeline's entry point (receiveMessage), passed in. */
export type ReceiveMessage = (message: InboundMessage<Buffer | SpooledMessage>) => Promise<{ accepted: number }>;

export type InboundSettings = {
  secret: string | undefined;
  mailgunSigningKey: string | undefined;
  maxMessageBytes: number;
};

export type InboundRequestContext = {
  request: Request;
  /** INBOUND_SECRET is known to be set here. */
  settings: InboundSettings & { secret: string };
  nowMs: number;
  mailgunTokens: MailgunTokenRegistry;
  /** Where a large body may be written as it arrives (message-spool.ts); without it, bodies stay in memory. */
  spool?: MessageSpool;
};

export type InboundProvider = {
  name: InboundProviderName;
  /**
   * Authenticates the request, reads its body within the size limit and turns it into a message.
   * Throws inbound.not_configured, inbound.unauthorized, inbound.payload_too_large or
   * inbound.invalid_message. `onReceiveFailed` undoes what must not outlive a refused message;
   * `release` lets go of a spooled body once the message is answered, whatever the answer.
   */
  readMessage(context: InboundRequestContext): Promise<{
    message: InboundMessage<Buffer | SpooledMessage>;
    onReceiveFailed?: () => Promise<void> | void;
    release?: () => Promise<void>;
  }>;
};
