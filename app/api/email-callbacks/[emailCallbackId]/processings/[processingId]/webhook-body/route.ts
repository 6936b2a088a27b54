import { toDownloadHeaders } from "@/modules/content-links/content-links.usecases";
import { openWebhookBody } from "@/modules/processings/processing-content.usecases";
import { getProcessingsRepository } from "@/modules/processings/processings.dependencies";
import { withCaller } from "@/modules/server/routes";

export const dynamic = "force-dynamic";

type Params = { emailCallbackId: string; processingId: string };

/** The JSON body sent to the webhook, byte for byte, as a .json download. */
export const GET = withCaller<Params>(async ({ request, caller, params, services }) => {
  const download = await openWebhookBody({
    ...params,
    userId: caller.userId,
    repository: await getProcessingsRepository(services),
    gate: services.downloadGate,
    signal: request.signal,
  });
  return new Response(download.body, { headers: toDownloadHeaders(download) });
});
