// Error factories of parsing a message, in the parsing threads.
import { AppError } from "@/modules/shared/errors/app-error";

/** 400: the body could not be read as an RFC 5322 message at all. */
export const createInvalidMessageError = (cause?: unknown) =>
  new AppError({
    code: "inbound.invalid_message",
    message: "The message could not be parsed as an email (RFC 5322).",
    cause,
  });
