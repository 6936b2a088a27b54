"use client";
// The mails of one inbox page, two ways: a table from 640px up, and on phones a list of stacked
// blocks (subject, sender, time, status, actions) that fits the width without sideways scrolling.
// The inbox of a pattern or catch-all address also shows each mail's recipient (docs/domains.md).
// Each mail's menu opens its delivery attempts and redelivers it (its dropdown:
// processing-menu-dropdown.tsx, loaded when first opened).
import { EllipsisVerticalIcon } from "lucide-react";
import dynamic from "next/dynamic";
import Link from "next/link";
import { useTranslations } from "next-intl";
import { useRef, useState } from "react";
import { Button } from "@/components/ui/button";
import { Table, TableBody, TableCaption, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { messagePath } from "@/modules/shared/app-paths";
import { MenuOnDemand } from "@/modules/shared/components/menu-on-demand";
import { RelativeTime } from "@/modules/shared/components/relative-time";
import { toUnicodeAddress } from "@/modules/shared/domain-names";
import { PROCESSING_STATUS } from "../processings.constants";
import type { ApiEmailProcessing } from "../processings.models";
import { DeliveryAttemptsDialog } from "./delivery-attempts-dialog";
import { ProcessingStatusBadge } from "./processing-status-badge";
import { useRedeliver } from "./use-redeliver";

const loadProcessingMenuDropdown = () => import("./processing-menu-dropdown");
const ProcessingMenuDropdown = dynamic(() => loadProcessingMenuDropdown().then((module) => module.ProcessingMenuDropdown), {
  ssr: false,
});

type RowsProps = {
  emailCallbackId: string;
  address: string;
  /** The address is a pattern or a catch-all: each row says which address its mail was sent to. */
  showsRecipient: boolean;
  processings: ApiEmailProcessing[];
};

export function InboxRows(props: RowsProps) {
  return (
    <>
      {/* Clipped (not scrolled): the header's corners follow the border, and it stays sticky. */}
      <div className="hidden overflow-clip rounded-xl border sm:block">
        <InboxTable {...props} />
      </div>
      <InboxList {...props} />
    </>
  );
}

function InboxTable({ emailCallbackId, address, showsRecipient, processings }: RowsProps) {
  const t = useTranslations("processing.inbox");
  return (
    // From 1024px the table fits the page: nothing scrolls sideways, and the column names stay in
    // sight under the top bar (sticky) as a long page scrolls.
    <Table className="min-w-[56rem]" containerClassName="lg:overflow-visible">
      <TableCaption className="sr-only">{t("caption", { address })}</TableCaption>
      <TableHeader className="[&_th]:bg-background lg:[&_th]:sticky lg:[&_th]:top-[calc(3.5rem+1px)] lg:[&_th]:z-10 lg:[&_th]:shadow-[inset_0_-1px_0_var(--border)]">
        <TableRow className="hover:bg-transparent">
          <TableHead className={showsRecipient ? "w-[21%] pl-4" : "w-[27%] pl-4"}>{t("columns.from")}</TableHead>
          {showsRecipient ? <TableHead className="w-[19%]">{t("columns.to")}</TableHead> : null}
          <TableHead className={showsRecipient ? "w-[22%]" : "w-[29%]"}>{t("columns.subject")}</TableHead>
          {/* The other columns take what they need (w-px: no more than their content), so that the
              sender and the subject get the width; a long reason wraps in Details. */}
          <TableHead className="w-px">{t("columns.status")}</TableHead>
          <TableHead className="w-[14%]">{t("columns.details")}</TableHead>
          <TableHead className="w-px text-right" aria-label={t("columns.webhookStatusCode")}>
            <span title={t("columns.webhookStatusCode")}>HTTP</span>
          </TableHead>
          <TableHead className="w-px text-right">{t("columns.receivedAt")}</TableHead>
          <TableHead className="w-12 pr-2">
            <span className="sr-only">{t("columns.actions")}</span>
          </TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {processings.map((processing) => (
          <TableRow key={processing.id}>
            {/* max-w-0 lets these two columns share the width left by the others, truncating their text. */}
            <TableCell className="max-w-0 truncate pl-4" title={processing.fromAddress}>
              {processing.fromAddress}
            </TableCell>
            {showsRecipient ? (
              <TableCell className="max-w-0 truncate" title={toUnicodeAddress(processing.recipient)}>
                {toUnicodeAddress(processing.recipient)}
              </TableCell>
            ) : null}
            <TableCell className="max-w-0 truncate" title={processing.subject}>
              <SubjectLink emailCallbackId={emailCallbackId} processing={processing} />
            </TableCell>
            <TableCell>
              <ProcessingStatusBadge status={processing.status} />
            </TableCell>
            <TableCell className="text-muted-foreground whitespace-normal">
              <ErrorDetails error={processing.error} />
            </TableCell>
            <TableCell className="text-right tabular-nums">
              {processing.webhookResponseStatusCode ?? <span className="text-muted-foreground">—</span>}
            </TableCell>
            <TableCell className="text-muted-foreground text-right">
              <RelativeTime date={processing.createdAt} />
            </TableCell>
            <TableCell className="pr-2 text-right">
              <ProcessingActions emailCallbackId={emailCallbackId} processing={processing} />
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

function InboxList({ emailCallbackId, address, showsRecipient, processings }: RowsProps) {
  const t = useTranslations("processing.inbox");
  return (
    <ul aria-label={t("caption", { address })} className="divide-y rounded-xl border sm:hidden">
      {processings.map((processing) => (
        <li key={processing.id} className="flex items-start gap-2 py-3 pr-1 pl-4">
          <div className="flex min-w-0 flex-1 flex-col gap-1.5">
            <p className="truncate text-sm font-medium" title={processing.subject}>
              <SubjectLink emailCallbackId={emailCallbackId} processing={processing} />
            </p>
            <p className="text-muted-foreground truncate text-sm" title={processing.fromAddress}>
              <span className="sr-only">{t("columns.from")}: </span>
              {processing.fromAddress}
            </p>
            {showsRecipient ? (
              <p className="text-muted-foreground truncate text-sm" title={toUnicodeAddress(processing.recipient)}>
                {t("columns.to")}: <span className="text-foreground">{toUnicodeAddress(processing.recipient)}</span>
              </p>
            ) : null}
            <div className="text-muted-foreground flex flex-wrap items-center gap-x-2 gap-y-1 text-xs">
              <ProcessingStatusBadge status={processing.status} />
              {processing.error ? (
                <span>
                  <ErrorDetails error={processing.error} />
                  {processing.webhookResponseStatusCode ? ` · ${processing.webhookResponseStatusCode}` : null}
                </span>
              ) : null}
              <RelativeTime date={processing.createdAt} />
            </div>
          </div>
          <ProcessingActions emailCallbackId={emailCallbackId} processing={processing} />
        </li>
      ))}
    </ul>
  );
}

function SubjectLink({ emailCallbackId, processing }: { emailCallbackId: string; processing: ApiEmailProcessing }) {
  const t = useTranslations("processing.inbox");
  return (
    // One per row: prefetching every mail's page would compete with the inbox's own requests.
    <Link href={messagePath(emailCallbackId, processing.id)} prefetch={false} className="hover:underline">
      {processing.subject || <span className="text-muted-foreground italic">{t("noSubject")}</span>}
    </Link>
  );
}

function ErrorDetails({ error }: { error: string | null }) {
  const t = useTranslations("processing");
  if (!error) return <span className="text-muted-foreground">—</span>;
  return t.has(`error.${error}` as never) ? t(`error.${error}` as never) : t("error.unknown");
}

function ProcessingActions({ emailCallbackId, processing }: { emailCallbackId: string; processing: ApiEmailProcessing }) {
  const t = useTranslations("processing.inbox.actions");
  const [isAttemptsOpen, setIsAttemptsOpen] = useState(false);
  const menuButton = useRef<HTMLButtonElement>(null);
  const { redeliver, isRedelivering } = useRedeliver(emailCallbackId);
  const trigger = (
    <Button ref={menuButton} variant="ghost" size="icon" className="size-8 shrink-0" aria-label={t("label")}>
      <EllipsisVerticalIcon aria-hidden />
    </Button>
  );
  return (
    <>
      <MenuOnDemand
        trigger={trigger}
        preload={loadProcessingMenuDropdown}
        menu={
          <ProcessingMenuDropdown
            trigger={trigger}
            canRedeliver={processing.status !== PROCESSING_STATUS.PENDING && !isRedelivering}
            onViewAttempts={() => setIsAttemptsOpen(true)}
            onRedeliver={() => void redeliver(processing.id)}
          />
        }
      />
      <DeliveryAttemptsDialog
        emailCallbackId={emailCallbackId}
        processing={processing}
        open={isAttemptsOpen}
        onOpenChange={setIsAttemptsOpen}
        returnFocus={menuButton}
      />
    </>
  );
}
