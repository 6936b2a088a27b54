// A filter as the server accepts it: the schema's checks (endpoint-filter.schemas.ts), then every
// `matches` pattern compiled by the engine that will run it (endpoint-filter.patterns.ts), within the
// limits that bound its cost (docs/webhooks.md: Filters).
import { en } from "zod/locales";
import { safeParse } from "zod/v4/core";
import { createInvalidBodyError } from "@/modules/shared/errors/app-error";
import { toFieldIssues } from "@/modules/shared/errors/error-response";
import { FILTER_MAX_TOTAL_PATTERN_INSTRUCTIONS } from "./endpoint-filter.constants";
import { createInvalidFilterError } from "./endpoint-filter.errors";
import { tryCompileFilterPattern } from "./endpoint-filter.patterns";
import { type EndpointFilter, endpointFilterSchema, nameCondition } from "./endpoint-filter.schemas";

/**
 * Throws 400 endpoint.invalid_filter when a `matches` pattern does not compile, is longer to run than
 * one pattern may be, or when the filter's patterns together are. `path` is where the filter sits in
 * the request's body (the fields of the answer name it).
 */
export function ensureEndpointFilterPatternsCompile(filter: EndpointFilter, path: string[] = []): void {
  let totalInstructions = 0;
  filter.conditions.forEach((condition, index) => {
    if (condition.op !== "matches") return;
    const { pattern, problem } = tryCompileFilterPattern(condition.value);
    if (problem) {
      const message = `${nameCondition(index, condition.field)}: the pattern ${problem.message}.`;
      const field = { path: [...path, "conditions", String(index), "value"].join("."), code: problem.reason, message };
      throw createInvalidFilterError(message, [field]);
    }
    totalInstructions += pattern.instructions;
  });
  if (totalInstructions > FILTER_MAX_TOTAL_PATTERN_INSTRUCTIONS) {
    const message = `The filter's patterns are too complex together (${totalInstructions} steps once compiled, at most ${FILTER_MAX_TOTAL_PATTERN_INSTRUCTIONS}).`;
    throw createInvalidFilterError(message, [{ path: [...path, "conditions"].join("."), code: "too_complex", message }]);
  }
}

/**
 * A filter from any input: 400 endpoint.invalid_filter for a bad field, operator, value or pattern
 * (the message names the condition), 400 request.invalid_body for a body that is no filter at all
 * or holds 0 or more than 20 conditions.
 */
export function parseEndpointFilter(input: unknown): EndpointFilter {
  const parsed = safeParse(endpointFilterSchema, input, { error: en().localeError });
  if (!parsed.success) throw createInvalidBodyError(toFieldIssues(parsed.error));
  ensureEndpointFilterPatternsCompile(parsed.data);
  return parsed.data;
}
