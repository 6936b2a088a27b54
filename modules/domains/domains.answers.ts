// What the API answers to GET /api/domains: the route handler sends it, and the Domains page's first
// render on the server starts from the very same value (docs/architecture.md: The first render).
import { getDomainDependencies } from "./domains.dependencies";
import { type ApiDomain, formatDomainForApi } from "./domains.models";
import { listDomains } from "./domains.usecases";

type ReadServices = Parameters<typeof getDomainDependencies>[0];

/** The owner's domains, newest first, each with the two records to set. */
export async function answerDomainList({
  userId,
  services,
}: {
  userId: string;
  services: ReadServices;
}): Promise<{ domains: ApiDomain[] }> {
  const { repository, rules } = await getDomainDependencies(services);
  const { domains } = await listDomains({ userId, repository });
  return { domains: domains.map((domain) => formatDomainForApi(domain, rules.mxHostname)) };
}
