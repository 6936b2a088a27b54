// The verification mail's link. better-auth builds it with the callback the client asked for; the
// app sends every verification link back to one page (VERIFY_EMAIL_PATH), which tells a used or
// invalid link from a good one.
import { VERIFY_EMAIL_PATH } from "./auth.constants";

/** The link better-auth built, coming back to VERIFY_EMAIL_PATH whatever callback it named. */
export function toVerificationLink(betterAuthUrl: string): string {
  const link = new URL(betterAuthUrl);
  link.searchParams.set("callbackURL", VERIFY_EMAIL_PATH);
  return link.toString();
}
