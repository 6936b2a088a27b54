import { getDomainDependencies } from "@/modules/domains/domains.dependencies";
import { formatDomainForApi } from "@/modules/domains/domains.models";
import { verifyDomain } from "@/modules/domains/domains.usecases";
import { withCaller } from "@/modules/server/routes";

export const dynamic = "force-dynamic";

export const POST = withCaller<{ domainId: string }>(async ({ params, caller, services }) => {
  const { repository, rules, resolver } = await getDomainDependencies(services);
  const { domain } = await verifyDomain({ id: params.domainId, userId: caller.userId, rules, resolver, repository });
  return Response.json({ domain: formatDomainForApi(domain, rules.mxHostname) });
});
