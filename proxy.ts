// Route guards (specification §2): a private route sends a signed-out visitor to /login; a
// public-only route sends a signed-in one to /. This is the optimistic check on the session
// cookie; pages and API routes verify the session itself.
import { getSessionCookie } from "better-auth/cookies";
import { NextResponse, type NextRequest } from "next/server";
import { AUTH_COOKIE_PREFIX } from "@/modules/auth/auth.constants";
import { getRouteAccess } from "@/modules/auth/route-access";

export function proxy(request: NextRequest) {
  const access = getRouteAccess(request.nextUrl.pathname);
  if (access === "any") return NextResponse.next();
  const hasSession = Boolean(getSessionCookie(request, { cookiePrefix: AUTH_COOKIE_PREFIX }));
  if (access === "private" && !hasSession) return NextResponse.redirect(new URL("/login", request.url));
  if (access === "public-only" && hasSession) return NextResponse.redirect(new URL("/", request.url));
  return NextResponse.next();
}

export const config = {
  matcher: ["/((?!api/|_next/|favicon.ico|.*\\.[a-z0-9]+$).*)"],
};
