// How a user is shown to the API: never the password or any session data.
import type { Caller } from "@/modules/auth/caller";

export type ApiUser = { id: string; email: string; name: string; planId: string; emailVerified: boolean };

export function formatUserForApi(user: Caller["user"]): ApiUser {
  return { id: user.id, email: user.email, name: user.name, planId: user.planId, emailVerified: user.emailVerified };
}
