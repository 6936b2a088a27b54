// The webhook payload's shape (docs/webhooks.md), as buildWebhookPayload makes it (webhook-payload.ts).
// Its bytes are made in ordered pieces, the attachments' base64 while the message is parsed
// (webhook-pieces.ts).
import type { MailAuthentication } from "@/modules/mail-checks/mail-auth.models";
import type { MailFlags } from "./mail-traits";
import type { WEBHOOK_EVENT_TYPE } from "./parsing.constants";

export type WebhookAddress = { address: string; name: string };

export type WebhookAttachment = {
  filename: string;
  contentType: string;
  /** Decoded size in bytes. */
  size: number;
  /** The Content-ID header as sent (with its angle brackets), or null. */
  contentId: string | null;
  disposition: "attachment" | "inline";
  /** The decoded bytes, base64; null when the address takes attachments by link. */
  content: string | null;
  /** SHA-256 of the decoded bytes, hex. */
  sha256: string;
  /** A signed, expiring link to the bytes when the address takes attachments by link; else null. */
  url: string | null;
};

/** The message exactly as received. */
export type WebhookRawMessage = { size: number; sha256: string; url: string | null; expiresAt: string | null };

/** rspamd's opinion of the mail, when an rspamd is configured. */
export type WebhookSpamVerdict = { score: number; action: string; isSpam: boolean };

export type WebhookPayload = {
  type: typeof WEBHOOK_EVENT_TYPE;
  timestamp: string;
  data: {
    id: string;
    emailCallbackId: string;
    address: string;
    /** The recipient as the sender wrote it (tag included), routed to this address. */
    recipient: string;
    tag: string | null;
    envelope: { from: string | null; to: string[] };
    from: WebhookAddress | null;
    to: WebhookAddress[];
    cc: WebhookAddress[];
    replyTo: WebhookAddress[];
    subject: string;
    date: string | null;
    messageId: string;
    inReplyTo: string | null;
    references: string[];
    text: string;
    html: string;
    headers: { name: string; value: string }[];
    attachments: WebhookAttachment[];
    raw: WebhookRawMessage;
    /** Null when the checks are off or could not run. */
    authentication: MailAuthentication | null;
    spam: WebhookSpamVerdict | null;
    flags: MailFlags;
    reply: { text: string | null };
    threadId: string | null;
  };
};
