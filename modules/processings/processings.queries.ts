// Query keys, fetchers and hooks of an email callback's inbox (its processings), page by page, of a
// processing's delivery attempts, and of redelivering a processing and sending a test mail.
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { apiFetch } from "@/modules/shared/api/api-client";
import { PROCESSING_STATUS } from "./processings.constants";
import type { ApiDeliveryAttempt, ApiEmailProcessing, ApiEmailProcessingDetail, ApiProcessingsPage } from "./processings.models";

export const INBOX_PAGE_SIZES = [15, 50, 100] as const;
export const DEFAULT_INBOX_PAGE_SIZE = INBOX_PAGE_SIZES[0];
/** The inbox refreshes itself so new mail and pending deliveries show up without a reload. */
const INBOX_REFRESH_INTERVAL_MS = 15_000;
/** While a row shows pending, its outcome usually follows within seconds: refresh sooner. */
const INBOX_PENDING_REFRESH_INTERVAL_MS = 3_000;

export const processingQueryKeys = {
  all: ["email-processings"] as const,
  ofEmailCallback: (emailCallbackId: string) => [...processingQueryKeys.all, emailCallbackId] as const,
  page: (emailCallbackId: string, pageIndex: number, pageSize: number) =>
    [...processingQueryKeys.ofEmailCallback(emailCallbackId), { pageIndex, pageSize }] as const,
  detail: (emailCallbackId: string, processingId: string) =>
    [...processingQueryKeys.ofEmailCallback(emailCallbackId), "detail", processingId] as const,
  attempts: (emailCallbackId: string, processingId: string) =>
    [...processingQueryKeys.ofEmailCallback(emailCallbackId), "attempts", processingId] as const,
};

const processingPath = (emailCallbackId: string, processingId: string) =>
  `/api/email-callbacks/${encodeURIComponent(emailCallbackId)}/processings/${encodeURIComponent(processingId)}`;

/** Where the message as received is downloaded (a session's GET). */
export const rawMessagePath = (emailCallbackId: string, processingId: string) =>
  `${processingPath(emailCallbackId, processingId)}/raw`;

/** Where one attachment is downloaded, by its place in the webhook body's list. */
export const attachmentPath = (emailCallbackId: string, processingId: string, index: number) =>
  `${processingPath(emailCallbackId, processingId)}/attachments/${index}`;

export function useEmailProcessing(emailCallbackId: string, processingId: string) {
  return useQuery({
    queryKey: processingQueryKeys.detail(emailCallbackId, processingId),
    queryFn: () =>
      apiFetch<{ emailProcessing: ApiEmailProcessingDetail; webhookBody: string | null }>(
        processingPath(emailCallbackId, processingId),
      ),
    // While the mail is pending, its outcome usually follows within seconds.
    refetchInterval: (query) =>
      query.state.data?.emailProcessing.status === "pending" ? INBOX_PENDING_REFRESH_INTERVAL_MS : false,
  });
}

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
    refetchInterval: (query) =>
      query.state.data?.emailProcessings.some((processing) => processing.status === PROCESSING_STATUS.PENDING)
        ? INBOX_PENDING_REFRESH_INTERVAL_MS
        : INBOX_REFRESH_INTERVAL_MS,
  });
}

export async function fetchDeliveryAttempts({
  emailCallbackId,
  processingId,
}: {
  emailCallbackId: string;
  processingId: string;
}): Promise<ApiDeliveryAttempt[]> {
  const { deliveryAttempts } = await apiFetch<{ deliveryAttempts: ApiDeliveryAttempt[] }>(
    `${processingPath(emailCallbackId, processingId)}/attempts`,
  );
  return deliveryAttempts;
}

/**
 * Newest first; fetched only while `isEnabled` (the attempts view is open), and refreshed like the
 * inbox while the processing is pending.
 */
export function useDeliveryAttempts(
  emailCallbackId: string,
  processingId: string,
  { isEnabled, isPending }: { isEnabled: boolean; isPending: boolean },
) {
  return useQuery({
    queryKey: processingQueryKeys.attempts(emailCallbackId, processingId),
    queryFn: () => fetchDeliveryAttempts({ emailCallbackId, processingId }),
    enabled: isEnabled,
    refetchInterval: isPending ? INBOX_PENDING_REFRESH_INTERVAL_MS : false,
  });
}

/** Starts a new attempt series; the inbox (and the processing's attempts) are refetched after. */
export function useRedeliverEmailProcessing(emailCallbackId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (processingId: string) => {
      const { emailProcessing } = await apiFetch<{ emailProcessing: ApiEmailProcessing }>(
        `${processingPath(emailCallbackId, processingId)}/redeliver`,
        { method: "POST" },
      );
      return emailProcessing;
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: processingQueryKeys.ofEmailCallback(emailCallbackId) }),
  });
}

/** Sends a sample message to the address through the inbound pipeline; the inbox is refetched after. */
export function useSendTestMail(emailCallbackId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () =>
      apiFetch<{ accepted: number }>(`/api/email-callbacks/${encodeURIComponent(emailCallbackId)}/test-mail`, {
        method: "POST",
      }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: processingQueryKeys.ofEmailCallback(emailCallbackId) }),
  });
}
