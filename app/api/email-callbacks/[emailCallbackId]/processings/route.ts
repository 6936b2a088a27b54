import { getProcessingsRepository } from "@/modules/processings/processings.dependencies";
import { formatProcessingForApi } from "@/modules/processings/processings.models";
import { listProcessingsQuerySchema } from "@/modules/processings/processings.schemas";
import { listEmailProcessings } from "@/modules/processings/processings.usecases";
import { withCaller } from "@/modules/server/routes";
import { parseSearchParams } from "@/modules/shared/api/route-handler";

export const dynamic = "force-dynamic";

export const GET = withCaller<{ emailCallbackId: string }>(async ({ request, caller, params, services }) => {
  const { pageIndex, pageSize, status, q } = parseSearchParams(request, listProcessingsQuerySchema);
  const repository = await getProcessingsRepository(services);
  const page = await listEmailProcessings({
    emailCallbackId: params.emailCallbackId,
    userId: caller.userId,
    pageIndex,
    pageSize,
    filter: { status, q },
    repository,
  });
  return Response.json({ ...page, emailProcessings: page.emailProcessings.map(formatProcessingForApi) });
});
