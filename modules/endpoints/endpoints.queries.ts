// Fetchers and hooks of an address's endpoints (docs/webhooks.md: Endpoints). After every change the
// list is fetched again, and so is the address: its webhookUrl / webhookSecret are its first
// endpoint's.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { emailCallbackQueryKeys } from "@/modules/email-callbacks/email-callbacks.query-keys";
import { apiFetch } from "@/modules/shared/api/api-client";
import type { ApiEndpoint } from "./endpoints.models";
import { endpointQueryKeys } from "./endpoints.query-keys";
import type { CreateEndpointInput, UpdateEndpointInput } from "./endpoints.schemas";

const endpointsPath = (emailCallbackId: string) => `/api/email-callbacks/${encodeURIComponent(emailCallbackId)}/endpoints`;
const endpointPath = (emailCallbackId: string, endpointId: string) =>
  `${endpointsPath(emailCallbackId)}/${encodeURIComponent(endpointId)}`;

async function fetchEndpoints(emailCallbackId: string): Promise<ApiEndpoint[]> {
  const { endpoints } = await apiFetch<{ endpoints: ApiEndpoint[] }>(endpointsPath(emailCallbackId));
  return endpoints;
}

/** The address's endpoints, in creation order. */
export function useEndpoints(emailCallbackId: string) {
  return useQuery({ queryKey: endpointQueryKeys.list(emailCallbackId), queryFn: () => fetchEndpoints(emailCallbackId) });
}

function useRefreshEndpoints() {
  const queryClient = useQueryClient();
  return async (emailCallbackId: string) => {
    await Promise.all([
      queryClient.invalidateQueries({ queryKey: endpointQueryKeys.list(emailCallbackId) }),
      queryClient.invalidateQueries({ queryKey: emailCallbackQueryKeys.detail(emailCallbackId) }),
      queryClient.invalidateQueries({ queryKey: emailCallbackQueryKeys.list() }),
    ]);
  };
}

/** Adds an endpoint; the answer holds an HMAC secret in full, once. */
export function useCreateEndpoint(emailCallbackId: string) {
  const refresh = useRefreshEndpoints();
  return useMutation({
    mutationFn: async (input: CreateEndpointInput) => {
      const { endpoint } = await apiFetch<{ endpoint: ApiEndpoint }>(endpointsPath(emailCallbackId), {
        method: "POST",
        body: input,
      });
      return endpoint;
    },
    onSuccess: () => refresh(emailCallbackId),
  });
}

/** A partial update; the answer holds an HMAC secret in full when this call set it. */
export function useUpdateEndpoint(emailCallbackId: string) {
  const refresh = useRefreshEndpoints();
  return useMutation({
    mutationFn: async ({ endpointId, input }: { endpointId: string; input: UpdateEndpointInput }) => {
      const path = endpointPath(emailCallbackId, endpointId);
      const { endpoint } = await apiFetch<{ endpoint: ApiEndpoint }>(path, { method: "PUT", body: input });
      return endpoint;
    },
    onSuccess: () => refresh(emailCallbackId),
  });
}

export function useDeleteEndpoint(emailCallbackId: string) {
  const refresh = useRefreshEndpoints();
  return useMutation({
    mutationFn: (endpointId: string) => apiFetch<null>(endpointPath(emailCallbackId, endpointId), { method: "DELETE" }),
    onSuccess: () => refresh(emailCallbackId),
  });
}
