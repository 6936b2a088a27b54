// Query keys, fetchers and hooks of an email callback's inbox (its processings), page by page and
// filtered, of a processing's delivery attempts, and of redelivering a processing (or every failed
// one) and sending a test mail.
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { apiFetch } from "@/modules/shared/api/api-client";
import { useIsInboxLive } from "./live-inbox";
import { PROCESSING_STATUS } from "./processings.constants";
import type {
  ApiDeliveryAttempt,
  ApiEmailProcessing,
  ApiEmailProcessingDetail,
  ApiProcessingDelivery,
  ApiProcessingsPage,
} from "./processings.models";
import { FAILED_COUNT_PAGE, type InboxPageRequest, processingQueryKeys } from "./processings.query-keys";

/**
 * Without a live events stream (live-inbox.ts), the inbox polls so new mail and pending deliveries
 * still show up without a reload.
 */
const INBOX_REFRESH_INTERVAL_MS = 15_000;
/** While a row shows pending, its outcome usually follows within seconds: poll sooner. */
const INBOX_PENDING_REFRESH_INTERVAL_MS = 3_000;

const processingPath = (emailCallbackId: string, processingId: string) =>
  `/api/email-callbacks/${encodeURIComponent(emailCallbackId)}/processings/${encodeURIComponent(processingId)}`;

/** Where the message as received is downloaded (a session's GET). */
export const rawMessagePath = (emailCallbackId: string, processingId: string) =>
  `${processingPath(emailCallbackId, processingId)}/raw`;

/** Where the webhook body sent is downloaded, byte for byte. */
export const webhookBodyPath = (emailCallbackId: string, processingId: string) =>
  `${processingPath(emailCallbackId, processingId)}/webhook-body`;

/** What the message page reads: the row, and the body sent, shortened when large (its attachments' content left out). */
export type EmailProcessingDetailAnswer = {
  emailProcessing: ApiEmailProcessingDetail;
  /** The mail's delivery to each endpoint, in the endpoints' creation order. */
  deliveries: ApiProcessingDelivery[];
  webhookBody: string | null;
  webhookBodyBytes: number | null;
  isWebhookBodyShortened: boolean;
};

/** Where one attachment is downloaded, by its place in the webhook body's list. */
export const attachmentPath = (emailCallbackId: string, processingId: string, index: number) =>
  `${processingPath(emailCallbackId, processingId)}/attachments/${index}`;

export function useEmailProcessing(emailCallbackId: string, processingId: string) {
  const isLive = useIsInboxLive(emailCallbackId);
  return useQuery({
    queryKey: processingQueryKeys.detail(emailCallbackId, processingId),
    queryFn: () =>
      apiFetch<EmailProcessingDetailAnswer>(`${processingPath(emailCallbackId, processingId)}?webhookBody=shortened`),
    // While the mail is pending, its outcome usually follows within seconds.
    refetchInterval: (query) =>
      !isLive && query.state.data?.emailProcessing.status === "pending" ? INBOX_PENDING_REFRESH_INTERVAL_MS : false,
  });
}

export async function fetchEmailProcessings({
  emailCallbackId,
  pageIndex,
  pageSize,
  status,
  q,
}: InboxPageRequest & { emailCallbackId: string }): Promise<ApiProcessingsPage> {
  const query = new URLSearchParams({ pageIndex: String(pageIndex), pageSize: String(pageSize) });
  if (status) query.set("status", status);
  if (q) query.set("q", q);
  return apiFetch<ApiProcessingsPage>(
    `/api/email-callbacks/${encodeURIComponent(emailCallbackId)}/processings?${query.toString()}`,
  );
}

export function useEmailProcessings(emailCallbackId: string, page: InboxPageRequest) {
  const isLive = useIsInboxLive(emailCallbackId);
  return useQuery({
    queryKey: processingQueryKeys.page(emailCallbackId, page),
    queryFn: () => fetchEmailProcessings({ emailCallbackId, ...page }),
    placeholderData: keepPreviousData,
    refetchInterval: (query) => {
      if (isLive) return false;
      return query.state.data?.emailProcessings.some((processing) => processing.status === PROCESSING_STATUS.PENDING)
        ? INBOX_PENDING_REFRESH_INTERVAL_MS
        : INBOX_REFRESH_INTERVAL_MS;
    },
  });
}

/** How many of the address's mails failed (status error), refreshed like the inbox. */
export function useFailedProcessingsCount(emailCallbackId: string) {
  const page = FAILED_COUNT_PAGE;
  const isLive = useIsInboxLive(emailCallbackId);
  return useQuery({
    queryKey: processingQueryKeys.page(emailCallbackId, page),
    queryFn: () => fetchEmailProcessings({ emailCallbackId, ...page }),
    select: (data) => data.emailProcessingsCount,
    refetchInterval: isLive ? false : INBOX_REFRESH_INTERVAL_MS,
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
  const isLive = useIsInboxLive(emailCallbackId);
  return useQuery({
    queryKey: processingQueryKeys.attempts(emailCallbackId, processingId),
    queryFn: () => fetchDeliveryAttempts({ emailCallbackId, processingId }),
    enabled: isEnabled,
    refetchInterval: isPending && !isLive ? INBOX_PENDING_REFRESH_INTERVAL_MS : false,
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

/** Starts one endpoint's delivery of a mail again; the inbox (and the mail's deliveries and attempts) are refetched after. */
export function useRedeliverDelivery(emailCallbackId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ processingId, endpointId }: { processingId: string; endpointId: string }) => {
      const { emailProcessing } = await apiFetch<{ emailProcessing: ApiEmailProcessing }>(
        `${processingPath(emailCallbackId, processingId)}/redeliver`,
        { method: "POST", body: { endpointId } },
      );
      return emailProcessing;
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: processingQueryKeys.ofEmailCallback(emailCallbackId) }),
  });
}

/** Starts a new attempt series for every failed mail of the address; the inbox is refetched after. */
export function useRedeliverFailedProcessings(emailCallbackId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () =>
      apiFetch<{ count: number }>(`/api/email-callbacks/${encodeURIComponent(emailCallbackId)}/redeliver`, {
        method: "POST",
        body: { status: PROCESSING_STATUS.ERROR },
      }),
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
