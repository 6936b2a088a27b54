// The limits on repeated actions (docs/security.md), in one place. Each counts in a fixed window
// shared by every process through the database; over the limit the action answers 429
// request.rate_limited (or better-auth's TOO_MANY_REQUESTS) with Retry-After, and does nothing.
const MINUTE_MS = 60_000;

export const RATE_LIMITS = {
  /** Test mails per address: a person clicking "send a test mail" never needs more; a script sending hundreds floods its own webhook. */
  testMail: { keyPrefix: "test-mail", limit: 10, windowMs: MINUTE_MS },
  /** Redeliveries per address: room for a person working through a failed inbox by hand, not for a loop re-firing webhooks. */
  redelivery: { keyPrefix: "redelivery", limit: 60, windowMs: MINUTE_MS },
  /** "Redeliver all failed" calls per address (each restarts up to a bounded batch): a person retries a batch a few times after fixing the webhook; a loop is stopped. */
  bulkRedelivery: { keyPrefix: "bulk-redelivery", limit: 5, windowMs: MINUTE_MS },
  /** Reset mails per requested email: a slow or greylisted mail may be asked for again a few times; an inbox cannot be bombed. */
  passwordResetMail: { keyPrefix: "password-reset-mail", limit: 5, windowMs: 60 * MINUTE_MS },
  /** Verification mails per email (sign-up, sign-in while unverified, "send again"), for the same reason. */
  verificationMail: { keyPrefix: "verification-mail", limit: 5, windowMs: 60 * MINUTE_MS },
  /** Failed sign-ins per account, from any client address: slows password guessing to 40 an hour. */
  failedSignIn: { keyPrefix: "failed-sign-in", limit: 10, windowMs: 15 * MINUTE_MS },
} as const;

export type RateLimitRule = { keyPrefix: string; limit: number; windowMs: number };
