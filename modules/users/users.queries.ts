// Query keys, fetchers and hooks of the signed-in user's account (GET and PUT /api/users/me).
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { apiFetch } from "@/modules/shared/api/api-client";
import type { ApiUser } from "./users.models";
import type { UpdateUserInput } from "./users.schemas";

export const usersQueryKeys = {
  all: ["users"] as const,
  me: () => [...usersQueryKeys.all, "me"] as const,
};

export async function fetchCurrentUser(): Promise<{ user: ApiUser }> {
  return apiFetch<{ user: ApiUser }>("/api/users/me");
}

/** Changes the fields given, and only those. */
export async function updateCurrentUser(input: UpdateUserInput): Promise<{ user: ApiUser }> {
  return apiFetch<{ user: ApiUser }>("/api/users/me", { method: "PUT", body: input });
}

export function useCurrentUserQuery() {
  return useQuery({ queryKey: usersQueryKeys.me(), queryFn: fetchCurrentUser });
}

export function useUpdateCurrentUserMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateCurrentUser,
    onSuccess: (data) => queryClient.setQueryData(usersQueryKeys.me(), data),
  });
}
