"use client";
import { EllipsisVerticalIcon, HistoryIcon, InboxIcon, RotateCwIcon } from "lucide-react";
import Link from "next/link";
import { useTranslations } from "next-intl";
import { useEffect, useRef, useState } from "react";
import { Button } from "@/components/ui/button";
import { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuTrigger } from "@/components/ui/dropdown-menu";
import { Skeleton } from "@/components/ui/skeleton";
import { Table, TableBody, TableCaption, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { useEmailCallback } from "@/modules/email-callbacks/email-callbacks.queries";
import { messagePath } from "@/modules/shared/app-paths";
import { DataTablePagination, getPageCount } from "@/modules/shared/components/data-table-pagination";
// The Inbox tab of an email callback: every mail received at the
// address, newest first, page by page, with its status, why it failed, and when it arrived. Each
// row's menu opens its delivery attempts and redelivers it.
import { EmptyState } from "@/modules/shared/components/empty-state";
import { LoadError } from "@/modules/shared/components/load-error";
import { RelativeTime } from "@/modules/shared/components/relative-time";
import { PROCESSING_STATUS } from "../processings.constants";
import type { ApiEmailProcessing } from "../processings.models";
import { DEFAULT_INBOX_PAGE_SIZE, INBOX_PAGE_SIZES, useEmailProcessings } from "../processings.queries";
import { DeliveryAttemptsDialog } from "./delivery-attempts-dialog";
import { ProcessingStatusBadge } from "./processing-status-badge";
import { useRedeliver } from "./use-redeliver";

export function EmailCallbackInbox({ emailCallbackId }: { emailCallbackId: string }) {
  const t = useTranslations("processing.inbox");
  const [pageIndex, setPageIndex] = useState(0);
  const [pageSize, setPageSize] = useState<number>(DEFAULT_INBOX_PAGE_SIZE);
  const { data: emailCallback } = useEmailCallback(emailCallbackId);
  const query = useEmailProcessings(emailCallbackId, pageIndex, pageSize);
  const totalCount = query.data?.emailProcessingsCount ?? 0;
  const pageCount = getPageCount(totalCount, pageSize);

  // Mail expires: when the page shown no longer exists, show the last one.
  useEffect(() => {
    if (query.data && pageIndex > pageCount - 1) setPageIndex(pageCount - 1);
  }, [query.data, pageIndex, pageCount]);

  if (query.isPending) return <InboxSkeleton />;
  if (query.isError) return <LoadError message={t("loadError")} onRetry={() => query.refetch()} />;
  if (totalCount === 0) return <EmptyInbox address={emailCallback?.address ?? ""} />;

  return (
    <div className="flex flex-col gap-4">
      <div className="rounded-xl border">
        <Table className="min-w-[56rem]">
          <TableCaption className="sr-only">{t("caption", { address: emailCallback?.address ?? "" })}</TableCaption>
          <TableHeader>
            <TableRow className="hover:bg-transparent">
              <TableHead className="w-[24%] pl-4">{t("columns.from")}</TableHead>
              <TableHead className="w-[30%]">{t("columns.subject")}</TableHead>
              <TableHead>{t("columns.status")}</TableHead>
              <TableHead>{t("columns.details")}</TableHead>
              <TableHead className="min-w-36 text-right leading-tight whitespace-normal">
                {t("columns.webhookStatusCode")}
              </TableHead>
              <TableHead className="text-right">{t("columns.receivedAt")}</TableHead>
              <TableHead className="w-12 pr-2">
                <span className="sr-only">{t("columns.actions")}</span>
              </TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {query.data.emailProcessings.map((processing) => (
              <ProcessingRow key={processing.id} emailCallbackId={emailCallbackId} processing={processing} />
            ))}
          </TableBody>
        </Table>
      </div>
      {totalCount > pageSize ? (
        <DataTablePagination
          pageIndex={pageIndex}
          pageSize={pageSize}
          totalCount={totalCount}
          pageSizeOptions={INBOX_PAGE_SIZES}
          onPageIndexChange={setPageIndex}
          onPageSizeChange={(nextPageSize) => {
            setPageSize(nextPageSize);
            setPageIndex(0);
          }}
        />
      ) : null}
    </div>
  );
}

function ProcessingRow({ emailCallbackId, processing }: { emailCallbackId: string; processing: ApiEmailProcessing }) {
  const t = useTranslations("processing");
  const none = <span className="text-muted-foreground">—</span>;
  return (
    <TableRow>
      {/* max-w-0 lets these two columns share the width left by the others, truncating their text. */}
      <TableCell className="max-w-0 truncate pl-4" title={processing.fromAddress}>
        {processing.fromAddress}
      </TableCell>
      <TableCell className="max-w-0 truncate" title={processing.subject}>
        <Link href={messagePath(emailCallbackId, processing.id)} className="hover:underline">
          {processing.subject || <span className="text-muted-foreground italic">{t("inbox.noSubject")}</span>}
        </Link>
      </TableCell>
      <TableCell>
        <ProcessingStatusBadge status={processing.status} />
      </TableCell>
      <TableCell className="text-muted-foreground">
        {processing.error
          ? t.has(`error.${processing.error}` as never)
            ? t(`error.${processing.error}` as never)
            : t("error.unknown")
          : none}
      </TableCell>
      <TableCell className="text-right tabular-nums">{processing.webhookResponseStatusCode ?? none}</TableCell>
      <TableCell className="text-muted-foreground text-right">
        <RelativeTime date={processing.createdAt} />
      </TableCell>
      <TableCell className="pr-2 text-right">
        <ProcessingActions emailCallbackId={emailCallbackId} processing={processing} />
      </TableCell>
    </TableRow>
  );
}

function ProcessingActions({ emailCallbackId, processing }: { emailCallbackId: string; processing: ApiEmailProcessing }) {
  const t = useTranslations("processing.inbox.actions");
  const [isAttemptsOpen, setIsAttemptsOpen] = useState(false);
  const menuButton = useRef<HTMLButtonElement>(null);
  const { redeliver, isRedelivering } = useRedeliver(emailCallbackId);
  return (
    <>
      <DropdownMenu>
        <DropdownMenuTrigger asChild>
          <Button ref={menuButton} variant="ghost" size="icon" className="size-8" aria-label={t("label")}>
            <EllipsisVerticalIcon aria-hidden />
          </Button>
        </DropdownMenuTrigger>
        <DropdownMenuContent align="end" className="w-52">
          <DropdownMenuItem onSelect={() => setIsAttemptsOpen(true)}>
            <HistoryIcon aria-hidden />
            {t("viewAttempts")}
          </DropdownMenuItem>
          <DropdownMenuItem
            disabled={processing.status === PROCESSING_STATUS.PENDING || isRedelivering}
            onSelect={() => void redeliver(processing.id)}
          >
            <RotateCwIcon aria-hidden />
            {t("redeliver")}
          </DropdownMenuItem>
        </DropdownMenuContent>
      </DropdownMenu>
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

function EmptyInbox({ address }: { address: string }) {
  const t = useTranslations("processing.inbox");
  return (
    <EmptyState
      icon={InboxIcon}
      headingLevel={2}
      title={t("emptyTitle")}
      description={t.rich("emptyDescription", {
        address,
        strong: (chunks) => <strong className="text-foreground font-medium break-all">{chunks}</strong>,
      })}
    />
  );
}

function InboxSkeleton() {
  const t = useTranslations("common");
  return (
    <div className="flex flex-col gap-3 rounded-xl border p-4" role="status" aria-busy="true" aria-label={t("loading")}>
      {[0, 1, 2, 3, 4].map((index) => (
        <Skeleton key={index} className="h-8 w-full" />
      ))}
    </div>
  );
}
