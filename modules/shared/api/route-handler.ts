// The thin edge of every API route: errors mapped once, the caller resolved once, cookie writes
// held to the app's own origin and to JSON, and the request's body or query parsed with the
// feature's zod schema (docs/security.md).
import type { z } from "zod";
import { createApiKeysSessionRequiredError } from "@/modules/api-keys/api-keys.errors";
import { CALLER_KINDS, findCaller, type Caller, type CallerKind } from "@/modules/auth/caller";
import { getConfig } from "@/modules/config/config";
import {
  AppError,
  createInvalidBodyError,
  createInvalidQueryError,
  createNotFoundError,
  createUnauthorizedError,
  type FieldIssue,
} from "../errors/app-error";
import { toErrorResponse, toFieldIssues } from "../errors/error-response";
import { assertSameOriginJsonWrite } from "./cross-site";

type RouteContext<Params> = { params: Promise<Params> };

/**
 * Path segments (ids, provider names, indexes) are letters, digits, `_` and `-`: anything else,
 * a NUL byte included, names nothing and answers 404 before it reaches the database.
 */
const PATH_SEGMENT_PATTERN = /^[A-Za-z0-9_-]{1,128}$/;

/** A public route: any thrown error becomes the API's error body. */
export function withErrors<Params = Record<string, never>>(
  handler: (args: { request: Request; params: Params }) => Promise<Response>,
) {
  return async (request: Request, context: RouteContext<Params>) => {
    try {
      const params = await context.params;
      ensurePathSegmentsAreWellFormed(params);
      return await handler({ request, params });
    } catch (error) {
      return toErrorResponse(error);
    }
  };
}

function ensurePathSegmentsAreWellFormed(params: unknown) {
  if (typeof params !== "object" || params === null) return;
  for (const value of Object.values(params)) {
    const segments: unknown[] = Array.isArray(value) ? value : [value];
    if (segments.some((segment) => typeof segment === "string" && !PATH_SEGMENT_PATTERN.test(segment))) {
      throw createNotFoundError();
    }
  }
}

/** API keys reach these paths only; every other call needs a session (docs/security.md). */
const API_KEY_PATH_PREFIXES = ["/api/email-callbacks", "/api/openapi.json"] as const;

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
 * /api/email-callbacks). A write by the session cookie must come from the app's own origin (else
 * 403 request.cross_site) as JSON (else 415), checked before the handler reads or changes anything.
 */
export function withCaller<Params = Record<string, never>>(
  handler: (args: { request: Request; params: Params; caller: Caller }) => Promise<Response>,
  { allow = CALLER_KINDS }: WithCallerOptions = {},
) {
  return withErrors<Params>(async ({ request, params }) => {
    const caller = await findCaller(request);
    if (!caller) throw createUnauthorizedError();
    if (caller.via === "session") assertSameOriginJsonWrite(request, getConfig().baseUrl);
    if (!allow.includes(caller.via)) throw createCallerKindNotAllowedError(caller.via);
    if (caller.via === "api-key" && !isApiKeyPath(new URL(request.url).pathname)) {
      throw createApiKeysSessionRequiredError();
    }
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
  const nulIssues = findNulByteIssues(body);
  if (nulIssues.length > 0) throw createInvalidBodyError(nulIssues);
  const parsed = schema.safeParse(body);
  if (!parsed.success) throw createInvalidBodyError(toFieldIssues(parsed.error));
  return parsed.data;
}

/**
 * Every string of a parsed body (keys included) is free of NUL bytes: PostgreSQL cannot store one
 * in text, and no name, address or URL needs it. One check here covers every field of every route.
 */
function findNulByteIssues(value: unknown, path: string[] = []): FieldIssue[] {
  const issue = (at: string[]): FieldIssue => ({ path: at.join("."), code: "invalid_string", message: "Text must not contain NUL bytes." });
  if (typeof value === "string") return value.includes("\u0000") ? [issue(path)] : [];
  if (Array.isArray(value)) return value.flatMap((item, index) => findNulByteIssues(item, [...path, String(index)]));
  if (typeof value === "object" && value !== null) {
    return Object.entries(value).flatMap(([key, item]) =>
      key.includes("\u0000") ? [issue([...path, key])] : findNulByteIssues(item, [...path, key]),
    );
  }
  return [];
}

export function parseSearchParams<Schema extends z.ZodType>(request: Request, schema: Schema): z.output<Schema> {
  const query = Object.fromEntries(new URL(request.url).searchParams);
  const nulIssues = findNulByteIssues(query);
  if (nulIssues.length > 0) throw createInvalidQueryError(nulIssues);
  const parsed = schema.safeParse(query);
  if (!parsed.success) throw createInvalidQueryError(toFieldIssues(parsed.error));
  return parsed.data;
}
