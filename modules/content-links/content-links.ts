// Signed, expiring links to a mail's content (docs/webhooks.md: Content by link): the raw message
// and each attachment of a processing, at /api/content/{processingId}/{part}?expires=…&signature=….
// The signature is an HMAC-SHA256 of the processing id, the part and the expiry under a key derived
// from AUTH_SECRET, so links keep working across processes and restarts, and a changed character
// or a passed expiry makes the link answer 404.
import { createHmac, timingSafeEqual } from "node:crypto";

/** `raw`, or `attachments/<index>` (the attachment's place in the payload's list). */
export type ContentPart = "raw" | `attachments/${number}`;

export const CONTENT_LINK_PATH = "/api/content";

export type ContentLinkSigner = {
  expiresAt: Date;
  link: (processingId: string, part: ContentPart) => string;
};

/** The key of content links, derived from the auth secret (never the secret itself). */
export function deriveContentLinkKey(authSecret: string): string {
  return createHmac("sha256", authSecret).update("hookmail content links v1").digest("base64url");
}

function sign(key: string, processingId: string, part: string, expires: number): string {
  return createHmac("sha256", key).update(`${processingId}\n${part}\n${expires}`).digest("base64url");
}

export function createContentLinkSigner({
  baseUrl,
  key,
  expiresAt,
}: {
  baseUrl: string;
  key: string;
  expiresAt: Date;
}): ContentLinkSigner {
  const expires = Math.floor(expiresAt.getTime() / 1000);
  return {
    expiresAt: new Date(expires * 1000),
    link: (processingId, part) => {
      const signature = sign(key, processingId, part, expires);
      return `${baseUrl}${CONTENT_LINK_PATH}/${encodeURIComponent(processingId)}/${part}?expires=${expires}&signature=${signature}`;
    },
  };
}

export function parseContentPart(segments: string[]): ContentPart | null {
  if (segments.length === 1 && segments[0] === "raw") return "raw";
  if (segments.length === 2 && segments[0] === "attachments" && /^(0|[1-9]\d{0,3})$/.test(segments[1] ?? "")) {
    return `attachments/${Number(segments[1])}`;
  }
  return null;
}

/** Whether a link's expiry and signature are its own and it has not expired. */
export function isContentLinkValid({
  key,
  processingId,
  part,
  expires,
  signature,
  now = new Date(),
}: {
  key: string;
  processingId: string;
  part: ContentPart;
  expires: string | null;
  signature: string | null;
  now?: Date;
}): boolean {
  if (!expires || !/^\d{1,12}$/.test(expires) || !signature) return false;
  if (Number(expires) * 1000 <= now.getTime()) return false;
  const expected = Buffer.from(sign(key, processingId, part, Number(expires)));
  const given = Buffer.from(signature);
  return expected.length === given.length && timingSafeEqual(expected, given);
}
