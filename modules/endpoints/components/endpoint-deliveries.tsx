"use client";
// A mail's deliveries when it went to several endpoints (docs/webhooks.md: Destinations): one card per
// endpoint, with the endpoint (its number, URL and format; a deleted one named as such), the
// delivery's status (the next attempt while it waits for one), its attempts and last status code,
// and a Redeliver of that endpoint alone. The message page shows it in place of its plain attempts
// list; the page composes the two features.
import { RotateCwIcon } from "lucide-react";
import { useLocale, useTranslations } from "next-intl";
import { useId } from "react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Skeleton } from "@/components/ui/skeleton";
import { DeliveryAttemptItem } from "@/modules/processings/components/delivery-attempts-dialog";
import { useRedeliverEndpoint } from "@/modules/processings/components/use-redeliver";
import { canRedeliverDelivery, type DeliveryGroup, groupDeliveries } from "@/modules/processings/delivery-groups";
import { DELIVERY_STATUS, PROCESSING_STATUS, type ProcessingStatus } from "@/modules/processings/processings.constants";
import { useDeliveryAttempts, useEmailProcessing } from "@/modules/processings/processings.queries";
import { LoadError } from "@/modules/shared/components/load-error";
import { useEndpoints } from "../endpoints.queries";

const STATUS_VARIANTS = {
  [DELIVERY_STATUS.SUCCESS]: "success",
  [DELIVERY_STATUS.ERROR]: "destructive",
  [DELIVERY_STATUS.NOT_PROCESSED]: "secondary",
  [DELIVERY_STATUS.PENDING]: "outline",
} as const satisfies Record<ProcessingStatus, string>;

export function EndpointDeliveries({ emailCallbackId, processingId }: { emailCallbackId: string; processingId: string }) {
  const t = useTranslations("processing.deliveries");
  const tCommon = useTranslations("common");
  // The message page has read the mail already: this is its cached answer.
  const detail = useEmailProcessing(emailCallbackId, processingId);
  const deliveries = detail.data?.deliveries ?? [];
  const isPending = detail.data?.emailProcessing.status === PROCESSING_STATUS.PENDING;
  const attempts = useDeliveryAttempts(emailCallbackId, processingId, { isEnabled: true, isPending });
  const endpoints = useEndpoints(emailCallbackId);
  if (attempts.isPending || endpoints.isPending) {
    return (
      <div className="flex flex-col gap-3" role="status" aria-busy="true" aria-label={tCommon("loading")}>
        <Skeleton className="h-32 w-full" />
        <Skeleton className="h-32 w-full" />
      </div>
    );
  }
  if (attempts.isError || endpoints.isError) {
    return (
      <LoadError
        message={t("loadError")}
        onRetry={() => {
          void attempts.refetch();
          void endpoints.refetch();
        }}
      />
    );
  }
  const groups = groupDeliveries({ deliveries, attempts: attempts.data, endpoints: endpoints.data });
  return (
    <ul aria-label={t("title")} className="flex flex-col gap-4">
      {groups.map((group) => (
        <DeliveryCard
          key={group.delivery.endpointId}
          emailCallbackId={emailCallbackId}
          processingId={processingId}
          group={group}
        />
      ))}
    </ul>
  );
}

function DeliveryCard({
  emailCallbackId,
  processingId,
  group,
}: {
  emailCallbackId: string;
  processingId: string;
  group: DeliveryGroup;
}) {
  const t = useTranslations("processing.deliveries");
  const locale = useLocale();
  const headingId = useId();
  const { redeliver, redeliveringEndpointId } = useRedeliverEndpoint(emailCallbackId);
  const { delivery, endpoint } = group;
  const name = endpoint ? t("destination", { number: endpoint.number }) : t("removed");
  const isWaiting = delivery.status === DELIVERY_STATUS.PENDING && delivery.nextAttemptAt !== null && delivery.attemptCount > 0;
  return (
    <li>
      <section aria-labelledby={headingId} className="flex min-w-0 flex-col gap-3 rounded-lg border p-4">
        <div className="flex flex-wrap items-start justify-between gap-x-4 gap-y-2">
          <div className="flex min-w-0 flex-col gap-1">
            <div className="flex flex-wrap items-center gap-2">
              <h3 id={headingId} className="font-medium">
                {name}
              </h3>
              <Badge variant={STATUS_VARIANTS[delivery.status] ?? "outline"}>{t(`status.${delivery.status}`)}</Badge>
              {endpoint ? <Badge variant="secondary">{t(`format.${endpoint.format}` as never)}</Badge> : null}
            </div>
            <p className="text-muted-foreground font-mono text-xs break-all">{endpoint ? endpoint.url : t("removedHint")}</p>
          </div>
          {endpoint ? (
            <Button
              variant="outline"
              size="sm"
              disabled={!canRedeliverDelivery(delivery) || redeliveringEndpointId === delivery.endpointId}
              onClick={() => void redeliver({ processingId, endpointId: delivery.endpointId, destination: name })}
            >
              <RotateCwIcon aria-hidden />
              {t("redeliver")}
            </Button>
          ) : null}
        </div>
        <p className="text-muted-foreground text-sm">
          {/* Every attempt listed, earlier series included (the delivery's own count is its current series'). */}
          {t("attemptCount", { count: group.attempts.length })}
          {delivery.lastStatusCode !== null ? (
            <>
              {" · "}
              <span className="tabular-nums">{t("lastStatusCode", { code: delivery.lastStatusCode })}</span>
            </>
          ) : null}
          {isWaiting ? (
            <>
              {" · "}
              {t("nextAttempt", { time: new Date(delivery.nextAttemptAt!).toLocaleTimeString(locale) })}
            </>
          ) : null}
        </p>
        {group.attempts.length > 0 ? (
          <ol aria-label={t("attemptsOf", { destination: name })} className="flex flex-col gap-3">
            {group.attempts.map((attempt) => (
              <DeliveryAttemptItem key={attempt.id} attempt={attempt} />
            ))}
          </ol>
        ) : null}
      </section>
    </li>
  );
}
