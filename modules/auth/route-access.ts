// Which pages need a session and which are for signed-out visitors only.
import { VERIFY_EMAIL_PATH } from "./auth.constants";

export type RouteAccess = "private" | "public-only" | "any";

// VERIFY_EMAIL_PATH is public-only so that a verification link that has just signed the visitor in
// goes on to the dashboard.
const PUBLIC_ONLY_PATHS = [
  "/login",
  "/register",
  "/request-password-reset",
  "/reset-password",
  "/email-validation-required",
  VERIFY_EMAIL_PATH,
];
const PRIVATE_PATH_PREFIXES = ["/email-callbacks", "/api-keys", "/settings", "/webhooks", "/api-reference"];

function matchesPath(pathname: string, path: string) {
  return pathname === path || pathname.startsWith(`${path}/`);
}

export function getRouteAccess(pathname: string): RouteAccess {
  if (PUBLIC_ONLY_PATHS.some((path) => matchesPath(pathname, path))) return "public-only";
  if (pathname === "/" || PRIVATE_PATH_PREFIXES.some((path) => matchesPath(pathname, path))) return "private";
  return "any";
}
