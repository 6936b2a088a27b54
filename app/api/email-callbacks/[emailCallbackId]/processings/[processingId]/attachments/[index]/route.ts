import { withCaller } from "@/modules/auth/with-caller";
import { toDownloadHeaders } from "@/modules/content-links/content-links.usecases";
import { getDownloadGate } from "@/modules/content-links/download-gate";
import { getMessageParser } from "@/modules/inbound/parse-pool";
import { openStoredAttachment } from "@/modules/processings/processing-content.usecases";
import { getProcessingsRepository } from "@/modules/processings/processings.dependencies";
import { createNotFoundError } from "@/modules/shared/errors/app-error";

export const dynamic = "force-dynamic";

type Params = { emailCallbackId: string; processingId: string; index: string };

/** One attachment's bytes, by its place in the webhook body's list. */
export const GET = withCaller<Params>(async ({ request, caller, params }) => {
  if (!/^(0|[1-9]\d{0,3})$/.test(params.index)) throw createNotFoundError("attachment");
  const parser = getMessageParser();
  const download = await openStoredAttachment({
    emailCallbackId: params.emailCallbackId,
    processingId: params.processingId,
    userId: caller.userId,
    repository: await getProcessingsRepository(),
    index: Number(params.index),
    extractAttachment: (raw, index) => parser.extractAttachment(raw, index),
    gate: getDownloadGate(),
    signal: request.signal,
  });
  return new Response(download.body, { headers: toDownloadHeaders(download) });
});
