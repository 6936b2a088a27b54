"use client";
import { RotateCwIcon } from "lucide-react";
import { useLocale, useTranslations } from "next-intl";
// The delivery attempts of one inbox row, newest first: when each webhook call was made, the status
// code it got (or none), how long it took, the error, and the start of the response body. Earlier
// attempt series stay listed after a redelivery. The row can be redelivered from here too.
import type { RefObject } from "react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Skeleton } from "@/components/ui/skeleton";
import { ActionDialog } from "@/modules/shared/components/action-dialog";
import { LoadError } from "@/modules/shared/components/load-error";
import { PROCESSING_STATUS } from "../processings.constants";
import type { ApiDeliveryAttempt, ApiEmailProcessing } from "../processings.models";
import { useDeliveryAttempts } from "../processings.queries";
import { useRedeliver } from "./use-redeliver";

export function DeliveryAttemptsDialog({
  emailCallbackId,
  processing,
  open,
  onOpenChange,
  returnFocus,
}: {
  emailCallbackId: string;
  processing: ApiEmailProcessing;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** Where focus goes back on close: the button of the menu the dialog was opened from. */
  returnFocus?: RefObject<HTMLElement | null>;
}) {
  const t = useTranslations("processing");
  const isPending = processing.status === PROCESSING_STATUS.PENDING;
  const { redeliver, isRedelivering } = useRedeliver(emailCallbackId);
  return (
    <ActionDialog
      open={open}
      onOpenChange={onOpenChange}
      title={t("attempts.title")}
      description={t("attempts.description", {
        subject: processing.subject || t("inbox.noSubject"),
        from: processing.fromAddress,
      })}
      descriptionClassName="break-words"
      className="flex max-h-[min(42rem,calc(100dvh-2rem))] flex-col sm:max-w-2xl"
      closeLabel={t("attempts.close")}
      dismissLabel={t("attempts.close")}
      action={
        <Button disabled={isPending || isRedelivering} onClick={() => void redeliver(processing.id)}>
          <RotateCwIcon aria-hidden />
          {t("inbox.actions.redeliver")}
        </Button>
      }
      returnFocus={returnFocus}
    >
      <div className="-mx-6 min-h-0 flex-1 overflow-y-auto px-6">
        {/* Mounted (and fetched) only while the dialog is open: Radix unmounts closed content. */}
        <DeliveryAttemptList emailCallbackId={emailCallbackId} processingId={processing.id} isPending={isPending} />
      </div>
    </ActionDialog>
  );
}

export function DeliveryAttemptList({
  emailCallbackId,
  processingId,
  isPending,
}: {
  emailCallbackId: string;
  processingId: string;
  isPending: boolean;
}) {
  const t = useTranslations("processing.attempts");
  const tCommon = useTranslations("common");
  const query = useDeliveryAttempts(emailCallbackId, processingId, { isEnabled: true, isPending });

  if (query.isPending) {
    return (
      <div className="flex flex-col gap-3" role="status" aria-busy="true" aria-label={tCommon("loading")}>
        <Skeleton className="h-24 w-full" />
        <Skeleton className="h-24 w-full" />
      </div>
    );
  }
  if (query.isError) return <LoadError message={t("loadError")} onRetry={() => query.refetch()} />;
  if (query.data.length === 0) {
    return <p className="text-muted-foreground rounded-lg border border-dashed px-4 py-8 text-center text-sm">{t("empty")}</p>;
  }
  return (
    <ol aria-label={t("title")} className="flex flex-col gap-3">
      {query.data.map((attempt) => (
        <DeliveryAttemptItem key={attempt.id} attempt={attempt} />
      ))}
    </ol>
  );
}

function isSuccessStatus(statusCode: number): boolean {
  return statusCode >= 200 && statusCode < 300;
}

export function DeliveryAttemptItem({ attempt }: { attempt: ApiDeliveryAttempt }) {
  const t = useTranslations("processing.attempts");
  const locale = useLocale();
  const attemptedAt = new Date(attempt.attemptedAt);
  return (
    <li className="flex flex-col gap-2 rounded-lg border p-3 text-sm">
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
        <time dateTime={attempt.attemptedAt} className="font-medium">
          {new Intl.DateTimeFormat(locale, { dateStyle: "medium", timeStyle: "medium" }).format(attemptedAt)}
        </time>
        {attempt.statusCode === null ? (
          <Badge variant="outline">{t("noResponse")}</Badge>
        ) : (
          <Badge variant={isSuccessStatus(attempt.statusCode) ? "success" : "destructive"} className="tabular-nums">
            <span className="sr-only">{t("statusCode")}</span>
            {attempt.statusCode}
          </Badge>
        )}
        <span className="text-muted-foreground tabular-nums">
          <span className="sr-only">{t("durationLabel")}</span>
          {t("duration", { duration: attempt.durationMs })}
        </span>
      </div>
      {attempt.error ? (
        <p className="text-destructive break-words">
          <span className="sr-only">{t("error")}</span>
          {attempt.error}
        </p>
      ) : null}
      {attempt.statusCode !== null ? (
        <div className="flex flex-col gap-1">
          <span className="text-muted-foreground text-xs font-medium">{t("response")}</span>
          {attempt.responseBody ? (
            <pre className="bg-muted max-h-40 overflow-auto rounded-md p-2 font-mono text-xs break-all whitespace-pre-wrap">
              {attempt.responseBody}
            </pre>
          ) : (
            <span className="text-muted-foreground text-xs italic">{t("emptyResponse")}</span>
          )}
        </div>
      ) : null}
    </li>
  );
}
