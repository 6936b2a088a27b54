// Where signing in leads: the page the visitor was sent to /login from (its ?returnTo=, when it is
// a path of this site: modules/auth/route-access.ts), or home.
import { RETURN_TO_PARAM, toSafeReturnPath } from "../route-access";

export function readReturnPath(search: string = window.location.search): string {
  return toSafeReturnPath(new URLSearchParams(search).get(RETURN_TO_PARAM)) ?? "/";
}
