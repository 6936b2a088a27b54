// Rules and limits of the inbound pipeline (README: Receiving mail; docs/webhooks.md).

/** The same Message-ID delivered again to the same recipient within this window creates nothing. */
export const DUPLICATE_WINDOW_MS = 24 * 60 * 60 * 1000;

/** RFC 5321's longest forward path, without its angle brackets. */
export const MAX_RECIPIENT_LENGTH = 254;

/**
 * Most processor time a parsing thread may spend on one message (parsing it, building its webhook
 * bodies), from the moment it starts on it; time waiting in the queue, or for answers and writes,
 * does not count (parse-time-limit.ts). Past it the thread is stopped, replaced, and the message
 * refused for good (SMTP 554 5.6.0, HTTP 400). A 25 MiB message of real mail parses in a few seconds
 * (docs/security.md).
 */
export const PARSE_TIME_LIMIT_MS = 30_000;

/**
 * Longest that may pass while a parsing thread is on one message, as a multiple of the time limit:
 * it ends a parse that waits without end (30 s of processor time, 5 minutes in all by default;
 * RFC 5321 has an SMTP client wait 10 minutes for the answer to its message).
 */
export const PARSE_WALL_LIMIT_FACTOR = 10;

/** Messages that may wait for a parsing thread; past it, 451 / 503 and the sender retries. */
export const PARSE_QUEUE_LIMIT = 256;

/** How long a parsing thread beyond the first stays idle before it is stopped. */
export const PARSE_IDLE_TIMEOUT_MS = 60_000;

/**
 * Messages from this size up move their memory to the parsing thread and back (no copy); smaller
 * ones are copied, as they may share memory with other buffers (Node's pool of small buffers).
 */
export const PARSE_MOVE_MIN_BYTES = 64 * 1024;
