import { toDownloadHeaders } from "@/modules/content-links/content-links.usecases";
import { openStoredAttachment } from "@/modules/processings/processing-content.usecases";
import { getProcessingsRepository } from "@/modules/processings/processings.dependencies";
import { withCaller } from "@/modules/server/routes";
import { createNotFoundError } from "@/modules/shared/errors/app-error";

export const dynamic = "force-dynamic";

type Params = { emailCallbackId: string; processingId: string; index: string };

/** One attachment's bytes, by its place in the webhook body's list. */
export const GET = withCaller<Params>(async ({ request, caller, params, services }) => {
  if (!/^(0|[1-9]\d{0,3})$/.test(params.index)) throw createNotFoundError("attachment");
  const parser = services.parser();
  const download = await openStoredAttachment({
    emailCallbackId: params.emailCallbackId,
    processingId: params.processingId,
    userId: caller.userId,
    repository: await getProcessingsRepository(services),
    index: Number(params.index),
    extractAttachment: (raw, index) => parser.extractAttachment(raw, index),
    gate: services.downloadGate,
    signal: request.signal,
  });
  return new Response(download.body, { headers: toDownloadHeaders(download) });
});
