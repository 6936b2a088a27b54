import { answerDomainList } from "@/modules/domains/domains.answers";
import { getDomainDependencies } from "@/modules/domains/domains.dependencies";
import { formatDomainForApi } from "@/modules/domains/domains.models";
import { createDomainSchema } from "@/modules/domains/domains.schemas";
import { createDomain } from "@/modules/domains/domains.usecases";
import { withCaller } from "@/modules/server/routes";
import { parseJsonBody } from "@/modules/shared/api/route-handler";

export const dynamic = "force-dynamic";

export const GET = withCaller(async ({ caller, services }) => {
  return Response.json(await answerDomainList({ userId: caller.userId, services }));
});

export const POST = withCaller(async ({ request, caller, services }) => {
  const input = await parseJsonBody(request, createDomainSchema);
  const { repository, rules } = await getDomainDependencies(services);
  const owner = { userId: caller.userId, planId: caller.user.planId };
  const { domain } = await createDomain({ owner, input, rules, repository });
  return Response.json({ domain: formatDomainForApi(domain, rules.mxHostname) }, { status: 201 });
});
