// An endpoint's content filter (docs/webhooks.md: Filters): `{match, conditions: [{field, op, value}]}`.
// zod/mini, so that the address settings' form can validate with it too (docs/architecture.md:
// Decisions, the forms' schemas): it checks the shape, fields, operators and values, not whether a
// pattern compiles, which needs the engine (endpoint-filter.models.ts: parseEndpointFilter) and stays
// out of the browser's bundle. A bad field, operator or value answers 400 endpoint.invalid_filter
// with a message naming the condition; 0 or more than 20 conditions is a plain validation error.
import * as z from "zod/mini";
import {
  FILTER_HEADER_FIELD_PREFIX,
  FILTER_HEADER_NAME_MAX_LENGTH,
  FILTER_HEADER_NAME_PATTERN,
  FILTER_MATCHES,
  FILTER_MAX_CONDITIONS,
  FILTER_MIN_CONDITIONS,
  FILTER_PATTERN_MAX_LENGTH,
  FILTER_SCORE_OPERATORS,
  FILTER_SPAM_SCORE_FIELD,
  FILTER_TEXT_FIELDS,
  FILTER_TEXT_OPERATORS,
  FILTER_VALUE_MAX_LENGTH,
  type FilterHeaderField,
  type FilterMatch,
  type FilterScoreOperator,
  type FilterTextField,
  type FilterTextOperator,
} from "./endpoint-filter.constants";
import { ENDPOINT_INVALID_FILTER_CODE } from "./endpoint-filter.errors";

export type FilterTextCondition = { field: FilterTextField | FilterHeaderField; op: FilterTextOperator; value: string };
export type FilterScoreCondition = { field: typeof FILTER_SPAM_SCORE_FIELD; op: FilterScoreOperator; value: number };
export type FilterCondition = FilterTextCondition | FilterScoreCondition;
export type EndpointFilter = { match: FilterMatch; conditions: FilterCondition[] };

const isOneOf = <T extends string>(words: readonly T[], value: unknown): value is T =>
  typeof value === "string" && (words as readonly string[]).includes(value);

const quoteAll = (words: readonly string[]) => words.map((word) => `"${word}"`).join(", ");

/** What is wrong with a condition's field, or null. `header:<name>` takes an HTTP token as its name. */
function findFieldProblem(field: unknown): string | null {
  if (isOneOf(FILTER_TEXT_FIELDS, field) || field === FILTER_SPAM_SCORE_FIELD) return null;
  if (typeof field === "string" && field.startsWith(FILTER_HEADER_FIELD_PREFIX)) {
    const name = field.slice(FILTER_HEADER_FIELD_PREFIX.length);
    if (name.length > 0 && name.length <= FILTER_HEADER_NAME_MAX_LENGTH && FILTER_HEADER_NAME_PATTERN.test(name)) return null;
    return `"header:" must be followed by a header name: letters, digits and !#$%&'*+-.^_\`|~, at most ${FILTER_HEADER_NAME_MAX_LENGTH} characters`;
  }
  const known = quoteAll([...FILTER_TEXT_FIELDS, FILTER_SPAM_SCORE_FIELD, "header:<name>"]);
  return field === undefined ? `the field is missing (one of ${known})` : `the field must be one of ${known}`;
}

/** What is wrong with the operator for this field, or null. */
function findOperatorProblem(field: string, op: unknown): string | null {
  const operators = field === FILTER_SPAM_SCORE_FIELD ? FILTER_SCORE_OPERATORS : FILTER_TEXT_OPERATORS;
  if (isOneOf<string>(operators, op)) return null;
  return `the operator for "${field}" must be one of ${quoteAll(operators)}`;
}

/** What is wrong with the value for this field and operator, or null (a pattern's compiling is checked apart). */
function findValueProblem(field: string, op: string, value: unknown): string | null {
  if (field === FILTER_SPAM_SCORE_FIELD) {
    return typeof value === "number" && Number.isFinite(value) ? null : "the value of spam.score must be a number";
  }
  if (typeof value !== "string" || value.length === 0) return "the value must be a text of at least one character";
  const maxLength = op === "matches" ? FILTER_PATTERN_MAX_LENGTH : FILTER_VALUE_MAX_LENGTH;
  if (value.length > maxLength) {
    return `the ${op === "matches" ? "pattern" : "value"} is longer than ${maxLength} characters`;
  }
  return null;
}

type ConditionInput = { field?: unknown; op?: unknown; value?: unknown };

/** The first problem of a condition, and which of its keys it is about. */
function findConditionProblem({ field, op, value }: ConditionInput): { key: string; problem: string } | null {
  const fieldProblem = findFieldProblem(field);
  if (fieldProblem) return { key: "field", problem: fieldProblem };
  const operatorProblem = findOperatorProblem(field as string, op);
  if (operatorProblem) return { key: "op", problem: operatorProblem };
  const valueProblem = findValueProblem(field as string, op as string, value);
  return valueProblem ? { key: "value", problem: valueProblem } : null;
}

/** How messages name a condition: its place (from 1) and its field when it has a readable one. */
export function nameCondition(index: number, field: unknown): string {
  const shown = typeof field === "string" && field.length <= 80 ? ` ("${field}")` : "";
  return `Condition ${index + 1}${shown}`;
}

/** A filter's issue that answers 400 endpoint.invalid_filter (modules/shared/errors: createInvalidBodyError). */
const invalidFilterIssue = (message: string, path: (string | number)[], input: unknown) => ({
  code: "custom" as const,
  message,
  path,
  input,
  params: { appErrorCode: ENDPOINT_INVALID_FILTER_CODE },
});

const filterInputSchema = z.object({
  match: z.optional(z.unknown()),
  conditions: z
    .array(z.object({ field: z.optional(z.unknown()), op: z.optional(z.unknown()), value: z.optional(z.unknown()) }))
    .check(
      z.minLength(FILTER_MIN_CONDITIONS, `A filter has at least ${FILTER_MIN_CONDITIONS} condition.`),
      z.maxLength(FILTER_MAX_CONDITIONS, `A filter has at most ${FILTER_MAX_CONDITIONS} conditions.`),
    ),
});

/** A header field's name ignores case: it is kept lowercased. */
const normalizeField = (field: string) => (field.startsWith(FILTER_HEADER_FIELD_PREFIX) ? field.toLowerCase() : field);

export const endpointFilterSchema = z.pipe(
  filterInputSchema.check(
    z.superRefine((filter, context) => {
      if (!isOneOf(FILTER_MATCHES, filter.match)) {
        const message = `The filter's match must be ${quoteAll(FILTER_MATCHES)}.`;
        context.addIssue(invalidFilterIssue(message, ["match"], filter.match));
      }
      filter.conditions.forEach((condition, index) => {
        const found = findConditionProblem(condition);
        if (!found) return;
        const message = `${nameCondition(index, condition.field)}: ${found.problem}.`;
        const key = found.key as keyof ConditionInput;
        context.addIssue(invalidFilterIssue(message, ["conditions", index, key], condition[key]));
      });
    }),
  ),
  z.transform(
    ({ match, conditions }): EndpointFilter => ({
      match: match as FilterMatch,
      conditions: conditions.map(
        ({ field, op, value }) => ({ field: normalizeField(field as string), op, value }) as FilterCondition,
      ),
    }),
  ),
);

export type EndpointFilterInput = z.input<typeof endpointFilterSchema>;
