import { withCaller } from "@/modules/auth/with-caller";
import { listProcessingsQuerySchema } from "@/modules/email-callbacks/email-callbacks.schemas";
import { getProcessingsRepository } from "@/modules/processings/processings.dependencies";
import { formatProcessingForApi } from "@/modules/processings/processings.models";
import { listEmailProcessings } from "@/modules/processings/processings.usecases";
import { parseSearchParams } from "@/modules/shared/api/route-handler";

export const dynamic = "force-dynamic";

export const GET = withCaller<{ emailCallbackId: string }>(async ({ request, caller, params }) => {
  const { pageIndex, pageSize } = parseSearchParams(request, listProcessingsQuerySchema);
  const repository = await getProcessingsRepository();
  const page = await listEmailProcessings({
    emailCallbackId: params.emailCallbackId,
    userId: caller.userId,
    pageIndex,
    pageSize,
    repository,
  });
  return Response.json({ ...page, emailProcessings: page.emailProcessings.map(formatProcessingForApi) });
});
