// The words and limits of an endpoint's content filter (docs/webhooks.md: Filters). The limits bound
// what one condition can cost in a parsing thread, whatever the mail and the pattern.

export const FILTER_MATCHES = ["all", "any"] as const;
export type FilterMatch = (typeof FILTER_MATCHES)[number];

/** The fields read as text (the header fields are `header:<name>` besides). */
export const FILTER_TEXT_FIELDS = [
  "from",
  "to",
  "subject",
  "text",
  "attachment.filename",
  "attachment.contentType",
  "authentication.dmarc",
] as const;
export type FilterTextField = (typeof FILTER_TEXT_FIELDS)[number];

/** `header:<name>`: the value of each field of that name. */
export const FILTER_HEADER_FIELD_PREFIX = "header:";
export type FilterHeaderField = `${typeof FILTER_HEADER_FIELD_PREFIX}${string}`;

export const FILTER_SPAM_SCORE_FIELD = "spam.score";

export type FilterField = FilterTextField | FilterHeaderField | typeof FILTER_SPAM_SCORE_FIELD;

export const FILTER_TEXT_OPERATORS = ["contains", "equals", "startsWith", "endsWith", "matches"] as const;
export type FilterTextOperator = (typeof FILTER_TEXT_OPERATORS)[number];

export const FILTER_SCORE_OPERATORS = ["gt", "lt"] as const;
export type FilterScoreOperator = (typeof FILTER_SCORE_OPERATORS)[number];

export const FILTER_MIN_CONDITIONS = 1;
export const FILTER_MAX_CONDITIONS = 20;

/** A header name: an HTTP token (RFC 9110's tchar) of at most this many characters. */
export const FILTER_HEADER_NAME_MAX_LENGTH = 64;
export const FILTER_HEADER_NAME_PATTERN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/** A value compared as text: 1 to this many characters. */
export const FILTER_VALUE_MAX_LENGTH = 1024;

/** A `matches` pattern: at most this many characters… */
export const FILTER_PATTERN_MAX_LENGTH = 256;
/**
 * …compiling to at most this many instructions of RE2's program. Matching is linear in the text, but
 * the cost of each character grows with the instructions alive at once (a counted repetition such as
 * `a[ab]{120}c` keeps ~120 alive): this and FILTER_PATTERN_INPUT_MAX_CHARS bound one condition to
 * milliseconds (modules/inbound/parsing/endpoint-filter.cost.test.ts).
 */
export const FILTER_PATTERN_MAX_INSTRUCTIONS = 128;
/** The instructions of all of one filter's patterns together. */
export const FILTER_MAX_TOTAL_PATTERN_INSTRUCTIONS = 512;
/**
 * Memory of a pattern's lazy DFA, the fast path of RE2. A pattern whose DFA would need more (the
 * counted repetitions above) gives up on it early and runs as an NFA, within the bounds above.
 */
export const FILTER_PATTERN_DFA_BYTES = 64 * 1024;

/** What a condition reads of a mail (docs/webhooks.md: Filters). Characters are UTF-16 code units. */
export const FILTER_READ_LIMITS = {
  /** `text`: the first 1 MiB of the plain-text body. */
  textChars: 1024 * 1024,
  /** `from`, `to`, `subject`, `authentication.dmarc` and each header value. */
  valueChars: 2048,
  /** `header:<name>`: the first fields of that name, in the message's order. */
  headerFields: 8,
  /** `attachment.*`: the first attachments, and each one's file name and content type. */
  attachments: 64,
  attachmentValueChars: 256,
  /** `matches` reads at most this much of each value it tests (the text, a long header). */
  patternInputChars: 16 * 1024,
} as const;
