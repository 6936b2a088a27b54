// Serves a content link (content-links.ts): the raw message of a processing (streamed a slice at a
// time), or one of its attachments decoded in a parsing thread, while the link is valid, its address
// still exists and the content is still kept. Anything else (a changed character, a passed expiry, a
// deleted address, content past its retention) is not found. Each download holds a place at the
// download gate until it is sent (download-gate.ts), counted against its link and its owner.
import type { OpenedBytea } from "@/modules/db/sliced-values";
import { createNotFoundError } from "@/modules/shared/errors/app-error";
import { type ContentPart, isContentLinkValid } from "./content-links";
import type { DownloadGate } from "./download-gate";
import { openHeldDownload, STREAMED_DOWNLOAD_BYTES } from "./download-stream";

export type ContentLinksRepository = {
  /** The processing's owner and the size of its stored message (null once gone); null when the processing or its address is gone. */
  findLinkedProcessing: (processingId: string) => Promise<{ ownerId: string; rawMessageBytes: number | null } | null>;
  findRawMessage: (processingId: string) => Promise<Buffer | null>;
  /** The raw message as a stream of slices (a download), or null. */
  openRawMessage: (processingId: string) => Promise<OpenedBytea | null>;
};

/** Bytes to download: whole, or streamed a slice at a time. */
export type DownloadBody = { byteLength: number; body: Uint8Array<ArrayBuffer> | ReadableStream<Uint8Array> };

export type DownloadedContent = DownloadBody & { contentType: string; filename: string };

export type LinkedContent = { bytes: Buffer; contentType: string; filename: string };

export async function readLinkedContent({
  processingId,
  part,
  expires,
  signature,
  key,
  repository,
  extractAttachment,
  gate,
  signal,
  now = new Date(),
}: {
  processingId: string;
  part: ContentPart;
  expires: string | null;
  signature: string | null;
  key: string;
  repository: ContentLinksRepository;
  extractAttachment: (raw: Buffer, index: number) => Promise<LinkedContent | null>;
  /** Bounds what downloads hold at once (download-gate.ts). */
  gate: DownloadGate;
  /** Aborted when the client goes: a download still waiting for room gives up its turn. */
  signal?: AbortSignal;
  now?: Date;
}): Promise<DownloadedContent> {
  if (!isContentLinkValid({ key, processingId, part, expires, signature, now })) throw createNotFoundError("content");
  const linked = await repository.findLinkedProcessing(processingId);
  if (!linked || linked.rawMessageBytes === null) throw createNotFoundError("content");
  const holders = [
    { key: `link:${processingId}/${part}`, max: gate.limits.perLink },
    { key: `links-of:${linked.ownerId}`, max: gate.limits.perOwner },
  ];
  if (part === "raw") {
    return openHeldDownload({
      gate,
      claim: { bytes: STREAMED_DOWNLOAD_BYTES, holders, signal },
      open: async () => {
        const opened = await repository.openRawMessage(processingId);
        if (!opened) throw createNotFoundError("content");
        return {
          byteLength: opened.byteLength,
          body: opened.stream,
          contentType: "message/rfc822",
          filename: `${processingId}.eml`,
        };
      },
    });
  }
  // While decoded, an attachment holds its message and its own bytes, which are no larger.
  return openHeldDownload({
    gate,
    claim: { bytes: 2 * linked.rawMessageBytes, holders, signal },
    open: async (place) => {
      const raw = await repository.findRawMessage(processingId);
      const attachment = raw ? await extractAttachment(raw, Number(part.split("/")[1])) : null;
      if (!attachment) throw createNotFoundError("content");
      place.shrinkTo(attachment.bytes.byteLength);
      return toDownloadedContent(attachment);
    },
  });
}

/** Whole bytes as a download. */
export const toDownloadedContent = ({ bytes, ...about }: LinkedContent): DownloadedContent => ({
  ...about,
  byteLength: bytes.byteLength,
  // These Buffers' memory is an ArrayBuffer (pg's results, a parsing thread's moved bytes), never shared memory.
  body: new Uint8Array(bytes.buffer as ArrayBuffer, bytes.byteOffset, bytes.byteLength),
});

/** The headers of a download of mail content: its type and length, its name, never run as a page of this origin. */
export function toDownloadHeaders({
  byteLength,
  contentType,
  filename,
}: Pick<DownloadedContent, "byteLength" | "contentType" | "filename">): Record<string, string> {
  const isMediaType = /^[a-z0-9][a-z0-9!#$&^_.+-]{0,126}\/[a-z0-9][a-z0-9!#$&^_.+-]{0,126}$/.test(contentType);
  return {
    "Content-Type": isMediaType ? contentType : "application/octet-stream",
    "Content-Length": String(byteLength),
    "Content-Disposition": toContentDisposition(filename),
    "Cache-Control": "private, no-store",
    "X-Content-Type-Options": "nosniff",
    "Content-Security-Policy": "default-src 'none'; sandbox",
  };
}

/** A Content-Disposition that keeps any file name safe: ASCII fallback, and the name itself per RFC 5987. */
export function toContentDisposition(filename: string): string {
  // A lone surrogate (a name decoded from broken UTF-16) would make encodeURIComponent throw.
  const name = filename.toWellFormed().trim() || "attachment";
  const fallback = name.replace(/[^\x20-\x7e]|["\\]/g, "_");
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}
