// The live event stream of an address (docs/architecture.md: Live events): its channel, its event
// names and its limits.

/** How the listener's connection names itself in pg_stat_activity. */
export const EVENTS_LISTENER_APPLICATION_NAME = "hookmail-events";

export const EVENT_STREAM_EVENTS = {
  /** A processing's state: as the mail arrives, and as each delivery attempt ends. */
  PROCESSING: "processing",
  /** With ?include=webhook: the webhook of a mail that arrived, its exact body and signed headers. */
  EMAIL_RECEIVED: "email.received",
} as const;

export const EVENT_STREAM_INCLUDES = ["webhook"] as const;

export const EVENT_STREAM_LIMITS = {
  /** A comment line this often keeps proxies from closing an idle stream. */
  heartbeatMs: 15_000,
  /** The reconnection delay suggested to EventSource clients (`retry:`). */
  retryMs: 2_000,
  /** How far back Last-Event-ID resumes; the triggers keep events about an hour. */
  replayWindowMs: 10 * 60_000,
  /** Events replayed per read at most (a longer absence is read in several). */
  replayBatchSize: 500,
  /** Streams one user may hold open at once in one process, over all their addresses. */
  maxStreamsPerUser: 10,
  /**
   * Bytes a stream may hold that its client has not taken yet: more waits until the client takes
   * some (a large webhook body is read from the database a slice at a time, as there is room).
   */
  maxBufferedBytes: 8 * 1024 * 1024,
  /** A client that takes nothing of what waits for it this long is cut off: its connection is closed (it can resume). */
  readerStallMs: 30_000,
  /** How often a stream checks that the session or API key it was opened with still holds. */
  callerCheckMs: 30_000,
  /** A stream ends this long after it opened; the client resumes with Last-Event-ID after the `retry:` delay. */
  maxLifetimeMs: 60 * 60_000,
  /** Event ids a stream remembers having sent, so that a replay overlapping the live events sends each once. */
  rememberedEventIds: 5_000,
} as const;

/** The listener reconnects after a lost connection this long later, doubling up to the maximum (with jitter). */
export const EVENTS_LISTENER_BACKOFF = { initialMs: 250, maxMs: 10_000 } as const;

/**
 * How a process tells the database which addresses it streams (the processing_event_follower table):
 * every `refreshMs` while a stream is open, it marks them streamed for `streamedForMs` (changes are
 * NOTIFYed) and followed for `followedForMs` (changes are recorded, so that a client coming back
 * within the replay window finds what it missed).
 */
export const EVENTS_FOLLOW = {
  refreshMs: 15_000,
  streamedForMs: 60_000,
  followedForMs: EVENT_STREAM_LIMITS.replayWindowMs + 60_000,
} as const;

/** The listener's connection is closed this long after its last stream ended. */
export const EVENTS_LISTENER_IDLE_MS = 30_000;

/**
 * The stream's response headers. `no-transform` keeps compression (Next.js's included) from
 * buffering it; `X-Accel-Buffering: no` does the same for nginx in front.
 */
export const EVENT_STREAM_HEADERS = {
  "Content-Type": "text/event-stream; charset=utf-8",
  "Cache-Control": "no-cache, no-transform",
  "X-Accel-Buffering": "no",
} as const;
