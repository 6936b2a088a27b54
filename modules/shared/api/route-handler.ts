// The thin edge of every API route: errors mapped once, the caller resolved once, and the
// request's body or query parsed with the feature's zod schema.
import type { z } from "zod";
import { createApiKeysSessionRequiredError } from "@/modules/api-keys/api-keys.errors";
import { CALLER_KINDS, findCaller, type Caller, type CallerKind } from "@/modules/auth/caller";
import { AppError, createInvalidBodyError, createInvalidQueryError, createUnauthorizedError } from "../errors/app-error";
import { toErrorResponse, toFieldIssues } from "../errors/error-response";

type RouteContext<Params> = { params: Promise<Params> };

/** A public route: any thrown error becomes the API's error body. */
export function withErrors<Params = Record<string, never>>(
  handler: (args: { request: Request; params: Params }) => Promise<Response>,
) {
  return async (request: Request, context: RouteContext<Params>) => {
    try {
      return await handler({ request, params: await context.params });
    } catch (error) {
      return toErrorResponse(error);
    }
  };
}

export type WithCallerOptions = {
  /** The kinds of caller the route serves (default: both); another kind gets 403. */
  allow?: readonly CallerKind[];
};

/**
 * A route for signed-in callers only (a session, or an API key unless `allow` leaves it out):
 * answers 401 auth.unauthorized when there is none, 403 when its kind is not allowed
 * (api_keys.session_required for an API key on a session-only route).
 */
export function withCaller<Params = Record<string, never>>(
  handler: (args: { request: Request; params: Params; caller: Caller }) => Promise<Response>,
  { allow = CALLER_KINDS }: WithCallerOptions = {},
) {
  return withErrors<Params>(async ({ request, params }) => {
    const caller = await findCaller(request);
    if (!caller) throw createUnauthorizedError();
    if (!allow.includes(caller.via)) throw createCallerKindNotAllowedError(caller.via);
    return handler({ request, params, caller });
  });
}

function createCallerKindNotAllowedError(via: CallerKind): AppError {
  if (via === "api-key") return createApiKeysSessionRequiredError();
  return new AppError({ code: "auth.forbidden", message: "This call needs an API key." });
}

export async function parseJsonBody<Schema extends z.ZodType>(
  request: Request,
  schema: Schema,
): Promise<z.output<Schema>> {
  let body: unknown;
  try {
    body = await request.json();
  } catch {
    throw createInvalidBodyError([{ path: "", code: "invalid_json", message: "The body must be valid JSON." }]);
  }
  const parsed = schema.safeParse(body);
  if (!parsed.success) throw createInvalidBodyError(toFieldIssues(parsed.error));
  return parsed.data;
}

export function parseSearchParams<Schema extends z.ZodType>(request: Request, schema: Schema): z.output<Schema> {
  const query = Object.fromEntries(new URL(request.url).searchParams);
  const parsed = schema.safeParse(query);
  if (!parsed.success) throw createInvalidQueryError(toFieldIssues(parsed.error));
  return parsed.data;
}
