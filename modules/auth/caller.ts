// Who is calling a route: the owner of the API key in `Authorization: Bearer hm_…`, or else the
// signed-in user of the session cookie. A request that carries an Authorization header is judged
// on that header alone: a malformed, unknown or deleted key gives no caller (so 401), even when a
// valid session cookie comes along. Keys are looked up on every call (no cache), so a deleted key
// stops working at once.

import { createApiKeysRepository } from "@/modules/api-keys/api-keys.repository";
import { findApiKeyOwnerByToken } from "@/modules/api-keys/api-keys.usecases";
import type { PrismaClient } from "@/modules/db/generated/client";
import { DEFAULT_PLAN_ID } from "@/modules/plans/plans.constants";
import type { Auth } from "./auth.server";

/** Where callers are looked up: the process's database and auth, each made on first use. */
export type CallerLookup = { prisma: () => Promise<PrismaClient>; auth: () => Promise<Auth> };

export const CALLER_KINDS = ["session", "api-key"] as const;
export type CallerKind = (typeof CALLER_KINDS)[number];

export type CallerUser = { id: string; email: string; name: string; planId: string; emailVerified: boolean };

export type Caller =
  | { userId: string; user: CallerUser; via: "session"; sessionId: string }
  | { userId: string; user: CallerUser; via: "api-key"; apiKeyId: string };

export async function findCaller(request: Request, lookup: CallerLookup): Promise<Caller | null> {
  const authorization = request.headers.get("authorization");
  if (authorization !== null) return findApiKeyCaller(authorization, await lookup.prisma());
  return findSessionCaller(request, await lookup.auth());
}

/** The token of a `Bearer` authorization (scheme case-insensitive), or null for any other value. */
export function parseBearerToken(authorization: string): string | null {
  const match = /^Bearer +(\S+) *$/i.exec(authorization.trim());
  return match?.[1] ?? null;
}

const CALLER_USER_FIELDS = { id: true, email: true, name: true, planId: true, emailVerified: true } as const;

async function findApiKeyCaller(authorization: string, prisma: PrismaClient): Promise<Caller | null> {
  const token = parseBearerToken(authorization);
  if (!token) return null;
  const owner = await findApiKeyOwnerByToken({ token, repository: createApiKeysRepository(prisma) });
  if (!owner) return null;
  // The account behind the key (auth owns the user table: better-auth writes it).
  const user = await prisma.user.findUnique({ where: { id: owner.userId }, select: CALLER_USER_FIELDS });
  if (!user) return null;
  return { userId: user.id, user, via: "api-key", apiKeyId: owner.apiKeyId };
}

async function findSessionCaller(request: Request, auth: Auth): Promise<Caller | null> {
  const session = await auth.api.getSession({ headers: request.headers });
  return session ? callerOfSession(session) : null;
}

type FoundSession = NonNullable<Awaited<ReturnType<Auth["api"]["getSession"]>>>;

/** The caller of a session auth has found (a request's cookie, or a page's on the server). */
export function callerOfSession({ user, session }: FoundSession): Caller {
  return {
    userId: user.id,
    user: {
      id: user.id,
      email: user.email,
      name: user.name,
      planId: (user as { planId?: string }).planId ?? DEFAULT_PLAN_ID,
      emailVerified: user.emailVerified,
    },
    via: "session",
    sessionId: session.id,
  };
}

/**
 * Whether the caller's session (not signed out, not expired) or API key (not deleted) still holds:
 * a response that lasts (a live event stream) asks again from time to time (docs/security.md).
 */
export async function isCallerCurrent(
  caller: Caller,
  { prisma: openPrisma }: Pick<CallerLookup, "prisma">,
  now = new Date(),
): Promise<boolean> {
  const prisma = await openPrisma();
  if (caller.via === "api-key") return (await prisma.apiKey.count({ where: { id: caller.apiKeyId } })) > 0;
  return (await prisma.session.count({ where: { id: caller.sessionId, userId: caller.userId, expiresAt: { gt: now } } })) > 0;
}
