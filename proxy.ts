// Route guards: a private route sends a signed-out visitor to /login, naming the page asked for
// (?returnTo=, a same-site path only: modules/auth/route-access.ts); a public-only route sends a
// signed-in one there, or to /. The guard reads the session cookie; our HTTP server
// (modules/server/web-role.ts) has already taken off a cookie whose session no longer holds and
// named it in INVALID_SESSION_COOKIES_HEADER, so such a visitor counts as signed out here and the
// cookie is cleared (docs/security.md). Pages and API routes verify the session themselves. An
// instance without billing has no checkout pages: 404 before anything else.
import { getSessionCookie } from "better-auth/cookies";
import { type NextRequest, NextResponse } from "next/server";
import { AUTH_COOKIE_PREFIX } from "@/modules/auth/auth.constants";
import { getLoginPath, getRouteAccess, isBillingPath, RETURN_TO_PARAM, toSafeReturnPath } from "@/modules/auth/route-access";
import { INVALID_SESSION_COOKIES_HEADER, parseInvalidSessionCookiesHeader } from "@/modules/auth/session-cookies";
import { loadConfig } from "@/modules/config/config";
import { readProcessServices } from "@/modules/server/process-services";

// No page answers here: a rewrite to it shows the 404 page with status 404 (a page's own
// notFound() would answer 200, its response being already streamed).
const UNROUTED_PATH = "/_hookmail/not-found";

/**
 * The configuration of the process's services (modules/server/process-services.ts): read without
 * bundling the services themselves into the guard; from the environment in a process `npm start`
 * did not start (`next dev`).
 */
const readConfig = () => readProcessServices()?.config ?? loadConfig(process.env);

export function proxy(request: NextRequest) {
  if (isBillingPath(request.nextUrl.pathname) && !readConfig().billing.isEnabled) {
    return NextResponse.rewrite(new URL(UNROUTED_PATH, request.url));
  }
  const access = getRouteAccess(request.nextUrl.pathname);
  if (access === "any") return NextResponse.next();
  const invalidCookies = parseInvalidSessionCookiesHeader(request.headers.get(INVALID_SESSION_COOKIES_HEADER));
  const hasSession = invalidCookies.length === 0 && Boolean(getSessionCookie(request, { cookiePrefix: AUTH_COOKIE_PREFIX }));
  let response = NextResponse.next();
  const { pathname, search, searchParams } = request.nextUrl;
  if (access === "private" && !hasSession) {
    response = NextResponse.redirect(new URL(getLoginPath({ pathname, search }), request.url));
  }
  if (access === "public-only" && hasSession) {
    response = NextResponse.redirect(new URL(toSafeReturnPath(searchParams.get(RETURN_TO_PARAM)) ?? "/", request.url));
  }
  for (const name of invalidCookies) {
    response.cookies.set(name, "", {
      path: "/",
      maxAge: 0,
      httpOnly: true,
      sameSite: "lax",
      secure: name.startsWith("__Secure-"),
    });
  }
  return response;
}

export const config = {
  matcher: ["/((?!api/|_next/|favicon.ico|.*\\.[a-z0-9]+$).*)"],
};
