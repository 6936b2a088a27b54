// The better-auth instance, mounted at /api/auth/*, built from the validated config, a database and
// a mailer. The process's one is made by the composition root (docs/architecture.md: The parts).
import { betterAuth } from "better-auth";
import { prismaAdapter } from "better-auth/adapters/prisma";
import { APIError, createAuthMiddleware } from "better-auth/api";
import { getAuthSecret } from "@/modules/config/auth-secret";
import type { Config } from "@/modules/config/config";
import type { PrismaClient } from "@/modules/db/generated/client";
import { resolveRequestLocale } from "@/modules/i18n/request-locale";
import { sendPasswordResetMail, sendVerificationMail } from "@/modules/mail/auth-mails";
import type { Mailer } from "@/modules/mail/mailer";
import { DEFAULT_PLAN_ID } from "@/modules/plans/plans.constants";
import { createRateLimitRepository } from "@/modules/rate-limit/rate-limit.repository";
import { createId, type IdKind } from "@/modules/shared/ids";
import type { Logger } from "@/modules/shared/logging/logger";
import { applyAccountRulesAfter, applyAccountRulesBefore, isVerificationMailAllowed } from "./account-limits";
import { AUTH_COOKIE_PREFIX, CLIENT_IP_HEADER } from "./auth.constants";
import { toBetterAuthLogger } from "./auth-logger";
import { toVerificationLink } from "./verification-link";

const MODEL_ID_KINDS: Record<string, IdKind> = {
  user: "user",
  session: "session",
  account: "account",
  verification: "verification",
  rateLimit: "rateLimit",
};

const ONE_HOUR_SECONDS = 60 * 60;

const createMailSendFailedApiError = () =>
  new APIError("SERVICE_UNAVAILABLE", {
    code: "MAIL_SEND_FAILED",
    message: "The email could not be sent. Please try again later.",
  });

/**
 * Requests whose mail could not be sent. better-auth swallows a failure of the reset mail (so as
 * not to tell whether an address exists); the after-hook below still answers it with a clear error
 * the form shows, since a mail server that refuses says nothing about the address.
 */
const requestsWithFailedMail = new WeakSet<Request>();

async function sendOrFail(request: Request | undefined, send: () => Promise<void>) {
  try {
    await send();
  } catch {
    if (request) requestsWithFailedMail.add(request);
    throw createMailSendFailedApiError();
  }
}

export function createAuth({
  config,
  prisma,
  mailer,
  logger,
}: {
  config: Config;
  prisma: PrismaClient;
  mailer: Mailer;
  /** Where better-auth's own lines go (auth-logger.ts); left out (tests), they go to the console. */
  logger?: Logger;
}) {
  const { github, google } = config.auth;
  const rateLimits = createRateLimitRepository(prisma);
  return betterAuth({
    appName: "Hookmail",
    ...(logger ? { logger: toBetterAuthLogger(logger) } : {}),
    baseURL: config.baseUrl,
    basePath: "/api/auth",
    secret: getAuthSecret(config).secret,
    database: prismaAdapter(prisma, { provider: "postgresql" }),
    emailAndPassword: {
      enabled: true,
      minPasswordLength: 8,
      maxPasswordLength: 128,
      requireEmailVerification: config.auth.isEmailVerificationRequired,
      disableSignUp: !config.auth.isRegistrationEnabled,
      resetPasswordTokenExpiresIn: ONE_HOUR_SECONDS,
      revokeSessionsOnPasswordReset: true,
      ...(config.auth.isPasswordResetEnabled
        ? {
            sendResetPassword: ({ user, url }, request) =>
              sendOrFail(request, () =>
                sendPasswordResetMail({ mailer, to: user.email, name: user.name, url, locale: resolveRequestLocale(request) }),
              ),
          }
        : {}),
    },
    emailVerification: {
      sendOnSignUp: config.auth.isEmailVerificationRequired,
      sendOnSignIn: config.auth.isEmailVerificationRequired,
      autoSignInAfterVerification: true,
      expiresIn: ONE_HOUR_SECONDS,
      sendVerificationEmail: async ({ user, url }, request) => {
        if (!(await isVerificationMailAllowed({ email: user.email, request, rateLimits }))) return;
        await sendOrFail(request, () =>
          sendVerificationMail({
            mailer,
            to: user.email,
            name: user.name,
            url: toVerificationLink(url),
            locale: resolveRequestLocale(request),
          }),
        );
      },
    },
    socialProviders: {
      ...(github ? { github: { clientId: github.clientId, clientSecret: github.clientSecret } } : {}),
      ...(google ? { google: { clientId: google.clientId, clientSecret: google.clientSecret } } : {}),
    },
    user: {
      additionalFields: {
        planId: { type: "string", required: false, defaultValue: DEFAULT_PLAN_ID, input: false },
      },
    },
    // Per-account limits and name rules (account-limits.ts) are product rules: they hold whatever
    // AUTH_RATE_LIMIT_ENABLED says, which switches only better-auth's own per-address limiter.
    hooks: {
      before: createAuthMiddleware(async (context) => applyAccountRulesBefore(context, rateLimits)),
      after: createAuthMiddleware(async (context) => {
        await applyAccountRulesAfter(context, rateLimits);
        if (context.request && requestsWithFailedMail.has(context.request)) throw createMailSendFailedApiError();
      }),
    },
    rateLimit: { enabled: config.auth.isRateLimitEnabled, storage: "database" },
    advanced: {
      cookiePrefix: AUTH_COOKIE_PREFIX,
      ipAddress: { ipAddressHeaders: [CLIENT_IP_HEADER] },
      database: {
        generateId: ({ model }) => createId(MODEL_ID_KINDS[model] ?? "verification"),
      },
    },
  });
}

export type Auth = ReturnType<typeof createAuth>;
