"use client";
// "Redeliver all failed": shown while some of the address's mail failed; asks first, naming how many,
// then starts a new attempt series for each, says how many started, and the inbox refreshes.
import { RotateCwIcon } from "lucide-react";
import { useTranslations } from "next-intl";
import { useRef } from "react";
import { Button } from "@/components/ui/button";
import { useApiErrorMessage } from "@/modules/shared/api/use-api-error-message";
import { useConfirmDialog } from "@/modules/shared/components/confirm-dialog";
import { useToast } from "@/modules/shared/components/toasts-on-demand";
import { useFailedProcessingsCount, useRedeliverFailedProcessings } from "../processings.queries";

export function RedeliverFailedButton({ emailCallbackId }: { emailCallbackId: string }) {
  const t = useTranslations("processing.inbox.redeliverAll");
  const toast = useToast();
  const apiErrorMessage = useApiErrorMessage();
  const { data: failedCount = 0 } = useFailedProcessingsCount(emailCallbackId);
  const mutation = useRedeliverFailedProcessings(emailCallbackId);
  const { confirm, dialog } = useConfirmDialog();
  const button = useRef<HTMLButtonElement>(null);

  async function redeliverAll() {
    const isConfirmed = await confirm({
      title: t("confirmTitle", { count: failedCount }),
      description: t("confirmDescription", { count: failedCount }),
      confirmLabel: t("confirm"),
      returnFocus: button,
    });
    if (!isConfirmed) return;
    try {
      const { count } = await mutation.mutateAsync();
      toast.success(t("started", { count }));
    } catch (error) {
      toast.error(apiErrorMessage(error));
    }
  }

  return (
    <>
      {failedCount > 0 ? (
        <Button
          ref={button}
          variant="outline"
          className="max-sm:flex-1"
          disabled={mutation.isPending}
          onClick={() => void redeliverAll()}
        >
          <RotateCwIcon aria-hidden />
          {t("button")}
        </Button>
      ) : null}
      {dialog}
    </>
  );
}
