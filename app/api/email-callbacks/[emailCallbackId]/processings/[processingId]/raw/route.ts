import { withCaller } from "@/modules/auth/with-caller";
import { toDownloadHeaders } from "@/modules/content-links/content-links.usecases";
import { openRawMessage } from "@/modules/processings/processing-content.usecases";
import { getProcessingsRepository } from "@/modules/processings/processings.dependencies";

export const dynamic = "force-dynamic";

type Params = { emailCallbackId: string; processingId: string };

/** The message exactly as received, as a .eml download. */
export const GET = withCaller<Params>(async ({ caller, params }) => {
  const download = await openRawMessage({ ...params, userId: caller.userId, repository: await getProcessingsRepository() });
  return new Response(download.body, { headers: toDownloadHeaders(download) });
});
