import { parseContentPart } from "@/modules/content-links/content-links";
import { createContentLinksRepository } from "@/modules/content-links/content-links.repository";
import { readLinkedContent, toDownloadHeaders } from "@/modules/content-links/content-links.usecases";
import { withErrors } from "@/modules/server/routes";
import { createNotFoundError } from "@/modules/shared/errors/app-error";

export const dynamic = "force-dynamic";

type Params = { processingId: string; part: string[] };

/** A signed, expiring link to a mail's content (docs/webhooks.md: Content by link): the link is the credential. */
export const GET = withErrors<Params>(async ({ request, params, services }) => {
  const part = parseContentPart(params.part);
  if (!part) throw createNotFoundError("content");
  const query = new URL(request.url).searchParams;
  const parser = services.parser();
  const content = await readLinkedContent({
    processingId: params.processingId,
    part,
    expires: query.get("expires"),
    signature: query.get("signature"),
    key: services.contentLinkKey(),
    repository: createContentLinksRepository(await services.database()),
    extractAttachment: (raw, index) => parser.extractAttachment(raw, index),
    gate: services.downloadGate,
    signal: request.signal,
  });
  return new Response(content.body, { headers: toDownloadHeaders(content) });
});
