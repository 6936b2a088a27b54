// The verification mail's link. better-auth builds it with the callback the client asked for; the
// app sends every verification link back to one page (VERIFY_EMAIL_PATH), carrying the link's own
// token, so that the page can tell a link that verified an address from any other visit
// (verified-link.ts).
import { VERIFY_EMAIL_PATH } from "./auth.constants";

/** The link better-auth built, coming back to VERIFY_EMAIL_PATH?token=… whatever callback it named. */
export function toVerificationLink(betterAuthUrl: string): string {
  const link = new URL(betterAuthUrl);
  const token = link.searchParams.get("token") ?? "";
  link.searchParams.set("callbackURL", `${VERIFY_EMAIL_PATH}?${new URLSearchParams({ token })}`);
  return link.toString();
}
