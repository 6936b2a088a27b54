// The numbers of webhook delivery (docs/webhooks.md): the retry schedule, what is kept of a response,
// and how the worker paces itself.

export const WEBHOOK_USER_AGENT = "Hookmail-Webhook/1";

/** How long one attempt to an endpoint may take, when the endpoint sets it (docs/webhooks.md: Endpoints). */
export const ENDPOINT_TIMEOUT_MIN_MS = 1000;
export const ENDPOINT_TIMEOUT_MAX_MS = 30_000;

/** Waits after the 1st, 2nd, … 6th failed attempt: 30 s, 2 min, 10 min, 1 h, 6 h, 24 h. */
export const RETRY_DELAYS_MS = [30_000, 120_000, 600_000, 3_600_000, 21_600_000, 86_400_000] as const;

/** The first attempt and one per retry delay. */
export const MAX_DELIVERY_ATTEMPTS = RETRY_DELAYS_MS.length + 1;

/** Each delay is spread by up to ±20 % so that failures of one receiver do not retry in lockstep. */
export const RETRY_JITTER_RATIO = 0.2;

/** A receiver's Retry-After is honoured up to this long. */
export const MAX_RETRY_AFTER_MS = 86_400_000;

/** How much of a response body is read and kept. */
export const RESPONSE_EXCERPT_BYTES = 1024;

export const DELIVERY_WORKER_DEFAULTS = {
  pollIntervalMs: 1000,
  concurrency: 16,
  /** A claim outlives the attempt's timeout by this much before another worker may take the row over. */
  leaseMarginMs: 60_000,
  /** A claim taken when the mail was written is renewed before its attempt when less than the timeout plus this is left. */
  renewMarginMs: 5_000,
  cleanUpIntervalMs: 86_400_000,
  /** Message content of final processings is dropped this long after their last change. */
  contentRetentionMs: 72 * 3_600_000,
  cleanUpBatchSize: 500,
} as const;

/**
 * A webhook body above this is large: it is written in slices in statements of its own (not with
 * the raw message) and is not kept in memory with a claim. Reads go further: any body over one
 * slice is read back in slices (modules/db/sliced-values.ts), so that no result holds more than one.
 */
export const LARGE_PAYLOAD_BYTES = 1024 * 1024;

/** An address's owner gets at most one delivery alert in this long (docs/webhooks.md: Delivery alerts). */
export const DELIVERY_ALERT_INTERVAL_MS = 3_600_000;

/**
 * What an endpoint receives (docs/webhooks.md: Endpoints): `json`, the version-1 body; `raw`, the
 * message as received (`message/rfc822`).
 */
export const ENDPOINT_FORMATS = ["json", "raw"] as const;
export type EndpointFormat = (typeof ENDPOINT_FORMATS)[number];

/**
 * How a delivery is signed: `hmac` (`v1`, a shared secret), `ed25519` (`v1a`, Hookmail's private
 * key; the receiver holds the public key), `none` (no signature header).
 */
export const SIGNING_SCHEMES = ["hmac", "ed25519", "none"] as const;
export type SigningScheme = (typeof SIGNING_SCHEMES)[number];
