// Query keys, fetchers and hooks of email callbacks. After every change the callback list is
// refetched; an updated callback also replaces its cached detail.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { apiFetch } from "@/modules/shared/api/api-client";
import type { ApiEmailCallback } from "./email-callbacks.models";
import { emailCallbackQueryKeys } from "./email-callbacks.query-keys";
import type { CreateEmailCallbackInput, UpdateEmailCallbackInput } from "./email-callbacks.schemas";

const emailCallbackPath = (emailCallbackId: string) => `/api/email-callbacks/${encodeURIComponent(emailCallbackId)}`;

/** The user's addresses and how many their plan allows. */
export type EmailCallbackList = { emailCallbacks: ApiEmailCallback[]; maxEmailCallbacks: number };

export async function fetchEmailCallbacks(): Promise<EmailCallbackList> {
  return apiFetch<EmailCallbackList>("/api/email-callbacks");
}

export async function fetchEmailCallback(emailCallbackId: string): Promise<ApiEmailCallback> {
  const { emailCallback } = await apiFetch<{ emailCallback: ApiEmailCallback }>(emailCallbackPath(emailCallbackId));
  return emailCallback;
}

export function useEmailCallbacks() {
  return useQuery({ queryKey: emailCallbackQueryKeys.list(), queryFn: fetchEmailCallbacks });
}

export function useEmailCallback(emailCallbackId: string) {
  const queryClient = useQueryClient();
  return useQuery({
    queryKey: emailCallbackQueryKeys.detail(emailCallbackId),
    queryFn: () => fetchEmailCallback(emailCallbackId),
    // Shown at once when coming from the list; refetched in the background.
    placeholderData: () =>
      queryClient
        .getQueryData<EmailCallbackList>(emailCallbackQueryKeys.list())
        ?.emailCallbacks.find((emailCallback) => emailCallback.id === emailCallbackId),
  });
}

/** Creates (POST) or updates (PUT) an address; the answer is the address as stored. */
async function saveEmailCallback(
  path: string,
  method: "POST" | "PUT",
  body: CreateEmailCallbackInput | UpdateEmailCallbackInput,
) {
  const { emailCallback } = await apiFetch<{ emailCallback: ApiEmailCallback }>(path, { method, body });
  return emailCallback;
}

/** After a create or an update: the detail cache holds the answer, and the list is fetched again. */
function useStoreEmailCallback() {
  const queryClient = useQueryClient();
  return async (emailCallback: ApiEmailCallback) => {
    queryClient.setQueryData(emailCallbackQueryKeys.detail(emailCallback.id), emailCallback);
    await queryClient.invalidateQueries({ queryKey: emailCallbackQueryKeys.list() });
  };
}

export function useCreateEmailCallback() {
  const storeEmailCallback = useStoreEmailCallback();
  return useMutation({
    mutationFn: (input: CreateEmailCallbackInput) => saveEmailCallback("/api/email-callbacks", "POST", input),
    onSuccess: storeEmailCallback,
  });
}

export function useUpdateEmailCallback() {
  const storeEmailCallback = useStoreEmailCallback();
  return useMutation({
    mutationFn: ({ emailCallbackId, input }: { emailCallbackId: string; input: UpdateEmailCallbackInput }) =>
      saveEmailCallback(emailCallbackPath(emailCallbackId), "PUT", input),
    onSuccess: storeEmailCallback,
  });
}

export function useDeleteEmailCallback() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (emailCallbackId: string) => {
      await apiFetch<null>(emailCallbackPath(emailCallbackId), { method: "DELETE" });
      return emailCallbackId;
    },
    onSuccess: async (emailCallbackId) => {
      queryClient.removeQueries({ queryKey: emailCallbackQueryKeys.detail(emailCallbackId) });
      await queryClient.invalidateQueries({ queryKey: emailCallbackQueryKeys.list() });
    },
  });
}
