// Query keys, fetchers and hooks of the user's domains (docs/domains.md): the list is refetched after
// a domain is added, checked or deleted; "where would this address go?" asks the API each time.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { apiFetch } from "@/modules/shared/api/api-client";
import type { ApiDomain } from "./domains.models";
import { domainQueryKeys } from "./domains.query-keys";

/** The answer of GET /api/domains/route (docs/domains.md: Where would this address go?). */
export type DomainRouteAnswer = {
  recipient: string;
  match: "exact" | "pattern" | "catch-all" | null;
  emailCallback: { id: string; username: string; domain: string } | null;
  reason: null | "unknown-domain" | "unverified-domain" | "no-address" | "disabled";
};

const domainPath = (domainId: string) => `/api/domains/${encodeURIComponent(domainId)}`;

export async function fetchDomains(): Promise<{ domains: ApiDomain[] }> {
  return apiFetch<{ domains: ApiDomain[] }>("/api/domains");
}

export async function addDomain({ name }: { name: string }): Promise<{ domain: ApiDomain }> {
  return apiFetch<{ domain: ApiDomain }>("/api/domains", { method: "POST", body: { name } });
}

/** Checks the domain's records now; the answer is the domain as the check left it. */
export async function verifyDomain({ domainId }: { domainId: string }): Promise<{ domain: ApiDomain }> {
  return apiFetch<{ domain: ApiDomain }>(`${domainPath(domainId)}/verify`, { method: "POST" });
}

export async function deleteDomain({ domainId }: { domainId: string }): Promise<void> {
  await apiFetch<null>(domainPath(domainId), { method: "DELETE" });
}

export async function fetchDomainRoute({ to }: { to: string }): Promise<DomainRouteAnswer> {
  return apiFetch<DomainRouteAnswer>(`/api/domains/route?${new URLSearchParams({ to })}`);
}

export function useDomainsQuery() {
  return useQuery({ queryKey: domainQueryKeys.list(), queryFn: fetchDomains });
}

export function useAddDomainMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: addDomain,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: domainQueryKeys.all }),
  });
}

/** The checked domain replaces its row in the list at once, before the list is refetched. */
export function useVerifyDomainMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: verifyDomain,
    onSuccess: ({ domain }) => {
      queryClient.setQueryData<{ domains: ApiDomain[] }>(domainQueryKeys.list(), (list) =>
        list ? { domains: list.domains.map((each) => (each.id === domain.id ? domain : each)) } : list,
      );
      return queryClient.invalidateQueries({ queryKey: domainQueryKeys.all });
    },
  });
}

export function useDeleteDomainMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteDomain,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: domainQueryKeys.all }),
  });
}

/** A question, not a cached read: each submit asks again (the user's addresses may have changed). */
export function useDomainRouteMutation() {
  return useMutation({ mutationFn: fetchDomainRoute });
}
