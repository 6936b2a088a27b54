// The thin edge of every API route: errors mapped once, path segments checked, and the request's
// body or query parsed with the feature's zod schema (docs/security.md). Routes for signed-in
// callers wrap their handler in withCaller (modules/auth/with-caller.ts), built on withErrors. Routes
// use both through modules/server/routes.ts, which hands them the process's services
// (docs/architecture.md: The parts).
import { en } from "zod/locales";
import { type $ZodType, type output, safeParse } from "zod/v4/core";
import { createInvalidBodyError, createInvalidQueryError, createNotFoundError, type FieldIssue } from "../errors/app-error";
import { toErrorResponse, toFieldIssues } from "../errors/error-response";
import type { Logger } from "../logging/logger";

type RouteContext<Params> = { params: Promise<Params> };

/**
 * Path segments (ids, provider names, indexes) are letters, digits, `_` and `-`: anything else,
 * a NUL byte included, names nothing and answers 404 before it reaches the database.
 */
export const PATH_SEGMENT_PATTERN = /^[A-Za-z0-9_-]{1,128}$/;

/**
 * The English messages of the issues zod words itself (a wrong type, an unknown key, a bound without
 * a message of ours), whatever the schema's flavour: zod/mini, which the forms' schemas use, loads no
 * locale of its own (docs/architecture.md: Decisions, the forms' schemas).
 */
const ENGLISH_ISSUE_MESSAGES = { error: en().localeError };

/** What every route needs of the process's services: where an internal error is logged. */
export type RouteServices = { logger: Logger };

/**
 * A public route: any thrown error becomes the API's error body. The handler is given the services
 * `getServices` answers at the time of the request (not when the route module loads: `next build`
 * loads it too).
 */
export function withErrors<Params = Record<string, never>, Services extends RouteServices = RouteServices>(
  getServices: () => Services,
  handler: (args: { request: Request; params: Params; services: Services }) => Promise<Response>,
) {
  return async (request: Request, context: RouteContext<Params>) => {
    const services = getServices();
    try {
      const params = await context.params;
      ensurePathSegmentsAreWellFormed(params);
      return await handler({ request, params, services });
    } catch (error) {
      return toErrorResponse(error, services.logger);
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

export async function parseJsonBody<Schema extends $ZodType>(request: Request, schema: Schema): Promise<output<Schema>> {
  return parseJsonText(await request.text(), schema);
}

/** parseJsonBody for a call whose body may be left out: an empty body reads as `{}`. */
export async function parseOptionalJsonBody<Schema extends $ZodType>(request: Request, schema: Schema): Promise<output<Schema>> {
  const text = await request.text();
  return parseJsonText(text.trim() === "" ? "{}" : text, schema);
}

function parseJsonText<Schema extends $ZodType>(text: string, schema: Schema): output<Schema> {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw createInvalidBodyError([{ path: "", code: "invalid_json", message: "The body must be valid JSON." }]);
  }
  const nulIssues = findNulByteIssues(body);
  if (nulIssues.length > 0) throw createInvalidBodyError(nulIssues);
  const parsed = safeParse(schema, body, ENGLISH_ISSUE_MESSAGES);
  if (!parsed.success) throw createInvalidBodyError(toFieldIssues(parsed.error));
  return parsed.data;
}

/**
 * Every string of a parsed body (keys included) is free of NUL bytes: PostgreSQL cannot store one
 * in text, and no name, address or URL needs it. One check here covers every field of every route.
 */
function findNulByteIssues(value: unknown, path: string[] = []): FieldIssue[] {
  const issue = (at: string[]): FieldIssue => ({
    path: at.join("."),
    code: "invalid_string",
    message: "Text must not contain NUL bytes.",
  });
  if (typeof value === "string") return value.includes("\u0000") ? [issue(path)] : [];
  if (Array.isArray(value)) return value.flatMap((item, index) => findNulByteIssues(item, [...path, String(index)]));
  if (typeof value === "object" && value !== null) {
    return Object.entries(value).flatMap(([key, item]) =>
      key.includes("\u0000") ? [issue([...path, key])] : findNulByteIssues(item, [...path, key]),
    );
  }
  return [];
}

export function parseSearchParams<Schema extends $ZodType>(request: Request, schema: Schema): output<Schema> {
  const query = Object.fromEntries(new URL(request.url).searchParams);
  const nulIssues = findNulByteIssues(query);
  if (nulIssues.length > 0) throw createInvalidQueryError(nulIssues);
  const parsed = safeParse(schema, query, ENGLISH_ISSUE_MESSAGES);
  if (!parsed.success) throw createInvalidQueryError(toFieldIssues(parsed.error));
  return parsed.data;
}
