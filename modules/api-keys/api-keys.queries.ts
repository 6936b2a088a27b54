// Query keys, fetchers and hooks of the user's API keys: the list is
// refetched after a key is created or deleted.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { apiFetch } from "@/modules/shared/api/api-client";
import type { ApiApiKey } from "./api-keys.models";

/** An API key as the API lists it: never its token, only the token's first characters. */
export type ApiKeySummary = ApiApiKey;

export const apiKeysQueryKeys = {
  all: ["api-keys"] as const,
  list: () => [...apiKeysQueryKeys.all, "list"] as const,
};

export async function fetchApiKeys(): Promise<{ apiKeys: ApiKeySummary[] }> {
  return apiFetch<{ apiKeys: ApiKeySummary[] }>("/api/api-keys");
}

/** The token is in this answer only: the server keeps a hash of it. */
export async function createApiKey({ name }: { name: string }): Promise<{ apiKey: ApiKeySummary; token: string }> {
  return apiFetch<{ apiKey: ApiKeySummary; token: string }>("/api/api-keys", { method: "POST", body: { name } });
}

export async function deleteApiKey({ apiKeyId }: { apiKeyId: string }): Promise<void> {
  await apiFetch<null>(`/api/api-keys/${encodeURIComponent(apiKeyId)}`, { method: "DELETE" });
}

export function useApiKeysQuery() {
  return useQuery({ queryKey: apiKeysQueryKeys.list(), queryFn: fetchApiKeys });
}

export function useCreateApiKeyMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createApiKey,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: apiKeysQueryKeys.all }),
  });
}

export function useDeleteApiKeyMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteApiKey,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: apiKeysQueryKeys.all }),
  });
}
