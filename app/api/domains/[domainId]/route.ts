import { getDomainDependencies } from "@/modules/domains/domains.dependencies";
import { formatDomainForApi } from "@/modules/domains/domains.models";
import { deleteDomain, getDomainOrThrow } from "@/modules/domains/domains.usecases";
import { withCaller } from "@/modules/server/routes";

export const dynamic = "force-dynamic";

export const GET = withCaller<{ domainId: string }>(async ({ params, caller, services }) => {
  const { repository, rules } = await getDomainDependencies(services);
  const domain = await getDomainOrThrow({ id: params.domainId, userId: caller.userId, repository });
  return Response.json({ domain: formatDomainForApi(domain, rules.mxHostname) });
});

export const DELETE = withCaller<{ domainId: string }>(async ({ params, caller, services }) => {
  const { repository } = await getDomainDependencies(services);
  await deleteDomain({ id: params.domainId, userId: caller.userId, repository });
  return new Response(null, { status: 204 });
});
