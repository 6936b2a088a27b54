import { withCaller } from "@/modules/auth/with-caller";
import { toDownloadHeaders } from "@/modules/content-links/content-links.usecases";
import { getRawMessage } from "@/modules/processings/processing-content.usecases";
import { getProcessingsRepository } from "@/modules/processings/processings.dependencies";

export const dynamic = "force-dynamic";

type Params = { emailCallbackId: string; processingId: string };

/** The message exactly as received, as a .eml download. */
export const GET = withCaller<Params>(async ({ caller, params }) => {
  const raw = await getRawMessage({ ...params, userId: caller.userId, repository: await getProcessingsRepository() });
  return new Response(new Uint8Array(raw), {
    headers: toDownloadHeaders({ bytes: raw, contentType: "message/rfc822", filename: `${params.processingId}.eml` }),
  });
});
