// Error factories of processings (the inbox rows), with namespaced codes.
import { AppError } from "@/modules/shared/errors/app-error";

export const createEmailProcessingNotFoundError = () =>
  new AppError({ code: "email_processing.not_found", message: "The email processing was not found." });

export const createMessageGoneError = () =>
  new AppError({
    code: "email_processing.message_gone",
    message: "The message is no longer stored (or was never delivered), so it cannot be redelivered.",
  });

export const createDeliveryInProgressError = () =>
  new AppError({
    code: "email_processing.delivery_in_progress",
    message: "The message is still being delivered; redeliver it once its delivery has ended.",
  });
