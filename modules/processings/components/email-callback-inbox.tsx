"use client";
// The Inbox tab of an email callback: every mail received at the address, newest first, page by
// page, with its status, why it failed, and when it arrived; filtered by status and by a search over
// sender and subject. The page, its size and the filters live in the URL (a reload or the back
// button shows the same mails). "No mail yet" and "no mail matches" are told apart. New mail and
// delivery outcomes appear as they happen, through the address's events stream.
import { InboxIcon, SearchXIcon } from "lucide-react";
import { useTranslations } from "next-intl";
import { useEffect } from "react";
import { Button } from "@/components/ui/button";
import { Skeleton } from "@/components/ui/skeleton";
import { isWildcardUsername } from "@/modules/email-callbacks/address-patterns";
import { useEmailCallback } from "@/modules/email-callbacks/email-callbacks.queries";
import { cn } from "@/modules/shared/cn";
import { DataTablePagination, getPageCount } from "@/modules/shared/components/data-table-pagination";
import { EmptyState } from "@/modules/shared/components/empty-state";
import { LoadError } from "@/modules/shared/components/load-error";
import { toUnicodeAddress } from "@/modules/shared/domain-names";
import { isInboxFiltered } from "../inbox-view";
import { useEmailProcessings } from "../processings.queries";
import { INBOX_PAGE_SIZES } from "../processings.query-keys";
import { InboxRows } from "./inbox-rows";
import { InboxToolbar } from "./inbox-toolbar";
import { useInboxView } from "./use-inbox-view";
import { useProcessingEvents } from "./use-processing-events";

export function EmailCallbackInbox({ emailCallbackId }: { emailCallbackId: string }) {
  const t = useTranslations("processing.inbox");
  const { view, showView } = useInboxView();
  const { pageIndex, pageSize } = view;
  const { data: emailCallback } = useEmailCallback(emailCallbackId);
  const address = toUnicodeAddress(emailCallback?.address ?? "");
  const showsRecipient = emailCallback ? isWildcardUsername(emailCallback.username) : false;
  useProcessingEvents(emailCallbackId);
  const query = useEmailProcessings(emailCallbackId, view);
  const totalCount = query.data?.emailProcessingsCount ?? 0;
  const pageCount = getPageCount(totalCount, pageSize);
  const isFiltered = isInboxFiltered(view);

  // Mail expires: when the page shown no longer exists, show the last one (once this view's own answer is in).
  useEffect(() => {
    if (query.data && !query.isPlaceholderData && pageIndex > pageCount - 1) {
      showView({ ...view, pageIndex: pageCount - 1 }, { replace: true });
    }
  }, [query.data, query.isPlaceholderData, pageIndex, pageCount, view, showView]);

  if (query.isPending) return <InboxSkeleton />;
  if (query.isError) return <LoadError message={t("loadError")} onRetry={() => query.refetch()} />;
  if (totalCount === 0 && !isFiltered) return <EmptyInbox address={address} />;

  return (
    <div className="flex flex-col gap-4">
      <InboxToolbar emailCallbackId={emailCallbackId} view={view} showView={showView} />
      <div aria-busy={query.isPlaceholderData} className={cn("transition-opacity", query.isPlaceholderData && "opacity-60")}>
        {totalCount === 0 ? (
          <EmptyState
            icon={SearchXIcon}
            headingLevel={2}
            title={t("noMatchTitle")}
            description={t("noMatchDescription")}
            action={
              <Button variant="outline" onClick={() => showView({ pageIndex: 0, pageSize })}>
                {t("filters.clear")}
              </Button>
            }
          />
        ) : (
          <InboxRows
            emailCallbackId={emailCallbackId}
            address={address}
            showsRecipient={showsRecipient}
            processings={query.data.emailProcessings}
          />
        )}
      </div>
      {totalCount > pageSize ? (
        <DataTablePagination
          pageIndex={pageIndex}
          pageSize={pageSize}
          totalCount={totalCount}
          pageSizeOptions={INBOX_PAGE_SIZES}
          onPageIndexChange={(nextPageIndex) => showView({ ...view, pageIndex: nextPageIndex })}
          onPageSizeChange={(nextPageSize) => showView({ ...view, pageSize: nextPageSize, pageIndex: 0 })}
        />
      ) : null}
    </div>
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
