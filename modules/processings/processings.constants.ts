// The vocabulary of a processing (one received mail for one address): its status, and why it was
// not processed or failed. Every module that writes or reads a processing uses these names, in
// code and as bound parameters of its SQL; the inbox's badge shows them (docs/architecture.md:
// A mail, from the wire to the webhook). And the sample message of "Send test mail" (it goes
// through the same pipeline as real mail).

export const PROCESSING_STATUS = {
  /** Recorded, its delivery due or under way. */
  PENDING: "pending",
  /** Delivered: the webhook answered 2xx. */
  SUCCESS: "success",
  /** Given up: no retry left, or an unexpected failure. */
  ERROR: "error",
  /** Recorded but not delivered, by rule (address disabled, sender not allowed). */
  NOT_PROCESSED: "not-processed",
} as const;

export type ProcessingStatus = (typeof PROCESSING_STATUS)[keyof typeof PROCESSING_STATUS];

export const PROCESSING_STATUSES = Object.values(PROCESSING_STATUS);

/**
 * A delivery's status (one mail to one endpoint): the statuses a processing can take, from which
 * its own is derived (docs/architecture.md: The data).
 */
export const DELIVERY_STATUS = PROCESSING_STATUS;

/** The longest inbox search text, after trimming (a sender or a subject is found by far less). */
export const INBOX_SEARCH_MAX_LENGTH = 200;

/** The statuses a processing never leaves (its content can then be cleaned up). */
export const FINAL_PROCESSING_STATUSES = [
  PROCESSING_STATUS.SUCCESS,
  PROCESSING_STATUS.ERROR,
  PROCESSING_STATUS.NOT_PROCESSED,
] as const satisfies readonly ProcessingStatus[];

export const PROCESSING_ERROR = {
  /** The address was disabled when the mail arrived or when its delivery came. */
  NOT_ENABLED: "not-enabled",
  /** The sender is not in the address's allowed list. */
  FROM_ADDRESS_NOT_ALLOWED: "from-address-not-allowed",
  /** The address asks for DMARC and the mail's DMARC result is fail. */
  AUTHENTICATION_FAILED: "authentication-failed",
  /** The address has a spam threshold and the mail's score reaches it. */
  SPAM: "spam",
  /** No enabled endpoint of the address takes the mail (docs/webhooks.md: Destinations). */
  NO_MATCHING_ENDPOINT: "no-matching-endpoint",
  /** The webhook kept failing until no retry was left. */
  WEBHOOK_FAILED: "webhook-failed",
  /** Something unexpected (logged). */
  UNKNOWN: "unknown",
} as const;

export type ProcessingError = (typeof PROCESSING_ERROR)[keyof typeof PROCESSING_ERROR];

/** Local part of the test mail's sender, at the callback's own domain. */
export const TEST_MAIL_SENDER_LOCAL_PART = "test";

export const TEST_MAIL_SENDER_NAME = "Hookmail";

export const TEST_MAIL_SUBJECT = "Hookmail test mail";
