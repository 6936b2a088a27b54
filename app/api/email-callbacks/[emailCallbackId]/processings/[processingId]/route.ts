import { answerProcessingDetail } from "@/modules/processings/processings.answers";
import { processingDetailQuerySchema } from "@/modules/processings/processings.schemas";
import { withCaller } from "@/modules/server/routes";
import { parseSearchParams } from "@/modules/shared/api/route-handler";

export const dynamic = "force-dynamic";

type Params = { emailCallbackId: string; processingId: string };

export const GET = withCaller<Params>(async ({ request, caller, params, services }) => {
  const { webhookBody: bodyForm } = parseSearchParams(request, processingDetailQuerySchema);
  const isShortened = bodyForm === "shortened";
  return Response.json(await answerProcessingDetail({ ...params, userId: caller.userId, isShortened, services }));
});
