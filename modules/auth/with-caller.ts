// Routes for signed-in callers: the caller resolved once, its kind checked against the route, and
// cookie writes held to the app's own origin and to JSON (docs/security.md).
import { createApiKeysSessionRequiredError } from "@/modules/api-keys/api-keys.errors";
import type { Config } from "@/modules/config/config";
import { assertSameOriginJsonWrite } from "@/modules/shared/api/cross-site";
import { type RouteServices, withErrors } from "@/modules/shared/api/route-handler";
import { AppError, createUnauthorizedError } from "@/modules/shared/errors/app-error";
import { CALLER_KINDS, type Caller, type CallerKind, type CallerLookup, findCaller } from "./caller";

/** What a signed-in route needs of the process's services. */
export type CallerServices = RouteServices & CallerLookup & { config: Pick<Config, "baseUrl"> };

/** API keys reach these paths only; every other call needs a session (docs/security.md). */
const API_KEY_PATH_PREFIXES = ["/api/email-callbacks", "/api/domains", "/api/openapi.json"] as const;

function isApiKeyPath(pathname: string) {
  return API_KEY_PATH_PREFIXES.some((prefix) => pathname === prefix || pathname.startsWith(`${prefix}/`));
}

export type WithCallerOptions = {
  /** The kinds of caller the route serves (default: both); another kind gets 403. */
  allow?: readonly CallerKind[];
};

/**
 * A route for signed-in callers only (a session, or an API key unless `allow` leaves it out):
 * answers 401 auth.unauthorized when there is none, 403 when its kind is not allowed
 * (api_keys.session_required for an API key on a session-only route, or on any path outside
 * /api/email-callbacks and /api/domains). A write by the session cookie must come from the app's own origin (else
 * 403 request.cross_site) as JSON (else 415), checked before the handler reads or changes anything.
 */
export function withCaller<Params = Record<string, never>, Services extends CallerServices = CallerServices>(
  getServices: () => Services,
  handler: (args: { request: Request; params: Params; caller: Caller; services: Services }) => Promise<Response>,
  { allow = CALLER_KINDS }: WithCallerOptions = {},
) {
  return withErrors<Params, Services>(getServices, async ({ request, params, services }) => {
    const caller = await findCaller(request, services);
    if (!caller) throw createUnauthorizedError();
    if (caller.via === "session") assertSameOriginJsonWrite(request, services.config.baseUrl);
    if (!allow.includes(caller.via)) throw createCallerKindNotAllowedError(caller.via);
    if (caller.via === "api-key" && !isApiKeyPath(new URL(request.url).pathname)) {
      throw createApiKeysSessionRequiredError();
    }
    return handler({ request, params, caller, services });
  });
}

function createCallerKindNotAllowedError(via: CallerKind): AppError {
  if (via === "api-key") return createApiKeysSessionRequiredError();
  return new AppError({ code: "auth.forbidden", message: "This call needs an API key." });
}
