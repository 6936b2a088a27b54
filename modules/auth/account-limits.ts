// Per-account rules better-auth does not enforce itself, applied in its hooks (docs/security.md):
// failed sign-ins, reset mails and verification mails are counted per requested email (trimmed,
// lower-cased) in the database, whatever the client address, so that a limit holds across
// processes and cannot be dodged by changing address; and names are held to the account's one rule.
import { APIError } from "better-auth/api";
import { RATE_LIMITS, type RateLimitRule } from "@/modules/rate-limit/rate-limit.constants";
import type { RateLimitRepository } from "@/modules/rate-limit/rate-limit.repository";
import { consumeRateLimit, refundRateLimit } from "@/modules/rate-limit/rate-limit.usecases";
import { FULL_NAME_MAX_LENGTH, FULL_NAME_MESSAGES, fullNameSchema } from "@/modules/shared/validation/full-name.schemas";

/** The auth endpoints whose requests the account limits look at. */
export const AUTH_PATHS = {
  signIn: "/sign-in/email",
  signUp: "/sign-up/email",
  requestPasswordReset: "/request-password-reset",
  sendVerificationEmail: "/send-verification-email",
  updateUser: "/update-user",
} as const;

/** Codes of the errors below, translated by the client (messages authErrors.*). */
export const ACCOUNT_LIMIT_ERROR_CODES = {
  tooManyRequests: "TOO_MANY_REQUESTS",
  nameRequired: "NAME_REQUIRED",
  nameTooLong: "NAME_TOO_LONG",
} as const;

export const normalizeAccountEmail = (email: string) => email.trim().toLowerCase();

export const createTooManyRequestsApiError = (retryAfterSeconds: number) =>
  new APIError(
    "TOO_MANY_REQUESTS",
    { code: ACCOUNT_LIMIT_ERROR_CODES.tooManyRequests, message: `Too many attempts; try again in ${retryAfterSeconds} seconds.` },
    { "Retry-After": String(retryAfterSeconds) },
  );

async function ensureAccountWithinLimit(rateLimits: RateLimitRepository, rule: RateLimitRule, email: string) {
  const { isAllowed, retryAfterSeconds } = await consumeRateLimit({
    rule,
    subject: normalizeAccountEmail(email),
    repository: rateLimits,
  });
  if (!isAllowed) throw createTooManyRequestsApiError(retryAfterSeconds);
}

/** The name held to the account's one rule (trimmed, 1 to 64 characters), or the error that says which part fails. */
function ensureAccountName(name: unknown): string {
  const parsed = fullNameSchema.safeParse(name);
  if (parsed.success) return parsed.data;
  const isTooLong = parsed.error.issues.some((issue) => issue.message === FULL_NAME_MESSAGES.tooLong);
  throw new APIError("BAD_REQUEST", {
    code: isTooLong ? ACCOUNT_LIMIT_ERROR_CODES.nameTooLong : ACCOUNT_LIMIT_ERROR_CODES.nameRequired,
    message: isTooLong ? `Name must be at most ${FULL_NAME_MAX_LENGTH} characters` : "Please enter a name",
  });
}

type HookContext = { path?: string; body?: unknown; context: { returned?: unknown } };

const readBodyField = (body: unknown, field: string): unknown =>
  typeof body === "object" && body !== null ? (body as Record<string, unknown>)[field] : undefined;

/**
 * Before an auth endpoint runs: counts a sign-in attempt (refunded after, unless the password was
 * wrong), a reset request and an explicit verification request against the requested email, for
 * known and unknown addresses alike (the answer says nothing about whether an account exists);
 * trims names and holds them to the account's one name rule. Answers the body to use, if changed.
 */
export async function applyAccountRulesBefore(
  context: HookContext,
  rateLimits: RateLimitRepository,
): Promise<{ context: { body: Record<string, unknown> } } | undefined> {
  const email = readBodyField(context.body, "email");
  const name = readBodyField(context.body, "name");
  switch (context.path) {
    case AUTH_PATHS.signIn:
      if (typeof email === "string") await ensureAccountWithinLimit(rateLimits, RATE_LIMITS.failedSignIn, email);
      return undefined;
    case AUTH_PATHS.requestPasswordReset:
      if (typeof email === "string") await ensureAccountWithinLimit(rateLimits, RATE_LIMITS.passwordResetMail, email);
      return undefined;
    case AUTH_PATHS.sendVerificationEmail:
      if (typeof email === "string") await ensureAccountWithinLimit(rateLimits, RATE_LIMITS.verificationMail, email);
      return undefined;
    case AUTH_PATHS.signUp:
    case AUTH_PATHS.updateUser:
      // Sign-up without a name is left to better-auth's own check; an update without one keeps it.
      if (name === undefined) return undefined;
      return { context: { body: { ...(context.body as Record<string, unknown>), name: ensureAccountName(name) } } };
    default:
      return undefined;
  }
}

const isWrongPassword = (returned: unknown) => returned instanceof APIError && returned.statusCode === 401;

/** After sign-in: only a wrong email or password counts as a failed sign-in; any other outcome is refunded. */
export async function applyAccountRulesAfter(context: HookContext, rateLimits: RateLimitRepository): Promise<void> {
  if (context.path !== AUTH_PATHS.signIn) return;
  const email = readBodyField(context.body, "email");
  if (typeof email !== "string" || isWrongPassword(context.context.returned)) return;
  await refundRateLimit({ rule: RATE_LIMITS.failedSignIn, subject: normalizeAccountEmail(email), repository: rateLimits });
}

/**
 * Whether a verification mail from sign-up or sign-in may go out (the explicit "send again" request
 * was counted before its endpoint ran): counts it against the address. better-auth sends these in
 * the background and answers the same whatever happens, so one over the limit is simply not sent.
 */
export async function isVerificationMailAllowed({
  email,
  request,
  rateLimits,
}: {
  email: string;
  request: Request | undefined;
  rateLimits: RateLimitRepository;
}): Promise<boolean> {
  if (request && new URL(request.url).pathname.endsWith(AUTH_PATHS.sendVerificationEmail)) return true;
  const { isAllowed } = await consumeRateLimit({
    rule: RATE_LIMITS.verificationMail,
    subject: normalizeAccountEmail(email),
    repository: rateLimits,
  });
  return isAllowed;
}
