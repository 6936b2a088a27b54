// Whether a visit to VERIFY_EMAIL_PATH comes from a real verification (docs/security.md): only a
// genuine, unexpired verification token (signed with the auth secret, checked as better-auth checks
// it) whose address is verified now says so. No token, a made-up or expired one, or the token of an
// address still unverified is an invalid or expired link.
import { verifyJWT } from "better-auth/crypto";
import type { Auth } from "./auth.server";

type VerificationTokenPayload = { email?: unknown; userId?: unknown; updateTo?: unknown };

export async function isVerifiedThroughLink({ auth, token }: { auth: Auth; token: string | undefined }): Promise<boolean> {
  if (!token) return false;
  const context = await auth.$context;
  const payload = await verifyJWT<VerificationTokenPayload>(token, context.secret);
  // A change-of-address token (updateTo) is not a verification of the account's address.
  if (typeof payload?.email !== "string" || payload.updateTo !== undefined) return false;
  const found = await context.internalAdapter.findUserByEmail(payload.email);
  if (!found?.user.emailVerified) return false;
  return payload.userId === undefined || payload.userId === found.user.id;
}
