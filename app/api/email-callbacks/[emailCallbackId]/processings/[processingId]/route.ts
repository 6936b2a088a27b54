import { getEmailProcessingDetail } from "@/modules/processings/processing-content.usecases";
import { getProcessingsRepository } from "@/modules/processings/processings.dependencies";
import { formatProcessingDetailForApi } from "@/modules/processings/processings.models";
import { processingDetailQuerySchema } from "@/modules/processings/processings.schemas";
import { withCaller } from "@/modules/server/routes";
import { parseSearchParams } from "@/modules/shared/api/route-handler";

export const dynamic = "force-dynamic";

type Params = { emailCallbackId: string; processingId: string };

export const GET = withCaller<Params>(async ({ request, caller, params, services }) => {
  const { webhookBody: bodyForm } = parseSearchParams(request, processingDetailQuerySchema);
  const { emailProcessing, ...body } = await getEmailProcessingDetail({
    ...params,
    userId: caller.userId,
    repository: await getProcessingsRepository(services),
    isShortened: bodyForm === "shortened",
  });
  return Response.json({ emailProcessing: formatProcessingDetailForApi(emailProcessing), ...body });
});
