"use client";
// Redelivering a processing from the inbox or its attempts view, or one endpoint's delivery of it from
// the message page: a toast when the new delivery has started, and the API's error as a translated
// toast (useApiErrorMessage).
import { useTranslations } from "next-intl";
import { useApiErrorMessage } from "@/modules/shared/api/use-api-error-message";
import { useToast } from "@/modules/shared/components/toasts-on-demand";
import { useRedeliverDelivery, useRedeliverEmailProcessing } from "../processings.queries";

export function useRedeliver(emailCallbackId: string) {
  const t = useTranslations("processing.redeliver");
  const toast = useToast();
  const apiErrorMessage = useApiErrorMessage();
  const mutation = useRedeliverEmailProcessing(emailCallbackId);

  async function redeliver(processingId: string) {
    try {
      await mutation.mutateAsync(processingId);
    } catch (error) {
      toast.error(apiErrorMessage(error));
      return;
    }
    toast.success(t("success"));
  }

  return { redeliver, isRedelivering: mutation.isPending, redeliveringId: mutation.isPending ? mutation.variables : undefined };
}

/** `destination`: how the page names the endpoint, for the toast. */
export function useRedeliverEndpoint(emailCallbackId: string) {
  const t = useTranslations("processing.deliveries");
  const toast = useToast();
  const apiErrorMessage = useApiErrorMessage();
  const mutation = useRedeliverDelivery(emailCallbackId);

  async function redeliver({
    processingId,
    endpointId,
    destination,
  }: {
    processingId: string;
    endpointId: string;
    destination: string;
  }) {
    try {
      await mutation.mutateAsync({ processingId, endpointId });
    } catch (error) {
      toast.error(apiErrorMessage(error));
      return;
    }
    toast.success(t("redeliverStarted", { destination }));
  }

  return { redeliver, redeliveringEndpointId: mutation.isPending ? mutation.variables.endpointId : undefined };
}
