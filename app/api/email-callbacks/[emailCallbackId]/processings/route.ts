import { answerProcessingsPage } from "@/modules/processings/processings.answers";
import { listProcessingsQuerySchema } from "@/modules/processings/processings.schemas";
import { withCaller } from "@/modules/server/routes";
import { parseSearchParams } from "@/modules/shared/api/route-handler";

export const dynamic = "force-dynamic";

export const GET = withCaller<{ emailCallbackId: string }>(async ({ request, caller, params, services }) => {
  const page = parseSearchParams(request, listProcessingsQuerySchema);
  return Response.json(
    await answerProcessingsPage({ emailCallbackId: params.emailCallbackId, userId: caller.userId, page, services }),
  );
});
