import { withCaller } from "@/modules/auth/with-caller";
import { getDeliveryDispatcher } from "@/modules/delivery/delivery-dispatcher";
import { getProcessingsRepository, getRateLimitRepository } from "@/modules/processings/processings.dependencies";
import { formatProcessingForApi } from "@/modules/processings/processings.models";
import { redeliverEmailProcessing } from "@/modules/processings/processings.usecases";

export const dynamic = "force-dynamic";

type Params = { emailCallbackId: string; processingId: string };

export const POST = withCaller<Params>(async ({ caller, params }) => {
  const { emailProcessing } = await redeliverEmailProcessing({
    ...params,
    userId: caller.userId,
    repository: await getProcessingsRepository(),
    rateLimits: await getRateLimitRepository(),
    dispatcher: getDeliveryDispatcher(),
  });
  return Response.json({ emailProcessing: formatProcessingForApi(emailProcessing) }, { status: 202 });
});
