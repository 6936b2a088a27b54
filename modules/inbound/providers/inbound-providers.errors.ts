// Error factories of the HTTP ingest routes; the codes are in the shared table (error-codes.ts).
import { AppError } from "@/modules/shared/errors/app-error";

export const createInboundUnknownProviderError = (provider: string) =>
  new AppError({
    code: "inbound.unknown_provider",
    message: `There is no inbound route for "${provider.slice(0, 40)}": use raw, postmark, mailgun or sendgrid.`,
  });

/** 503: the operator has not set the secret this route is checked with. */
export const createInboundNotConfiguredError = (variable: "INBOUND_SECRET" | "MAILGUN_SIGNING_KEY") =>
  new AppError({ code: "inbound.not_configured", message: `This inbound route is disabled: ${variable} is not set.` });

export const createInboundUnauthorizedError = (reason = "The credentials are missing or wrong.") =>
  new AppError({ code: "inbound.unauthorized", message: reason });

export const createInboundPayloadTooLargeError = (maxBytes: number) =>
  new AppError({
    code: "inbound.payload_too_large",
    message: `The message exceeds the maximum size of ${maxBytes} bytes.`,
  });

/** 400 with the reason the body is not a message, for the provider's logs. */
export const createInboundInvalidMessageError = (reason: string) =>
  new AppError({ code: "inbound.invalid_message", message: `The body is not an email message: ${reason}` });
