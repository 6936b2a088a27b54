import { getProcessingsRepository, getRateLimitRepository } from "@/modules/processings/processings.dependencies";
import { formatProcessingForApi } from "@/modules/processings/processings.models";
import { redeliverProcessingBodySchema } from "@/modules/processings/processings.schemas";
import { redeliverEmailProcessing } from "@/modules/processings/processings.usecases";
import { withCaller } from "@/modules/server/routes";
import { parseOptionalJsonBody } from "@/modules/shared/api/route-handler";

export const dynamic = "force-dynamic";

type Params = { emailCallbackId: string; processingId: string };

export const POST = withCaller<Params>(async ({ request, caller, params, services }) => {
  const { endpointId } = await parseOptionalJsonBody(request, redeliverProcessingBodySchema);
  const { emailProcessing } = await redeliverEmailProcessing({
    ...params,
    userId: caller.userId,
    endpointId,
    repository: await getProcessingsRepository(services),
    rateLimits: await getRateLimitRepository(services),
    dispatcher: await services.dispatcher(),
  });
  return Response.json({ emailProcessing: formatProcessingForApi(emailProcessing) }, { status: 202 });
});
