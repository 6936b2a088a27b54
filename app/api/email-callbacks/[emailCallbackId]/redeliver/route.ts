import { withCaller } from "@/modules/auth/with-caller";
import { getDeliveryDispatcher } from "@/modules/delivery/delivery-dispatcher";
import { getProcessingsRepository, getRateLimitRepository } from "@/modules/processings/processings.dependencies";
import { redeliverProcessingsBodySchema } from "@/modules/processings/processings.schemas";
import { redeliverFailedEmailProcessings } from "@/modules/processings/processings.usecases";
import { parseJsonBody } from "@/modules/shared/api/route-handler";

export const dynamic = "force-dynamic";

export const POST = withCaller<{ emailCallbackId: string }>(async ({ request, caller, params }) => {
  const input = await parseJsonBody(request, redeliverProcessingsBodySchema);
  const { count } = await redeliverFailedEmailProcessings({
    emailCallbackId: params.emailCallbackId,
    userId: caller.userId,
    input,
    repository: await getProcessingsRepository(),
    rateLimits: await getRateLimitRepository(),
    dispatcher: getDeliveryDispatcher(),
  });
  return Response.json({ count }, { status: 202 });
});
