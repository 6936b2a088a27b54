// The thin edge of every API route: errors mapped once, the caller resolved once, and the
// request's body or query parsed with the feature's zod schema.
import type { z } from "zod";
import { findCaller, type Caller } from "@/modules/auth/caller";
import { createInvalidBodyError, createInvalidQueryError, createUnauthorizedError } from "../errors/app-error";
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

/** A route for signed-in callers only: answers 401 auth.unauthorized when there is none. */
export function withCaller<Params = Record<string, never>>(
  handler: (args: { request: Request; params: Params; caller: Caller }) => Promise<Response>,
) {
  return withErrors<Params>(async ({ request, params }) => {
    const caller = await findCaller(request);
    if (!caller) throw createUnauthorizedError();
    return handler({ request, params, caller });
  });
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
