import { getProcessingsRepository, getRateLimitRepository } from "@/modules/processings/processings.dependencies";
import { formatProcessingForApi } from "@/modules/processings/processings.models";
import { redeliverEmailProcessing } from "@/modules/processings/processings.usecases";
import { withCaller } from "@/modules/server/routes";

export const dynamic = "force-dynamic";

type Params = { emailCallbackId: string; processingId: string };

export const POST = withCaller<Params>(async ({ caller, params, services }) => {
  const { emailProcessing } = await redeliverEmailProcessing({
    ...params,
    userId: caller.userId,
    repository: await getProcessingsRepository(services),
    rateLimits: await getRateLimitRepository(services),
    dispatcher: await services.dispatcher(),
  });
  return Response.json({ emailProcessing: formatProcessingForApi(emailProcessing) }, { status: 202 });
});
