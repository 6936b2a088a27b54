import { withCaller } from "@/modules/auth/with-caller";
import { toDownloadHeaders } from "@/modules/content-links/content-links.usecases";
import { getWebhookBody } from "@/modules/processings/processing-content.usecases";
import { getProcessingsRepository } from "@/modules/processings/processings.dependencies";

export const dynamic = "force-dynamic";

type Params = { emailCallbackId: string; processingId: string };

/** The JSON body sent to the webhook, byte for byte, as a .json download. */
export const GET = withCaller<Params>(async ({ caller, params }) => {
  const body = await getWebhookBody({ ...params, userId: caller.userId, repository: await getProcessingsRepository() });
  return new Response(new Uint8Array(body), {
    headers: toDownloadHeaders({ bytes: body, contentType: "application/json", filename: `${params.processingId}.json` }),
  });
});
