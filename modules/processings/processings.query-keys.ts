// The query keys of an inbox's pages and of a mail, and the inbox's page sizes: what the browser's
// query hooks (processings.queries.ts) and a page's first render on the server
// (docs/architecture.md: The first render) must agree on, with nothing of React in it.
import { PROCESSING_STATUS } from "./processings.constants";
import type { InboxFilter } from "./processings.schemas";

export const INBOX_PAGE_SIZES = [15, 50, 100] as const;
export const DEFAULT_INBOX_PAGE_SIZE = INBOX_PAGE_SIZES[0];

/** One page of the inbox, filtered or not; `pageIndex` is zero-based. */
export type InboxPageRequest = InboxFilter & { pageIndex: number; pageSize: number };

export const processingQueryKeys = {
  all: ["email-processings"] as const,
  ofEmailCallback: (emailCallbackId: string) => [...processingQueryKeys.all, emailCallbackId] as const,
  page: (emailCallbackId: string, page: InboxPageRequest) =>
    [...processingQueryKeys.ofEmailCallback(emailCallbackId), { ...page }] as const,
  detail: (emailCallbackId: string, processingId: string) =>
    [...processingQueryKeys.ofEmailCallback(emailCallbackId), "detail", processingId] as const,
  attempts: (emailCallbackId: string, processingId: string) =>
    [...processingQueryKeys.ofEmailCallback(emailCallbackId), "attempts", processingId] as const,
};

/** The inbox page whose count is how many of the address's mails failed (status error). */
export const FAILED_COUNT_PAGE: InboxPageRequest = { pageIndex: 0, pageSize: 1, status: PROCESSING_STATUS.ERROR };
