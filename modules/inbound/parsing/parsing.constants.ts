// Limits and options of parsing a message, in the parsing threads (docs/webhooks.md).

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

export const WEBHOOK_EVENT_TYPE = "email.received";

/** MIME parts a message may have; one with more is refused as unparseable. */
export const MAX_MIME_PARTS = 20_000;

/** mailparser's options: keep bodies and attachments as sent, convert nothing. */
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
  // each attachment's checksum is the payload's sha256 (hex), computed as its bytes stream by
  checksumAlgo: "sha256",
} as const;

/**
 * The largest piece of a webhook body a parsing thread posts to the main thread (body-sinks.ts):
 * one slice of a staged large value (VALUE_SLICE_BYTES of modules/db, which the threads' code does
 * not import; a test holds them equal).
 */
export const BODY_PIECE_MAX_BYTES = 256 * 1024;

/**
 * The nice value of a parsing thread (Linux; 0 is the main thread's, 19 the lowest priority). A
 * thread parsing a 25 MiB message wants a core for seconds; at this value the scheduler gives the
 * main thread, which answers requests and SMTP commands, about ten times its share whenever both
 * want the same core (docs/architecture.md: The main thread answers).
 */
export const PARSE_THREAD_NICE = 10;
