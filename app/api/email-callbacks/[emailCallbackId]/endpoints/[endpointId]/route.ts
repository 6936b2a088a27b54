import { getEndpointDependencies } from "@/modules/endpoints/endpoints.dependencies";
import { updateEndpointSchema } from "@/modules/endpoints/endpoints.schemas";
import { deleteEndpoint, updateEndpoint } from "@/modules/endpoints/endpoints.usecases";
import { withCaller } from "@/modules/server/routes";
import { parseJsonBody } from "@/modules/shared/api/route-handler";

export const dynamic = "force-dynamic";

type Params = { emailCallbackId: string; endpointId: string };

export const PUT = withCaller<Params>(async ({ request, caller, params, services }) => {
  const input = await parseJsonBody(request, updateEndpointSchema);
  const { repository, rules, toApi } = await getEndpointDependencies(services);
  const owner = { userId: caller.userId, planId: caller.user.planId };
  const updated = await updateEndpoint({ ...params, caller: owner, input, rules, repository });
  return Response.json({ endpoint: toApi(updated) });
});

export const DELETE = withCaller<Params>(async ({ caller, params, services }) => {
  const { repository } = await getEndpointDependencies(services);
  const owner = { userId: caller.userId, planId: caller.user.planId };
  await deleteEndpoint({ ...params, caller: owner, repository });
  return new Response(null, { status: 204 });
});
