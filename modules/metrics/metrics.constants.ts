// The metrics of GET /api/metrics (README: Monitoring): their names, and the words their labels take.

export const METRIC_NAME = {
  MAILS_ACCEPTED: "hookmail_mails_accepted_total",
  MAILS_REFUSED: "hookmail_mails_refused_total",
  DELIVERIES: "hookmail_deliveries_total",
  DELIVERY_ATTEMPT_DURATION: "hookmail_delivery_attempt_duration_seconds",
  DELIVERY_QUEUE: "hookmail_delivery_queue_depth",
  DELIVERY_QUEUE_OLDEST_DUE_AGE: "hookmail_delivery_queue_oldest_due_age_seconds",
} as const;

/** Where a mail comes in: the SMTP listener, or one of the HTTP ingest routes (/api/inbound/{route}). */
export const MAIL_ROUTES = ["smtp", "raw", "postmark", "mailgun", "sendgrid"] as const;
export type MailRoute = (typeof MAIL_ROUTES)[number];

/** Why a mail (or, over SMTP, one of its recipients) was refused. */
export const MAIL_REFUSAL_REASON = {
  UNKNOWN_RECIPIENT: "unknown_recipient",
  TOO_MANY_RECIPIENTS: "too_many_recipients",
  TOO_MANY_UNKNOWN_RECIPIENTS: "too_many_unknown_recipients",
  TOO_MANY_SESSIONS: "too_many_sessions",
  RECIPIENT_CHECK_FAILED: "recipient_check_failed",
  MESSAGE_TOO_LARGE: "message_too_large",
  INVALID_MESSAGE: "invalid_message",
  MESSAGE_TOO_COMPLEX: "message_too_complex",
  CONNECTION_CLOSED: "connection_closed",
  UNAUTHORIZED: "unauthorized",
  NOT_CONFIGURED: "not_configured",
  BUSY: "busy",
  INTERNAL_ERROR: "internal_error",
} as const;
export type MailRefusalReason = (typeof MAIL_REFUSAL_REASON)[keyof typeof MAIL_REFUSAL_REASON];

/** The reason of an error code the HTTP ingest and the pipeline answer with; any other error is internal_error. */
export const REFUSAL_REASON_BY_ERROR_CODE: Record<string, MailRefusalReason> = {
  "inbound.invalid_message": MAIL_REFUSAL_REASON.INVALID_MESSAGE,
  "inbound.message_too_complex": MAIL_REFUSAL_REASON.MESSAGE_TOO_COMPLEX,
  "inbound.payload_too_large": MAIL_REFUSAL_REASON.MESSAGE_TOO_LARGE,
  "inbound.unauthorized": MAIL_REFUSAL_REASON.UNAUTHORIZED,
  "inbound.not_configured": MAIL_REFUSAL_REASON.NOT_CONFIGURED,
  "service.unavailable": MAIL_REFUSAL_REASON.BUSY,
};

/** The outcome of one delivery attempt, by the kind the delivery usecase answers. */
export const DELIVERY_OUTCOME_BY_KIND: Record<string, string> = {
  success: "delivered",
  "retry-scheduled": "retry",
  failed: "failed",
  "not-enabled": "not_enabled",
  "unknown-error": "error",
  skipped: "skipped",
};
export const DELIVERY_OUTCOMES = ["delivered", "retry", "failed", "not_enabled", "error", "skipped"] as const;
/** The outcomes where a webhook request was made (or tried): their durations go to the histogram. */
export const ATTEMPTED_DELIVERY_OUTCOMES: readonly string[] = ["delivered", "retry", "failed", "error"];

/** Upper bounds, in seconds, of the attempt duration histogram (WEBHOOK_TIMEOUT_MS is 15 s by default). */
export const DELIVERY_ATTEMPT_BUCKETS = [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 15, 30, 60];

/** The states of a pending delivery the queue gauge counts. */
export const DELIVERY_QUEUE_STATES = ["due", "leased", "scheduled"] as const;
export type DeliveryQueueState = (typeof DELIVERY_QUEUE_STATES)[number];

/** The paths the METRICS_PORT listener answers (the web route's path too, so one scrape configuration fits both). */
export const METRICS_SERVER_PATHS: readonly string[] = ["/metrics", "/api/metrics"];

/**
 * The METRICS_PORT listener's bounds (docs/security.md): a scrape is one small GET, so a connection
 * that sends no request is closed within seconds, and there are places enough that connections held
 * open without one cannot take them all before they are closed.
 */
export const METRICS_SERVER_LIMITS = {
  /** From a connection's opening (or its last answer) to the end of its request's headers. */
  headersTimeoutMs: 3_000,
  requestTimeoutMs: 5_000,
  /** How often the two above are checked (Node's own default, 30 s, let them run 10 times over). */
  timeoutCheckIntervalMs: 1_000,
  /** A connection kept open after an answer, waiting for the next scrape (Node adds 1 s to it). */
  keepAliveTimeoutMs: 2_000,
  /**
   * No traffic either way for this long closes the connection, whatever it waits for: as long as
   * Prometheus waits for a scrape by default (scrape_timeout, 10 s), so a slow database read of the
   * queue's depth is not cut short before the scraper gives up on it.
   */
  idleTimeoutMs: 10_000,
  maxHeadersCount: 50,
  maxConnections: 100,
} as const;
