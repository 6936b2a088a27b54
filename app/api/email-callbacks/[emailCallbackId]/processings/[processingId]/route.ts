import { withCaller } from "@/modules/auth/with-caller";
import { getEmailProcessingDetail } from "@/modules/processings/processing-content.usecases";
import { getProcessingsRepository } from "@/modules/processings/processings.dependencies";
import { formatProcessingDetailForApi } from "@/modules/processings/processings.models";

export const dynamic = "force-dynamic";

type Params = { emailCallbackId: string; processingId: string };

export const GET = withCaller<Params>(async ({ caller, params }) => {
  const { emailProcessing, webhookBody } = await getEmailProcessingDetail({
    ...params,
    userId: caller.userId,
    repository: await getProcessingsRepository(),
  });
  return Response.json({ emailProcessing: formatProcessingDetailForApi(emailProcessing), webhookBody });
});
