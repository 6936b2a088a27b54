import { withCaller } from "@/modules/auth/with-caller";
import { toDownloadHeaders } from "@/modules/content-links/content-links.usecases";
import { getDownloadGate } from "@/modules/content-links/download-gate";
import { openRawMessage } from "@/modules/processings/processing-content.usecases";
import { getProcessingsRepository } from "@/modules/processings/processings.dependencies";

export const dynamic = "force-dynamic";

type Params = { emailCallbackId: string; processingId: string };

/** The message exactly as received, as a .eml download. */
export const GET = withCaller<Params>(async ({ request, caller, params }) => {
  const download = await openRawMessage({
    ...params,
    userId: caller.userId,
    repository: await getProcessingsRepository(),
    gate: getDownloadGate(),
    signal: request.signal,
  });
  return new Response(download.body, { headers: toDownloadHeaders(download) });
});
