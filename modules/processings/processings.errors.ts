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
