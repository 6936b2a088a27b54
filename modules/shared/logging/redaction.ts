// What never reaches the log (docs/architecture.md: Logs), whatever a caller passes: fields that may
// hold a secret are replaced by pino's redaction (logger.ts), and inside text (messages, string
// fields, error messages and stacks) the token of a link, in its query (a content link's
// `signature=`, an `access_token=`) or its path (`/reset-password/<token>`), the user and password
// of a URL (`https://user:pass@host`), and the credentials of a `Bearer` or `Basic` authorization,
// in any case, are replaced by "[redacted]". Terminal colour codes are taken out of text too: a
// library's coloured line is read in the JSON log as plain words.

export const REDACTED = "[redacted]";

/** Fields that may hold a secret, wherever they appear one level down (pino's redaction paths). */
export const REDACTED_PATHS = [
  "password",
  "secret",
  "webhookSecret",
  "signature",
  "token",
  "authorization",
  "cookie",
  "apiKey",
  "privateKey",
  "privateKeyEncrypted",
  "signingKey",
  "encryptionKey",
  "*.password",
  "*.secret",
  "*.webhookSecret",
  "*.signature",
  "*.token",
  "*.authorization",
  "*.cookie",
  "*.apiKey",
  "*.privateKey",
  "*.privateKeyEncrypted",
  "*.signingKey",
  "*.encryptionKey",
  "headers.authorization",
  "headers.cookie",
];

/** A query parameter that carries a credential, and its value up to the next separator. */
const TOKEN_PARAMETER_PATTERN =
  /([?&;](?:signature|sig|token|access_token|refresh_token|api_key|apikey|secret|password|code)=)[^&;#\s"'<>]+/gi;
/** A path segment that is a token: better-auth's reset link (/api/auth/reset-password/<token>) and its kin. */
const TOKEN_PATH_PATTERN = /(\/(?:reset-password|verify-email|magic-link)\/)[^/?#&\s"'<>]+/gi;
/**
 * The user and password of a URL: everything between `scheme://` and the last `@` before the host.
 * The scheme's length is bounded, so that a long run of `a.a.a.` costs linear time, not quadratic.
 */
const URL_USERINFO_PATTERN = /\b([a-z][a-z0-9+.-]{0,31}:\/\/)[^\s/?#"'<>]+@/gi;
const BEARER_PATTERN = /\b(bearer\s+)[A-Za-z0-9._~+/=-]+/gi;
/** Basic credentials are base64 of `user:password` (RFC 7617). */
const BASIC_PATTERN = /\b(basic\s+)([A-Za-z0-9+/]+={0,2})(?![A-Za-z0-9+/=])/gi;
/** Whatever follows an authorization header's `Basic` is a credential, even one that is not base64 of `user:password`. */
const BASIC_AFTER_AUTHORIZATION = /authorization["']?\s*[:=]\s*["']?\s*$/i;
const MAY_HOLD_CREDENTIALS = /[=@]|bearer|basic|reset-password|verify-email|magic-link/i;

/** The text with every link token, URL password and authorization credential replaced. */
export function redactText(text: string): string {
  if (!MAY_HOLD_CREDENTIALS.test(text)) return text;
  return text
    .replace(TOKEN_PARAMETER_PATTERN, `$1${REDACTED}`)
    .replace(TOKEN_PATH_PATTERN, `$1${REDACTED}`)
    .replace(URL_USERINFO_PATTERN, `$1${REDACTED}@`)
    .replace(BEARER_PATTERN, `$1${REDACTED}`)
    .replace(BASIC_PATTERN, (match, scheme: string, credentials: string, offset: number, whole: string) =>
      Buffer.from(credentials, "base64").includes(":") ||
      BASIC_AFTER_AUTHORIZATION.test(whole.slice(Math.max(0, offset - 40), offset))
        ? `${scheme}${REDACTED}`
        : match,
    );
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: terminal colour codes start with ESC.
export const TERMINAL_CODES = /\u001b\[[0-9;?]*[A-Za-z]/g;

/** Text as a log line carries it: without terminal colour codes, and redacted. */
function cleanText(text: string): string {
  return redactText(text.includes("\u001b") ? text.replace(TERMINAL_CODES, "") : text);
}

/** A value with the text in it redacted: strings, and the strings of an object two levels down. */
export function redactValue(value: unknown, depth = 2): unknown {
  if (typeof value === "string") return cleanText(value);
  if (value instanceof Error) return redactError(value);
  if (depth === 0 || typeof value !== "object" || value === null) return value;
  if (Array.isArray(value)) return value.map((item) => redactValue(item, depth - 1));
  if (Object.getPrototypeOf(value) !== Object.prototype) return value;
  let copy: Record<string, unknown> | undefined;
  for (const [key, item] of Object.entries(value)) {
    const redacted = redactValue(item, depth - 1);
    if (redacted === item) continue;
    copy ??= { ...(value as Record<string, unknown>) };
    copy[key] = redacted;
  }
  return copy ?? value;
}

/** An error whose message or stack holds a link token, as a copy without it (the original is left as it is). */
function redactError(error: Error): Error {
  const message = cleanText(error.message);
  const stack = error.stack === undefined ? undefined : cleanText(error.stack);
  if (message === error.message && stack === error.stack) return error;
  const copy = Object.create(Object.getPrototypeOf(error) as object) as Error;
  Object.assign(copy, error);
  Object.defineProperty(copy, "message", { value: message, enumerable: false, writable: true, configurable: true });
  Object.defineProperty(copy, "stack", { value: stack, enumerable: false, writable: true, configurable: true });
  if (error.cause !== undefined) copy.cause = redactValue(error.cause, 1);
  return copy;
}
