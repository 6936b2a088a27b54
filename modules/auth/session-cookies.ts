// The session cookies better-auth sets (`hookmail.session_token`, `__Secure-` prefixed over https)
// and how the web role hands an invalid one over to the route guard (proxy.ts): a cookie whose
// signature no longer verifies (AUTH_SECRET changed) or whose session is gone (signed out
// elsewhere, expired, revoked) must not count as signed in, or the guard would send the visitor
// from /login back to / forever.
import { AUTH_COOKIE_PREFIX } from "./auth.constants";

/**
 * Set by our HTTP server on a page request whose session cookies it found invalid (any value a
 * client sends is removed): the names of those cookies, comma-separated, for the guard to clear.
 */
export const INVALID_SESSION_COOKIES_HEADER = "x-hookmail-invalid-session-cookies";

const SESSION_COOKIE_NAME_PATTERN = new RegExp(
  `^(__Secure-)?${AUTH_COOKIE_PREFIX.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}\\.(session_token|session_data|dont_remember)$`,
);

export function isSessionCookieName(name: string): boolean {
  return SESSION_COOKIE_NAME_PATTERN.test(name);
}

function splitCookieHeader(cookieHeader: string): { name: string; pair: string }[] {
  return cookieHeader
    .split(";")
    .map((pair) => pair.trim())
    .filter(Boolean)
    .map((pair) => ({ name: pair.split("=")[0]!.trim(), pair }));
}

/** The names of the session cookies a Cookie header carries. */
export function findSessionCookieNames(cookieHeader: string | undefined): string[] {
  if (!cookieHeader) return [];
  return [
    ...new Set(
      splitCookieHeader(cookieHeader)
        .map(({ name }) => name)
        .filter(isSessionCookieName),
    ),
  ];
}

/** The Cookie header without its session cookies (other cookies, such as the locale, stay). */
export function removeSessionCookies(cookieHeader: string): string {
  return splitCookieHeader(cookieHeader)
    .filter(({ name }) => !isSessionCookieName(name))
    .map(({ pair }) => pair)
    .join("; ");
}

/** The session cookie names named by INVALID_SESSION_COOKIES_HEADER, ignoring anything else. */
export function parseInvalidSessionCookiesHeader(value: string | null): string[] {
  if (!value) return [];
  return value
    .split(",")
    .map((name) => name.trim())
    .filter(isSessionCookieName);
}
