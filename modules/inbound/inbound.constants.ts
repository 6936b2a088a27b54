// Rules and limits of the inbound pipeline (README: Receiving mail; docs/webhooks.md).

/** The same Message-ID delivered again to the same recipient within this window creates nothing. */
export const DUPLICATE_WINDOW_MS = 24 * 60 * 60 * 1000;

/** RFC 5322's line length: the inbox row keeps at most this many characters of the subject. */
export const MAX_SUBJECT_LENGTH = 998;

/** The inbox row's sender is cut to this many characters (a From header may be arbitrarily long). */
export const MAX_FROM_ADDRESS_LENGTH = 998;

/**
 * The Message-ID kept on the row is cut to this many UTF-8 bytes, so that (callback, Message-ID,
 * recipient) always fits in one PostgreSQL B-tree index entry (about 2.7 kB). Cutting is
 * deterministic, so deduplication still recognises the same message.
 */
export const MAX_MESSAGE_ID_BYTES = 998;

/** RFC 5321's longest forward path, without its angle brackets. */
export const MAX_RECIPIENT_LENGTH = 254;

export const WEBHOOK_EVENT_TYPE = "email.received";

/** mailparser's options: keep bodies and attachments as sent, convert nothing. */
/** MIME parts a message may have; one with more is refused as unparseable. */
export const MAX_MIME_PARTS = 20_000;

export const MAIL_PARSER_OPTIONS = {
  // cid: links stay cid: links; images are not inlined into the HTML as data: URLs
  skipImageLinks: true,
  keepCidLinks: true,
  // message/delivery-status parts stay attachments instead of being appended to the text
  keepDeliveryStatus: true,
  // attached messages (message/rfc822) stay attachments, byte for byte, instead of being unpacked
  ignoreEmbedded: true,
  // the payload has no textAsHtml: skip building it and linkifying the text
  skipTextToHtml: true,
  skipTextLinks: true,
  // the text of an HTML-only body is made by htmlToPlainText, bounded; the parser's own conversion
  // blocks the event loop for seconds on deep markup and refuses the message when it throws
  skipHtmlToText: true,
  // MIME parts per message (the parser's default, 1,000, refuses real mail with many attachments);
  // MAX_MESSAGE_BYTES bounds the work anyway
  maxChildNodes: MAX_MIME_PARTS,
} as const;

/**
 * Longest a parsing thread may spend on one message (parsing it, building its webhook bodies), from
 * the moment it starts on it; time waiting in the queue does not count. Past it the thread is
 * stopped, replaced, and the message refused for good (SMTP 554 5.6.0, HTTP 400). A 25 MiB message
 * of real mail parses in a few seconds (docs/security.md).
 */
export const PARSE_TIME_LIMIT_MS = 30_000;

/** Messages that may wait for a parsing thread; past it, 451 / 503 and the sender retries. */
export const PARSE_QUEUE_LIMIT = 256;

/** How long a parsing thread beyond the first stays idle before it is stopped. */
export const PARSE_IDLE_TIMEOUT_MS = 60_000;

/**
 * Messages from this size up move their memory to the parsing thread and back (no copy); smaller
 * ones are copied, as they may share memory with other buffers (Node's pool of small buffers).
 */
export const PARSE_MOVE_MIN_BYTES = 64 * 1024;
