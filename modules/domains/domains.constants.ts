// Shape and rules of users' own domains (docs/domains.md).

export const DOMAIN_STATUS = {
  /** Added, or its records are not (or no longer) right: no mail is accepted for it. */
  PENDING: "pending",
  /** Its TXT and MX records were found right: the account holds the name. */
  VERIFIED: "verified",
  /** Verified, but a later check failed: still held and accepting mail during the grace period. */
  FAILING: "failing",
} as const;

export type DomainStatus = (typeof DOMAIN_STATUS)[keyof typeof DOMAIN_STATUS];

export const DOMAIN_STATUSES = Object.values(DOMAIN_STATUS) as [DomainStatus, ...DomainStatus[]];

/** The statuses in which an account holds a name: at most one account at a time. */
export const DOMAIN_HELD_STATUSES: readonly DomainStatus[] = [DOMAIN_STATUS.VERIFIED, DOMAIN_STATUS.FAILING];

/** The TXT record proving ownership is `_hookmail.<name>`, valued `hookmail-verification=<token>`. */
export const DOMAIN_VERIFICATION_RECORD_LABEL = "_hookmail";
export const DOMAIN_VERIFICATION_VALUE_PREFIX = "hookmail-verification=";
/** Base62 characters of a verification token (~190 bits). */
export const DOMAIN_TOKEN_LENGTH = 32;

/** The preference the dashboard suggests for the MX record (any preference is accepted). */
export const DOMAIN_MX_PRIORITY = 10;

/** Between the problems of one check in `lastCheckError` (the dashboard shows one a line). */
export const DOMAIN_CHECK_PROBLEM_SEPARATOR = "; ";

/** The longest a check of a domain's records takes, its TXT and MX lookups together. */
export const DOMAIN_CHECK_TIMEOUT_MS = 5_000;

/** DNS limits (RFC 1035): a name of at most 253 characters, each label at most 63. */
export const DOMAIN_NAME_MAX_LENGTH = 253;
export const DOMAIN_LABEL_MAX_LENGTH = 63;
/** Longer input is not looked at (the name, once converted, must fit in 253 characters anyway). */
export const DOMAIN_INPUT_MAX_LENGTH = 1_024;

/** The worker re-checks a verified or failing domain once its last check is this old. */
export const DOMAIN_RECHECK_INTERVAL_MS = 24 * 60 * 60 * 1000;
/** How long a domain stays failing (still receiving mail) before a failed re-check makes it pending. */
export const DOMAIN_FAILING_GRACE_MS = 72 * 60 * 60 * 1000;
/** Domains one claim of the re-check sweep takes and checks at once. */
export const DOMAIN_RECHECK_BATCH_SIZE = 20;
/** The first sweep waits a little after start so it never competes with start-up (DOMAIN_RECHECK_SWEEP_MS if shorter). */
export const DOMAIN_RECHECK_FIRST_RUN_DELAY_MS = 90 * 1000;
