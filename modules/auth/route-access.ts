// Which pages need a session and which are for signed-out visitors only, and where a visitor sent
// to /login goes back after signing in (docs/security.md: Signing in).
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
// The checkout pages answer a signed-in user coming back from Stripe.
const PRIVATE_PATH_PREFIXES = [
  "/email-callbacks",
  "/api-keys",
  "/domains",
  "/settings",
  "/webhooks",
  "/api-reference",
  "/checkout-success",
  "/checkout-cancel",
];

/** Pages of billing: an instance without billing has none of them (404, signed in or not). */
const BILLING_PATHS = ["/checkout-success", "/checkout-cancel"];

/** The query parameter of /login naming the page to go back to once signed in. */
export const RETURN_TO_PARAM = "returnTo";

/** Longer than any page of ours with its filters; a longer value is not followed. */
const MAX_RETURN_PATH_LENGTH = 2048;

// Any origin will do: a path is resolved against it and must not leave it.
const PLACEHOLDER_ORIGIN = "http://hookmail.invalid";

function matchesPath(pathname: string, path: string) {
  return pathname === path || pathname.startsWith(`${path}/`);
}

export function getRouteAccess(pathname: string): RouteAccess {
  if (PUBLIC_ONLY_PATHS.some((path) => matchesPath(pathname, path))) return "public-only";
  if (pathname === "/" || PRIVATE_PATH_PREFIXES.some((path) => matchesPath(pathname, path))) return "private";
  return "any";
}

export function isBillingPath(pathname: string): boolean {
  return BILLING_PATHS.some((path) => matchesPath(pathname, path));
}

/**
 * The page of this site to go back to after signing in, or null to go home: only a relative path
 * ("/email-callbacks/…/inbox?status=error") to a page that needs a session. Anything that could
 * leave the site is refused: "//host" and "/\host" (browsers read both as another host), absolute
 * URLs, "javascript:", and control characters (browsers drop tabs and newlines, so "/\t/host" is "//host").
 */
export function toSafeReturnPath(value: string | null | undefined): string | null {
  if (!value || value.length > MAX_RETURN_PATH_LENGTH) return null;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
  if (!value.startsWith("/") || value.startsWith("//") || /[\\\u0000-\u001f\u007f]/.test(value)) return null;
  let url: URL;
  try {
    url = new URL(value, PLACEHOLDER_ORIGIN);
  } catch {
    return null;
  }
  if (url.origin !== PLACEHOLDER_ORIGIN || getRouteAccess(url.pathname) !== "private") return null;
  return `${url.pathname}${url.search}${url.hash}`;
}

/** /login, naming the private page a signed-out visitor asked for (none for the home page). */
export function getLoginPath({ pathname, search }: { pathname: string; search: string }): string {
  const returnPath = toSafeReturnPath(`${pathname}${search}`);
  if (!returnPath || returnPath === "/") return "/login";
  return `/login?${new URLSearchParams({ [RETURN_TO_PARAM]: returnPath })}`;
}
