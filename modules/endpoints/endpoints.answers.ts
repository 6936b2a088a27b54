// What the API answers to GET /api/email-callbacks/{id}/endpoints: the route handler sends it, and the
// address settings' first render on the server starts from the very same value (docs/architecture.md:
// The first render).
import { getEndpointDependencies } from "./endpoints.dependencies";
import type { ApiEndpoint } from "./endpoints.models";
import { listEndpoints } from "./endpoints.usecases";

type ReadServices = Parameters<typeof getEndpointDependencies>[0];

/** The address's endpoints, in creation order, secrets masked. */
export async function answerEndpointList({
  emailCallbackId,
  caller,
  services,
}: {
  emailCallbackId: string;
  caller: { userId: string; planId: string };
  services: ReadServices;
}): Promise<ApiEndpoint[]> {
  const { repository, toApi } = await getEndpointDependencies(services);
  const endpoints = await listEndpoints({ emailCallbackId, caller, repository });
  return endpoints.map((endpoint) => toApi({ endpoint, revealsSecret: false }));
}
