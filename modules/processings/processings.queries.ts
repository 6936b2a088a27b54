// Query keys, fetcher and hook of an email callback's inbox (its processings), page by page.
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { apiFetch } from "@/modules/shared/api/api-client";
import type { ApiProcessingsPage } from "./processings.models";

export const INBOX_PAGE_SIZES = [15, 50, 100] as const;
export const DEFAULT_INBOX_PAGE_SIZE = INBOX_PAGE_SIZES[0];
/** The inbox refreshes itself so new mail and pending deliveries show up without a reload. */
const INBOX_REFRESH_INTERVAL_MS = 15_000;

export const processingQueryKeys = {
  all: ["email-processings"] as const,
  ofEmailCallback: (emailCallbackId: string) => [...processingQueryKeys.all, emailCallbackId] as const,
  page: (emailCallbackId: string, pageIndex: number, pageSize: number) =>
    [...processingQueryKeys.ofEmailCallback(emailCallbackId), { pageIndex, pageSize }] as const,
};

export async function fetchEmailProcessings({
  emailCallbackId,
  pageIndex,
  pageSize,
}: {
  emailCallbackId: string;
  pageIndex: number;
  pageSize: number;
}): Promise<ApiProcessingsPage> {
  const query = new URLSearchParams({ pageIndex: String(pageIndex), pageSize: String(pageSize) });
  return apiFetch<ApiProcessingsPage>(
    `/api/email-callbacks/${encodeURIComponent(emailCallbackId)}/processings?${query.toString()}`,
  );
}

/** `pageIndex` is zero-based. */
export function useEmailProcessings(emailCallbackId: string, pageIndex: number, pageSize: number) {
  return useQuery({
    queryKey: processingQueryKeys.page(emailCallbackId, pageIndex, pageSize),
    queryFn: () => fetchEmailProcessings({ emailCallbackId, pageIndex, pageSize }),
    placeholderData: keepPreviousData,
    refetchInterval: INBOX_REFRESH_INTERVAL_MS,
  });
}
