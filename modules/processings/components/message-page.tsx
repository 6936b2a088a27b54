"use client";
// One mail of an inbox, in full: who sent it and when, what became of it (status, reason, attempts,
// the next one while pending), its parts in tabs (text, HTML, headers, attachments, checks, the exact
// webhook body, the attempts: one card per endpoint when it went to several), a download of the .eml
// and a redelivery. Once its content is past the retention, the page says so and keeps what remains
// (the row, the attempts).
import { DownloadIcon, RotateCwIcon } from "lucide-react";
import { useLocale, useTranslations } from "next-intl";
import type { ReactNode } from "react";
import { Button } from "@/components/ui/button";
import { Skeleton } from "@/components/ui/skeleton";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/components/ui/tabs";
import { isWildcardUsername } from "@/modules/email-callbacks/address-patterns";
import { useEmailCallback } from "@/modules/email-callbacks/email-callbacks.queries";
import { usePageTitle } from "@/modules/i18n/use-page-title";
import { isNotFoundError } from "@/modules/shared/api/api-client";
import { emailCallbackPath } from "@/modules/shared/app-paths";
import { CopyButton } from "@/modules/shared/components/copy-button";
import { LoadError } from "@/modules/shared/components/load-error";
import { PageHeading } from "@/modules/shared/components/page-heading";
import { RelativeTime } from "@/modules/shared/components/relative-time";
import { toUnicodeAddress } from "@/modules/shared/domain-names";
import { PROCESSING_STATUS } from "../processings.constants";
import type { ApiEmailProcessingDetail, ApiProcessingDelivery } from "../processings.models";
import { rawMessagePath, useDeliveryAttempts, useEmailProcessing, webhookBodyPath } from "../processings.queries";
import { DeliveryAttemptList } from "./delivery-attempts-dialog";
import { formatSize, MailAttachments, MailChecks, MailHeaders, MailHtml, type SentMail } from "./message-parts";
import { ProcessingStatusBadge } from "./processing-status-badge";
import { useProcessingEvents } from "./use-processing-events";
import { useRedeliver } from "./use-redeliver";

const TABS = ["text", "html", "headers", "attachments", "checks", "webhookBody", "attempts"] as const;

function readSentMail(webhookBody: string | null): SentMail | null {
  if (!webhookBody) return null;
  try {
    return (JSON.parse(webhookBody) as { data?: SentMail }).data ?? null;
  } catch {
    return null;
  }
}

export function MessagePage({
  emailCallbackId,
  processingId,
  endpointDeliveries,
}: {
  emailCallbackId: string;
  processingId: string;
  /** What shows the deliveries of a mail that went to several endpoints (the page brings it). */
  endpointDeliveries: ReactNode;
}) {
  const t = useTranslations("processing.message");
  const tDeliveries = useTranslations("processing.deliveries");
  const locale = useLocale();
  // Each delivery's attempt ending changes the mail's row, so its event refreshes the deliveries too.
  useProcessingEvents(emailCallbackId);
  const query = useEmailProcessing(emailCallbackId, processingId);
  const back = { href: emailCallbackPath(emailCallbackId, "inbox"), label: t("back") };
  if (query.isPending) {
    return (
      <div className="flex flex-col gap-6" role="status" aria-busy="true">
        <Skeleton className="h-8 w-72" />
        <Skeleton className="h-64 w-full" />
      </div>
    );
  }
  if (query.isError) {
    return (
      <div className="flex flex-col gap-6">
        <PageHeading back={back} />
        {isNotFoundError(query.error) ? (
          <MessageNotFound />
        ) : (
          <LoadError message={t("loadError")} onRetry={() => query.refetch()} />
        )}
      </div>
    );
  }
  const { emailProcessing, deliveries, webhookBody, webhookBodyBytes, isWebhookBodyShortened } = query.data;
  const mail = readSentMail(webhookBody);
  return (
    <div className="flex flex-col gap-6">
      <PageHeading back={back}>
        <MessageHeader
          emailCallbackId={emailCallbackId}
          processing={emailProcessing}
          deliveries={deliveries}
          hasContent={webhookBody !== null}
        />
      </PageHeading>
      {mail === null ? <p className="bg-muted/40 rounded-lg border px-4 py-3 text-sm">{t("gone")}</p> : null}
      <Tabs defaultValue={mail ? "text" : "attempts"}>
        {/* On a phone the tabs wrap onto a second line rather than scroll out of sight. */}
        <TabsList aria-label={t("tabs.label")} className="h-auto max-w-full flex-wrap justify-start">
          {TABS.map((tab) => (
            <TabsTrigger key={tab} value={tab} disabled={!mail && tab !== "attempts"} className="flex-none">
              {/* Several endpoints: the tab lists each one's delivery. */}
              {tab === "attempts" && deliveries.length > 1 ? tDeliveries("tab") : t(`tabs.${tab}`)}
            </TabsTrigger>
          ))}
        </TabsList>
        {mail ? (
          <>
            <TabsContent value="text">
              <pre className="bg-muted/30 rounded-lg border p-4 text-sm whitespace-pre-wrap break-words">
                {mail.text || t("noText")}
              </pre>
            </TabsContent>
            <TabsContent value="html">
              <MailHtml html={mail.html} />
            </TabsContent>
            <TabsContent value="headers">
              <MailHeaders headers={mail.headers} />
            </TabsContent>
            <TabsContent value="attachments">
              <MailAttachments emailCallbackId={emailCallbackId} processingId={processingId} attachments={mail.attachments} />
            </TabsContent>
            <TabsContent value="checks">
              <MailChecks mail={mail} />
            </TabsContent>
            <TabsContent value="webhookBody">
              {isWebhookBodyShortened ? (
                <ShortenedBodyNotice
                  href={webhookBodyPath(emailCallbackId, processingId)}
                  size={formatSize(webhookBodyBytes ?? 0, locale)}
                />
              ) : null}
              <WebhookBody body={webhookBody!} isShortened={isWebhookBodyShortened} />
            </TabsContent>
          </>
        ) : null}
        <TabsContent value="attempts">
          {deliveries.length > 1 ? (
            endpointDeliveries
          ) : (
            <DeliveryAttemptList
              emailCallbackId={emailCallbackId}
              processingId={processingId}
              isPending={emailProcessing.status === PROCESSING_STATUS.PENDING}
            />
          )}
        </TabsContent>
      </Tabs>
    </div>
  );
}

function MessageNotFound() {
  const t = useTranslations("processing.message");
  usePageTitle("messageNotFound");
  return <p className="text-muted-foreground">{t("notFound")}</p>;
}

function MessageHeader({
  emailCallbackId,
  processing,
  deliveries,
  hasContent,
}: {
  emailCallbackId: string;
  processing: ApiEmailProcessingDetail;
  deliveries: ApiProcessingDelivery[];
  hasContent: boolean;
}) {
  const t = useTranslations("processing");
  const { redeliver, isRedelivering } = useRedeliver(emailCallbackId);
  const isPending = processing.status === PROCESSING_STATUS.PENDING;
  // Every attempt, earlier series included: the count the Attempts tab lists (the row's own
  // attemptCount is the current series' only).
  const attempts = useDeliveryAttempts(emailCallbackId, processing.id, { isEnabled: true, isPending });
  // On a pattern or catch-all address, which address the mail was sent to.
  const { data: emailCallback } = useEmailCallback(emailCallbackId);
  const showsRecipient = emailCallback ? isWildcardUsername(emailCallback.username) : false;
  return (
    <div className="flex w-full flex-col gap-3">
      <h1 className="text-2xl font-semibold tracking-tight break-words">{processing.subject || t("inbox.noSubject")}</h1>
      <dl className="text-muted-foreground flex flex-wrap gap-x-6 gap-y-1 text-sm">
        <div className="flex gap-1">
          <dt>{t("message.from")}</dt>
          <dd className="text-foreground break-all">{processing.fromAddress}</dd>
        </div>
        {showsRecipient ? (
          <div className="flex gap-1">
            <dt>{t("message.to")}</dt>
            <dd className="text-foreground break-all">{toUnicodeAddress(processing.recipient)}</dd>
          </div>
        ) : null}
        <div className="flex gap-1">
          <dt>{t("message.receivedAt")}</dt>
          <dd className="text-foreground">
            <RelativeTime date={processing.createdAt} />
          </dd>
        </div>
      </dl>
      <div className="flex flex-wrap items-center gap-2 text-sm">
        <ProcessingStatusBadge status={processing.status} />
        {processing.error ? (
          <span>
            {t.has(`error.${processing.error}` as never) ? t(`error.${processing.error}` as never) : t("error.unknown")}
          </span>
        ) : null}
        {/* Several endpoints: how many took the mail, rather than one of their status codes. */}
        {deliveries.length > 1 ? (
          <span>
            {t("deliveries.summary", {
              delivered: deliveries.filter((delivery) => delivery.status === PROCESSING_STATUS.SUCCESS).length,
              total: deliveries.length,
            })}
          </span>
        ) : processing.webhookResponseStatusCode ? (
          <span className="tabular-nums">HTTP {processing.webhookResponseStatusCode}</span>
        ) : null}
        {attempts.data ? (
          <span className="text-muted-foreground">
            {t("message.attemptCount", { count: attempts.data.length })}
            {isPending && processing.nextAttemptAt ? (
              <>
                {", "}
                {t("message.nextAttempt", { time: new Date(processing.nextAttemptAt).toLocaleTimeString() })}
              </>
            ) : null}
          </span>
        ) : null}
      </div>
      <div className="flex flex-wrap gap-2">
        {hasContent ? (
          <Button variant="outline" size="sm" asChild>
            <a href={rawMessagePath(emailCallbackId, processing.id)} download>
              <DownloadIcon aria-hidden />
              {t("message.downloadEml")}
            </a>
          </Button>
        ) : null}
        <Button size="sm" disabled={isPending || isRedelivering || !hasContent} onClick={() => void redeliver(processing.id)}>
          <RotateCwIcon aria-hidden />
          {t("inbox.actions.redeliver")}
        </Button>
      </div>
    </div>
  );
}

/** A large body is shown without its attachments' content; the exact one is a download. */
function ShortenedBodyNotice({ href, size }: { href: string; size: string }) {
  const t = useTranslations("processing.message");
  return (
    <div className="bg-muted/40 mb-3 flex flex-col gap-3 rounded-lg border px-4 py-3 text-sm sm:flex-row sm:items-center sm:justify-between">
      <p>{t("bodyShortened", { size })}</p>
      {/* Its own box, so that the button keeps its width in the column a phone shows. */}
      <div>
        <Button variant="outline" size="sm" asChild>
          <a href={href} download>
            <DownloadIcon aria-hidden />
            {t("downloadBody")}
          </a>
        </Button>
      </div>
    </div>
  );
}

function WebhookBody({ body, isShortened }: { body: string; isShortened: boolean }) {
  const t = useTranslations("processing.message");
  let formatted = body;
  try {
    formatted = JSON.stringify(JSON.parse(body), null, 2);
  } catch {
    // Shown as sent.
  }
  return (
    <div className="relative">
      {isShortened ? null : <CopyButton value={body} label={t("copyBody")} className="absolute top-2 right-2" />}
      <pre className="bg-muted/30 max-h-[40rem] overflow-auto rounded-lg border p-4 font-mono text-xs">{formatted}</pre>
    </div>
  );
}
