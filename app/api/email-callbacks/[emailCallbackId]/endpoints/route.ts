import { answerEndpointList } from "@/modules/endpoints/endpoints.answers";
import { getEndpointDependencies } from "@/modules/endpoints/endpoints.dependencies";
import { createEndpointSchema } from "@/modules/endpoints/endpoints.schemas";
import { createEndpoint } from "@/modules/endpoints/endpoints.usecases";
import { withCaller } from "@/modules/server/routes";
import { parseJsonBody } from "@/modules/shared/api/route-handler";

export const dynamic = "force-dynamic";

type Params = { emailCallbackId: string };

export const GET = withCaller<Params>(async ({ caller, params, services }) => {
  const owner = { userId: caller.userId, planId: caller.user.planId };
  const endpoints = await answerEndpointList({ emailCallbackId: params.emailCallbackId, caller: owner, services });
  return Response.json({ endpoints });
});

export const POST = withCaller<Params>(async ({ request, caller, params, services }) => {
  const input = await parseJsonBody(request, createEndpointSchema);
  const { repository, rules, toApi } = await getEndpointDependencies(services);
  const owner = { userId: caller.userId, planId: caller.user.planId };
  const created = await createEndpoint({ emailCallbackId: params.emailCallbackId, caller: owner, input, rules, repository });
  return Response.json({ endpoint: toApi(created) }, { status: 201 });
});
