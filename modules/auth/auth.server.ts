// The better-auth instance, mounted at /api/auth/*. One per process (kept on globalThis), built
// from the validated config and the process's database.
import { betterAuth } from "better-auth";
import { prismaAdapter } from "better-auth/adapters/prisma";
import { getAuthSecret } from "@/modules/config/auth-secret";
import { getConfig, type Config } from "@/modules/config/config";
import { getPrisma } from "@/modules/db/db";
import type { PrismaClient } from "@/modules/db/generated/client";
import { createId, type IdKind } from "@/modules/shared/ids";
import { AUTH_COOKIE_PREFIX } from "./auth.constants";


const MODEL_ID_KINDS: Record<string, IdKind> = {
  user: "user",
  session: "session",
  account: "account",
  verification: "verification",
  rateLimit: "rateLimit",
};

export function createAuth({ config, prisma }: { config: Config; prisma: PrismaClient }) {
  return betterAuth({
    appName: "Hookmail",
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
    },
    user: {
      additionalFields: {
        planId: { type: "string", required: false, defaultValue: "free", input: false },
      },
    },
    rateLimit: { enabled: config.isProduction, storage: "database" },
    advanced: {
      cookiePrefix: AUTH_COOKIE_PREFIX,
      database: {
        generateId: ({ model }) => createId(MODEL_ID_KINDS[model] ?? "verification"),
      },
    },
  });
}

export type Auth = ReturnType<typeof createAuth>;

const globalForAuth = globalThis as typeof globalThis & { __hookmailAuth?: Promise<Auth> };

export function getAuth(): Promise<Auth> {
  globalForAuth.__hookmailAuth ??= getPrisma().then((prisma) => createAuth({ config: getConfig(), prisma }));
  return globalForAuth.__hookmailAuth;
}
