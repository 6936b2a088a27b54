// Serves a content link (content-links.ts): the raw message of a processing, or one of its
// attachments decoded in a parsing thread, while the link is valid and the content is still kept.
// Anything else (a changed character, a passed expiry, content past its retention) is not found.
import { createNotFoundError } from "@/modules/shared/errors/app-error";
import { type ContentPart, isContentLinkValid } from "./content-links";

export type ContentLinksRepository = { findRawMessage: (processingId: string) => Promise<Buffer | null> };

export type LinkedContent = { bytes: Buffer; contentType: string; filename: string };

export async function readLinkedContent({
  processingId,
  part,
  expires,
  signature,
  key,
  repository,
  extractAttachment,
  now = new Date(),
}: {
  processingId: string;
  part: ContentPart;
  expires: string | null;
  signature: string | null;
  key: string;
  repository: ContentLinksRepository;
  extractAttachment: (raw: Buffer, index: number) => Promise<LinkedContent | null>;
  now?: Date;
}): Promise<LinkedContent> {
  if (!isContentLinkValid({ key, processingId, part, expires, signature, now })) throw createNotFoundError("content");
  const raw = await repository.findRawMessage(processingId);
  if (!raw) throw createNotFoundError("content");
  if (part === "raw") return { bytes: raw, contentType: "message/rfc822", filename: `${processingId}.eml` };
  const attachment = await extractAttachment(raw, Number(part.split("/")[1]));
  if (!attachment) throw createNotFoundError("content");
  return attachment;
}

/** The headers of a download of mail content: its type and length, its name, never run as a page of this origin. */
export function toDownloadHeaders({ bytes, contentType, filename }: LinkedContent): Record<string, string> {
  const isMediaType = /^[a-z0-9][a-z0-9!#$&^_.+-]{0,126}\/[a-z0-9][a-z0-9!#$&^_.+-]{0,126}$/.test(contentType);
  return {
    "Content-Type": isMediaType ? contentType : "application/octet-stream",
    "Content-Length": String(bytes.length),
    "Content-Disposition": toContentDisposition(filename),
    "Cache-Control": "private, no-store",
    "X-Content-Type-Options": "nosniff",
    "Content-Security-Policy": "default-src 'none'; sandbox",
  };
}

/** A Content-Disposition that keeps any file name safe: ASCII fallback, and the name itself per RFC 5987. */
export function toContentDisposition(filename: string): string {
  const name = filename.trim() || "attachment";
  const fallback = name.replace(/[^\x20-\x7e]|["\\]/g, "_");
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}
