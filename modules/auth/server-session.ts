// The signed-in user's session read on the server, for a page's first render: the same answer as
// GET /api/auth/get-session, in the shape the browser's session store holds (use-session.ts), and
// the caller it makes for the page's own first data (caller.ts).

import type { Auth } from "./auth.server";
import { type Caller, callerOfSession } from "./caller";
import type { Session } from "./use-session";

export type RequestSession = { session: Session; caller: Caller };

/** The session of the request's cookie, or null when there is none (or it no longer holds). */
export async function readRequestSession(auth: Auth, headers: Headers): Promise<RequestSession | null> {
  const found = await auth.api.getSession({ headers });
  if (!found) return null;
  const { user, session } = found;
  return {
    session: {
      user: {
        id: user.id,
        name: user.name,
        email: user.email,
        emailVerified: user.emailVerified,
        planId: (user as { planId?: string | null }).planId ?? null,
      },
      session: { id: session.id, expiresAt: new Date(session.expiresAt).toISOString() },
    },
    caller: callerOfSession(found),
  };
}
