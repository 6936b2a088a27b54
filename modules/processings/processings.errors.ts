// Error factories of processings (the inbox rows), with namespaced codes.
import { defineError } from "@/modules/shared/errors/app-error";

export const createEmailProcessingNotFoundError = defineError(
  "email_processing.not_found",
  "The email processing was not found.",
);

export const createMessageGoneError = defineError(
  "email_processing.message_gone",
  "The message is no longer stored (its retention has passed, or it was never kept): it cannot be read or redelivered.",
);

export const createDeliveryInProgressError = defineError(
  "email_processing.delivery_in_progress",
  "The message is still being delivered; redeliver it once its delivery has ended.",
);

/**
 * A redelivery naming an endpoint that has no delivery of the mail, or is not the address's: the
 * endpoint calls' own code, with a factory of this feature's (two features do not import each other).
 */
export const createDeliveryEndpointNotFoundError = defineError(
  "endpoint.not_found",
  "The endpoint was not found among those this message was delivered to.",
);
