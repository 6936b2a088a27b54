// Shape and limits of personal API keys (README: REST API; docs/security.md).
/** Every token starts with this, so a leaked key is recognisable (secret scanners, logs). */
export const API_KEY_TOKEN_PREFIX = "hm_";
/** Base62 characters after the prefix: ~238 bits of randomness. */
export const API_KEY_TOKEN_RANDOM_LENGTH = 40;
export const API_KEY_TOKEN_PATTERN = /^hm_[0-9A-Za-z]{40}$/;
/** The stored, displayable start of a token, e.g. "hm_AbC1234": the prefix and 7 random characters. */
export const API_KEY_DISPLAY_PREFIX_LENGTH = 10;
export const MAX_API_KEYS_PER_USER = 50;
export const API_KEY_NAME_MAX_LENGTH = 128;
/** lastUsedAt is written at most once per this interval, so a busy key does not write on every call. */
export const API_KEY_LAST_USED_AT_INTERVAL_MS = 60_000;
