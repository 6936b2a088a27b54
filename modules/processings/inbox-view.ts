// The inbox's view as its URL holds it (?status=&q=&pageIndex=&pageSize=), so that a reload, a
// shared link or the back button shows the same mails. Read leniently: a value the inbox cannot show
// falls back to its default; written with defaults left out.

import { INBOX_SEARCH_MAX_LENGTH, PROCESSING_STATUSES, type ProcessingStatus } from "./processings.constants";
import { DEFAULT_INBOX_PAGE_SIZE, INBOX_PAGE_SIZES, type InboxPageRequest } from "./processings.query-keys";
import type { InboxFilter } from "./processings.schemas";

export type InboxView = InboxPageRequest;

const MAX_PAGE_INDEX = 1_000_000;

export function readInboxView(params: Pick<URLSearchParams, "get">): InboxView {
  const pageIndex = Number(params.get("pageIndex") ?? 0);
  const pageSize = Number(params.get("pageSize") ?? DEFAULT_INBOX_PAGE_SIZE);
  // As the API's schemas read them (processings.schemas.ts), without zod: it stays out of the page's scripts.
  const status = params.get("status");
  const q = params.get("q")?.slice(0, INBOX_SEARCH_MAX_LENGTH).trim();
  return {
    pageIndex: Number.isInteger(pageIndex) && pageIndex >= 0 && pageIndex <= MAX_PAGE_INDEX ? pageIndex : 0,
    pageSize: (INBOX_PAGE_SIZES as readonly number[]).includes(pageSize) ? pageSize : DEFAULT_INBOX_PAGE_SIZE,
    ...(isProcessingStatus(status) ? { status } : {}),
    ...(q ? { q } : {}),
  };
}

const isProcessingStatus = (value: string | null): value is ProcessingStatus =>
  (PROCESSING_STATUSES as readonly (string | null)[]).includes(value);

/** The query string of a view (without "?"), empty for the default view. */
export function writeInboxView({ pageIndex, pageSize, status, q }: InboxView): string {
  const params = new URLSearchParams();
  if (status) params.set("status", status);
  if (q) params.set("q", q);
  if (pageIndex > 0) params.set("pageIndex", String(pageIndex));
  if (pageSize !== DEFAULT_INBOX_PAGE_SIZE) params.set("pageSize", String(pageSize));
  return params.toString();
}

export const isInboxFiltered = ({ status, q }: InboxFilter) => Boolean(status || q);

/** A page's `searchParams` (Next's record of the query string) as the browser's URLSearchParams reads them. */
export function searchParamsOf(record: Record<string, string | string[] | undefined>): URLSearchParams {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(record)) {
    for (const item of Array.isArray(value) ? value : [value]) if (item !== undefined) params.append(name, item);
  }
  return params;
}
