// Names and limits of the HTTP ingest routes, POST /api/inbound/{provider} (README: Receiving mail).

export const INBOUND_PROVIDER_NAMES = ["raw", "postmark", "mailgun", "sendgrid"] as const;

/** Mailgun's signed timestamp may be this far from our clock, either way. */
export const MAILGUN_TIMESTAMP_TOLERANCE_SECONDS = 5 * 60;

/** A verified Mailgun token is remembered this long; the same token again is a replay. */
export const MAILGUN_TOKEN_RETENTION_MS = 10 * 60 * 1000;

/**
 * Mailgun's signature fields must arrive within this many bytes of the body: beyond it, a body
 * without them is refused unread. Real posts carry them after the text fields (plain, HTML and
 * their stripped copies) and before body-mime and the attachments: 1 MiB leaves room for a large
 * HTML mail while holding a stranger's body to a small part of MAX_MESSAGE_BYTES.
 */
export const MAILGUN_CREDENTIALS_PREFIX_BYTES = 1024 * 1024;

/**
 * How much larger than the message itself an HTTP body may be, per provider. The raw route
 * carries the message as is. Form posts (Mailgun, SendGrid) carry it once, attachments in binary
 * or the whole message in one field, plus fields and part headers: ×1.4 + 64 KiB also covers a
 * client that base64-encodes its parts. Postmark's JSON carries it twice when `RawEmail` is on
 * (the raw message, JSON-escaped, beside the parsed fields with base64 attachments): ×2.5 + 64 KiB.
 * The message found in the body is then held to MAX_MESSAGE_BYTES itself.
 */
export const BODY_SIZE_ALLOWANCE = {
  raw: { factor: 1, extraBytes: 0 },
  form: { factor: 1.4, extraBytes: 64 * 1024 },
  postmark: { factor: 2.5, extraBytes: 64 * 1024 },
} as const;

/** Headers a composed message gets from its own structure, never copied from a provider's list. */
export const STRUCTURAL_HEADER_PATTERN = /^(content-|mime-version$)/i;

/** The domain of the Message-ID given to a composed message whose provider sent none. */
export const GENERATED_MESSAGE_ID_DOMAIN = "hookmail.invalid";
