// The web role: Next.js (pages, API routes and the auth endpoints) on PORT, every response with
// the security headers, a path Next.js cannot decode answered before it (malformed-path.ts), and
// page requests checked for a session cookie that no longer holds.
import http from "node:http";
import next from "next";
import { CLIENT_IP_HEADER } from "@/modules/auth/auth.constants";
import { getAuth } from "@/modules/auth/auth.server";
import { getRouteAccess } from "@/modules/auth/route-access";
import { findSessionCookieNames, INVALID_SESSION_COOKIES_HEADER, removeSessionCookies } from "@/modules/auth/session-cookies";
import type { Config } from "@/modules/config/config";
import { answerMalformedPath } from "./malformed-path";
import { buildSecurityHeaders } from "./security-headers";

export type RunningRole = { name: string; stop: () => Promise<void> };

export async function startWebRole({ config, projectDir }: { config: Config; projectDir: string }): Promise<RunningRole> {
  const app = next({ dev: false, dir: projectDir, port: config.port });
  await app.prepare();
  const server = http.createServer(createWebRequestListener({ config, handle: app.getRequestHandler() }));
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(config.port, () => resolve());
  });
  return {
    name: "web",
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** What the web role's server does with each request before and around Next.js's `handle`. */
export function createWebRequestListener({
  config,
  handle,
}: {
  config: Config;
  handle: (request: http.IncomingMessage, response: http.ServerResponse) => Promise<void>;
}): http.RequestListener {
  const securityHeaders = Object.entries(buildSecurityHeaders(config));
  return (request, response) => {
    for (const [name, value] of securityHeaders) response.setHeader(name, value);
    if (answerMalformedPath(request, response)) return;
    // The rate limiter keys on the connecting address; a client cannot choose it.
    request.headers[CLIENT_IP_HEADER] = request.socket.remoteAddress ?? "";
    void dropInvalidSessionCookies(request)
      .catch(() => undefined)
      .then(() => handle(request, response));
  };
}

/**
 * A guarded page requested with a session cookie that no longer verifies (bad signature after
 * AUTH_SECRET changed, session deleted or expired) reaches the route guard as signed out: the
 * cookies are taken off the request and named in INVALID_SESSION_COOKIES_HEADER, which the guard
 * (proxy.ts) reads to clear them in the browser. The session is read without refreshing it, so
 * this check never changes a valid session. API routes verify the session themselves.
 */
async function dropInvalidSessionCookies(request: http.IncomingMessage) {
  delete request.headers[INVALID_SESSION_COOKIES_HEADER];
  const cookieHeader = request.headers.cookie;
  const sessionCookies = findSessionCookieNames(cookieHeader);
  if (!cookieHeader || !sessionCookies.some((name) => name.endsWith(".session_token"))) return;
  const pathname = new URL(request.url ?? "/", "http://localhost").pathname;
  if (getRouteAccess(pathname) === "any") return;
  let session: unknown;
  try {
    const auth = await getAuth();
    session = await auth.api.getSession({ headers: new Headers({ cookie: cookieHeader }), query: { disableRefresh: true } });
  } catch {
    return; // The database is unreachable: the page's own calls will tell.
  }
  if (session) return;
  request.headers.cookie = removeSessionCookies(cookieHeader);
  request.headers[INVALID_SESSION_COOKIES_HEADER] = sessionCookies.join(",");
}
