// What never reaches the log (docs/architecture.md: Logs), whatever a caller passes: fields that may
// hold a secret are replaced by pino's redaction (logger.ts), and inside text (messages, string
// fields, error messages and stacks) the token of a link, such as a content link's `signature=`
// or an `access_token=`, and the credentials of a `Bearer` header are replaced by "[redacted]".

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
  "*.password",
  "*.secret",
  "*.webhookSecret",
  "*.signature",
  "*.token",
  "*.authorization",
  "*.cookie",
  "*.apiKey",
  "headers.authorization",
  "headers.cookie",
];

/** A query parameter that carries a credential, and its value up to the next separator. */
const TOKEN_PARAMETER_PATTERN =
  /([?&;](?:signature|sig|token|access_token|refresh_token|api_key|apikey|secret|password|code)=)[^&;#\s"'<>]+/gi;
const BEARER_PATTERN = /\b(Bearer\s+)[A-Za-z0-9._~+/=-]+/g;

/** The text with every link token and bearer credential replaced. */
export function redactText(text: string): string {
  if (!text.includes("=") && !/bearer/i.test(text)) return text;
  return text.replace(TOKEN_PARAMETER_PATTERN, `$1${REDACTED}`).replace(BEARER_PATTERN, `$1${REDACTED}`);
}

/** A value with the text in it redacted: strings, and the strings of an object two levels down. */
export function redactValue(value: unknown, depth = 2): unknown {
  if (typeof value === "string") return redactText(value);
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
  const message = redactText(error.message);
  const stack = error.stack === undefined ? undefined : redactText(error.stack);
  if (message === error.message && stack === error.stack) return error;
  const copy = Object.create(Object.getPrototypeOf(error) as object) as Error;
  Object.assign(copy, error);
  Object.defineProperty(copy, "message", { value: message, enumerable: false, writable: true, configurable: true });
  Object.defineProperty(copy, "stack", { value: stack, enumerable: false, writable: true, configurable: true });
  if (error.cause !== undefined) copy.cause = redactValue(error.cause, 1);
  return copy;
}
