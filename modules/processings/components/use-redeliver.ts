"use client";
// Redelivering a processing from the inbox or its attempts view: a toast when the new delivery has
// started, and the API's error codes as translated toasts.
import { useTranslations } from "next-intl";
import { toast } from "@/components/ui/sonner";
import { ApiError } from "@/modules/shared/api/api-client";
import { useRedeliverEmailProcessing } from "../processings.queries";

/** Message keys (under processing.redeliver) of the error codes redelivery may answer. */
const REDELIVER_ERROR_MESSAGES = {
  "email_processing.message_gone": "errors.messageGone",
  "email_processing.delivery_in_progress": "errors.deliveryInProgress",
  "email_processing.not_found": "errors.notFound",
  "email_callback.not_found": "errors.notFound",
} as const;

function getRedeliverErrorMessageKey(error: unknown) {
  if (error instanceof ApiError && Object.hasOwn(REDELIVER_ERROR_MESSAGES, error.code)) {
    return REDELIVER_ERROR_MESSAGES[error.code as keyof typeof REDELIVER_ERROR_MESSAGES];
  }
  return "errors.unknown" as const;
}

export function useRedeliver(emailCallbackId: string) {
  const t = useTranslations("processing.redeliver");
  const mutation = useRedeliverEmailProcessing(emailCallbackId);

  async function redeliver(processingId: string) {
    try {
      await mutation.mutateAsync(processingId);
    } catch (error) {
      toast.error(t(getRedeliverErrorMessageKey(error)));
      return;
    }
    toast.success(t("success"));
  }

  return { redeliver, isRedelivering: mutation.isPending, redeliveringId: mutation.isPending ? mutation.variables : undefined };
}
