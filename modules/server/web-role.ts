// The web role: Next.js (pages, API routes and the auth endpoints) on PORT, every response with
// the security headers, a path Next.js cannot decode answered before it (malformed-path.ts), and
// page requests checked for a session cookie that no longer holds.
import http from "node:http";
import next from "next";
import { CLIENT_IP_HEADER } from "@/modules/auth/auth.constants";
import type { Auth } from "@/modules/auth/auth.server";
import { getRouteAccess } from "@/modules/auth/route-access";
import { findSessionCookieNames, INVALID_SESSION_COOKIES_HEADER, removeSessionCookies } from "@/modules/auth/session-cookies";
import type { Config } from "@/modules/config/config";
import { DOWNLOAD_LENGTH_HEADER } from "@/modules/shared/api/download-length";
import { answerMalformedPath } from "./malformed-path";
import { buildSecurityHeaders } from "./security-headers";
import type { Services } from "./services";

export type RunningRole = { name: string; stop: () => Promise<void> };

/**
 * A connection on which nothing moves for this long is closed. A response body that gives up on a
 * client that stopped reading (a live event stream cut off) cannot close the connection itself:
 * Next.js ends it only once the client took the chunk under way, which a client that reads nothing
 * never does (docs/security.md: Live events). Live streams send a comment every 15 s.
 */
const IDLE_CONNECTION_TIMEOUT_MS = 60_000;

export async function startWebRole({
  config,
  projectDir,
  auth,
}: Pick<Services, "config" | "projectDir" | "auth">): Promise<RunningRole> {
  const app = next({ dev: false, dir: projectDir, port: config.port });
  await app.prepare();
  const server = http.createServer(createWebRequestListener({ config, auth, handle: app.getRequestHandler() }));
  server.timeout = IDLE_CONNECTION_TIMEOUT_MS;
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
  auth,
  handle,
}: {
  config: Config;
  /** The process's auth, made on first use (services.ts). */
  auth: () => Promise<Auth>;
  handle: (request: http.IncomingMessage, response: http.ServerResponse) => Promise<void>;
}): http.RequestListener {
  const securityHeaders = Object.entries(buildSecurityHeaders(config));
  return (request, response) => {
    setDefaultHeaders(response, securityHeaders);
    if (answerMalformedPath(request, response)) return;
    // The rate limiter keys on the connecting address; a client cannot choose it.
    request.headers[CLIENT_IP_HEADER] = request.socket.remoteAddress ?? "";
    void dropInvalidSessionCookies(request, auth)
      .catch(() => undefined)
      .then(() => handle(request, response));
  };
}

/**
 * Gives the response each of `headers` it has not set itself, just before its head is sent. Set
 * earlier, they would win: Next.js leaves out a route's header the response already has, so a
 * download would go out with the pages' policy instead of its own (docs/security.md). A download's
 * length goes out as its Content-Length (modules/shared/api/download-length.ts).
 */
function setDefaultHeaders(response: http.ServerResponse, headers: [string, string][]) {
  const writeHead = response.writeHead;
  response.writeHead = function (this: http.ServerResponse, ...args: Parameters<typeof writeHead>) {
    for (const [name, value] of headers) if (!this.hasHeader(name)) this.setHeader(name, value);
    // Next.js drops a route's Content-Length: a download names its length for us to send (a compressed body has none).
    const downloadLength = this.getHeader(DOWNLOAD_LENGTH_HEADER);
    if (downloadLength !== undefined) {
      this.removeHeader(DOWNLOAD_LENGTH_HEADER);
      if (!this.hasHeader("Content-Encoding")) this.setHeader("Content-Length", downloadLength);
    }
    return writeHead.apply(this, args);
  } as typeof writeHead;
}

/**
 * A guarded page requested with a session cookie that no longer verifies (bad signature after
 * AUTH_SECRET changed, session deleted or expired) reaches the route guard as signed out: the
 * cookies are taken off the request and named in INVALID_SESSION_COOKIES_HEADER, which the guard
 * (proxy.ts) reads to clear them in the browser. The session is read without refreshing it, so
 * this check never changes a valid session. API routes verify the session themselves.
 */
async function dropInvalidSessionCookies(request: http.IncomingMessage, openAuth: () => Promise<Auth>) {
  delete request.headers[INVALID_SESSION_COOKIES_HEADER];
  const cookieHeader = request.headers.cookie;
  const sessionCookies = findSessionCookieNames(cookieHeader);
  if (!cookieHeader || !sessionCookies.some((name) => name.endsWith(".session_token"))) return;
  const pathname = new URL(request.url ?? "/", "http://localhost").pathname;
  if (getRouteAccess(pathname) === "any") return;
  let session: unknown;
  try {
    const auth = await openAuth();
    session = await auth.api.getSession({ headers: new Headers({ cookie: cookieHeader }), query: { disableRefresh: true } });
  } catch {
    return; // The database is unreachable: the page's own calls will tell.
  }
  if (session) return;
  request.headers.cookie = removeSessionCookies(cookieHeader);
  request.headers[INVALID_SESSION_COOKIES_HEADER] = sessionCookies.join(",");
}
