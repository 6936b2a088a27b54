// The inbox's view as its URL holds it (?status=&q=&pageIndex=&pageSize=), so that a reload, a
// shared link or the back button shows the same mails. Read leniently: a value the inbox cannot show
// falls back to its default; written with defaults left out.

import { DEFAULT_INBOX_PAGE_SIZE, INBOX_PAGE_SIZES, type InboxPageRequest } from "./processings.queries";
import { INBOX_SEARCH_MAX_LENGTH, type InboxFilter, inboxSearchSchema, inboxStatusFilterSchema } from "./processings.schemas";

export type InboxView = InboxPageRequest;

const MAX_PAGE_INDEX = 1_000_000;

export function readInboxView(params: Pick<URLSearchParams, "get">): InboxView {
  const pageIndex = Number(params.get("pageIndex") ?? 0);
  const pageSize = Number(params.get("pageSize") ?? DEFAULT_INBOX_PAGE_SIZE);
  const status = inboxStatusFilterSchema.safeParse(params.get("status") ?? undefined);
  const q = inboxSearchSchema.safeParse(params.get("q")?.slice(0, INBOX_SEARCH_MAX_LENGTH) ?? undefined);
  return {
    pageIndex: Number.isInteger(pageIndex) && pageIndex >= 0 && pageIndex <= MAX_PAGE_INDEX ? pageIndex : 0,
    pageSize: (INBOX_PAGE_SIZES as readonly number[]).includes(pageSize) ? pageSize : DEFAULT_INBOX_PAGE_SIZE,
    ...(status.success && status.data ? { status: status.data } : {}),
    ...(q.success && q.data ? { q: q.data } : {}),
  };
}

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
