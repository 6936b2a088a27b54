import { getProcessingsRepository, getRateLimitRepository } from "@/modules/processings/processings.dependencies";
import { redeliverProcessingsBodySchema } from "@/modules/processings/processings.schemas";
import { redeliverFailedEmailProcessings } from "@/modules/processings/processings.usecases";
import { withCaller } from "@/modules/server/routes";
import { parseJsonBody } from "@/modules/shared/api/route-handler";

export const dynamic = "force-dynamic";

export const POST = withCaller<{ emailCallbackId: string }>(async ({ request, caller, params, services }) => {
  const input = await parseJsonBody(request, redeliverProcessingsBodySchema);
  const { count } = await redeliverFailedEmailProcessings({
    emailCallbackId: params.emailCallbackId,
    userId: caller.userId,
    input,
    repository: await getProcessingsRepository(services),
    rateLimits: await getRateLimitRepository(services),
    dispatcher: await services.dispatcher(),
  });
  return Response.json({ count }, { status: 202 });
});
