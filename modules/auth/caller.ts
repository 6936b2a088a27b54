// Who is calling a route: the signed-in user of the session cookie. (API keys join in a later
// issue through the same function, with the same owner rules.)
import { getAuth } from "./auth.server";

export type Caller = {
  userId: string;
  user: { id: string; email: string; name: string; planId: string; emailVerified: boolean };
  via: "session";
};

export async function findCaller(request: Request): Promise<Caller | null> {
  const auth = await getAuth();
  const session = await auth.api.getSession({ headers: request.headers });
  if (!session) return null;
  const { user } = session;
  return {
    userId: user.id,
    user: {
      id: user.id,
      email: user.email,
      name: user.name,
      planId: (user as { planId?: string }).planId ?? "free",
      emailVerified: user.emailVerified,
    },
    via: "session",
  };
}
