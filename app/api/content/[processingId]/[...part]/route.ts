import { getAuthSecret } from "@/modules/config/auth-secret";
import { getConfig } from "@/modules/config/config";
import { deriveContentLinkKey, parseContentPart } from "@/modules/content-links/content-links";
import { createContentLinksRepository } from "@/modules/content-links/content-links.repository";
import { readLinkedContent, toDownloadHeaders } from "@/modules/content-links/content-links.usecases";
import { getDownloadGate } from "@/modules/content-links/download-gate";
import { getDatabase } from "@/modules/db/db";
import { getMessageParser } from "@/modules/inbound/parse-pool";
import { withErrors } from "@/modules/shared/api/route-handler";
import { createNotFoundError } from "@/modules/shared/errors/app-error";

export const dynamic = "force-dynamic";

type Params = { processingId: string; part: string[] };

/** A signed, expiring link to a mail's content (docs/webhooks.md: Content by link): the link is the credential. */
export const GET = withErrors<Params>(async ({ request, params }) => {
  const part = parseContentPart(params.part);
  if (!part) throw createNotFoundError("content");
  const query = new URL(request.url).searchParams;
  const parser = getMessageParser();
  const content = await readLinkedContent({
    processingId: params.processingId,
    part,
    expires: query.get("expires"),
    signature: query.get("signature"),
    key: deriveContentLinkKey(getAuthSecret(getConfig()).secret),
    repository: createContentLinksRepository(await getDatabase()),
    extractAttachment: (raw, index) => parser.extractAttachment(raw, index),
    gate: getDownloadGate(),
    signal: request.signal,
  });
  return new Response(content.body, { headers: toDownloadHeaders(content) });
});
