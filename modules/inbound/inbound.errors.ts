// Error factories of the inbound pipeline.
import { AppError, defineError } from "@/modules/shared/errors/app-error";

/**
 * 400 (SMTP 554 5.6.0): parsing the message took longer than PARSE_TIME_LIMIT_MS. Refused for good:
 * the same bytes would take as long again (docs/security.md).
 */
export const createMessageTooComplexError = (timeLimitMs: number) =>
  new AppError({
    code: "inbound.message_too_complex",
    message: `The message took longer than ${timeLimitMs} ms to parse and was refused.`,
  });

/** 503 (SMTP 451): more messages wait for parsing than the pool queues; the sender should retry. */
export const createParseQueueFullError = defineError(
  "service.unavailable",
  "Too many messages are waiting to be parsed; try again shortly.",
);

/** 400: the address given to the route preview (GET /api/domains/route?to=) is no address. */
export const createInvalidRouteAddressError = defineError(
  "domain.invalid_address",
  "to must be an email address, such as orders-eu@example.org.",
  { path: "to", code: "invalid_address", message: "Enter an email address" },
);
