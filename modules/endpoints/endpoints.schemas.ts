// The schemas of an address's endpoints (docs/webhooks.md: Endpoints), for the API routes and the
// endpoint form. The URL and an HMAC secret of the caller's own follow the address form's rules
// (email-callbacks.schemas.ts); where the URL leads is checked when it is saved (endpoint-url.ts).
// A custom header that breaks a rule answers 400 endpoint.invalid_header, with a message that names
// it. zod/mini, like the address form's schema; messages are i18n keys where a form shows them.
import * as z from "zod/mini";
import { ENDPOINT_FORMATS } from "@/modules/delivery/delivery.constants";
import { webhookSecretSchema, webhookUrlSchema } from "@/modules/email-callbacks/email-callbacks.schemas";
import { endpointFilterSchema } from "./endpoint-filter.schemas";
import {
  ENDPOINT_HEADER_NAME_MAX_LENGTH,
  ENDPOINT_HEADER_VALUE_MAX_BYTES,
  ENDPOINT_TIMEOUT_MAX_MS,
  ENDPOINT_TIMEOUT_MIN_MS,
  MAX_ENDPOINT_HEADERS,
} from "./endpoints.constants";
import { findHeaderProblem, type HeaderProblem } from "./endpoints.models";

const INVALID_HEADER = { appErrorCode: "endpoint.invalid_header" } as const;

export const endpointUrlSchema = webhookUrlSchema;

export const endpointFormatSchema = z.enum(ENDPOINT_FORMATS, { error: "endpoints.validation.formatInvalid" });

/** A secret of the caller's own, as the address form takes one, but never empty: leave it out to get a generated one. */
const hmacSecretSchema = webhookSecretSchema.check(z.minLength(1, "emailCallbacks.form.validation.webhookSecretTooShort"));

/**
 * `{scheme: "hmac", secret?}` or `{scheme: "ed25519"}`. `none` is never chosen: only an address's
 * first endpoint has it, when the address has no secret.
 */
export const endpointSigningSchema = z.discriminatedUnion(
  "scheme",
  [
    z.strictObject({ scheme: z.literal("hmac"), secret: z.optional(hmacSecretSchema) }),
    z.strictObject({ scheme: z.literal("ed25519") }),
  ],
  { error: "endpoints.validation.signingSchemeInvalid" },
);

/** The header's name as a message shows it: quoted, and cut when it is long. */
function quoteHeaderName(name: string): string {
  return JSON.stringify(name.length > 64 ? `${name.slice(0, 64)}…` : name);
}

const HEADER_PROBLEM_SENTENCES: Record<HeaderProblem | "duplicate", string> = {
  "name-invalid": `is not a header name: at most ${ENDPOINT_HEADER_NAME_MAX_LENGTH} letters, digits and !#$%&'*+-.^_\`|~`,
  "name-reserved": "cannot be set: Hookmail sets it, or it frames the request",
  "value-invalid": "has a line break, a NUL or another control character in its value",
  "value-too-long": `has a value over ${ENDPOINT_HEADER_VALUE_MAX_BYTES} bytes`,
  duplicate: "is given twice (header names ignore case)",
};

function describeHeaderProblem(name: string, problem: HeaderProblem | "duplicate"): string {
  return `Header ${quoteHeaderName(name)} ${HEADER_PROBLEM_SENTENCES[problem]}.`;
}

/**
 * The problem of each header, in order: its own (findHeaderProblem), else a name already given in
 * another case.
 */
function findHeaderProblems(headers: [name: string, value: string][]): { index: number; problem: HeaderProblem | "duplicate" }[] {
  const seen = new Set<string>();
  const problems: { index: number; problem: HeaderProblem | "duplicate" }[] = [];
  headers.forEach(([name, value], index) => {
    const problem = findHeaderProblem(name, value) ?? (seen.has(name.toLowerCase()) ? "duplicate" : null);
    seen.add(name.toLowerCase());
    if (problem) problems.push({ index, problem });
  });
  return problems;
}

/** The API's `headers`: `{name: value}`, each issue naming its header. */
export const endpointHeadersSchema = z.record(z.string(), z.string()).check(
  z.superRefine((headers, context) => {
    const entries = Object.entries(headers);
    if (entries.length > MAX_ENDPOINT_HEADERS) {
      context.addIssue({
        code: "custom",
        message: `At most ${MAX_ENDPOINT_HEADERS} headers: ${entries.length} were given.`,
        params: INVALID_HEADER,
        input: headers,
      });
    }
    for (const { index, problem } of findHeaderProblems(entries)) {
      const [name] = entries[index]!;
      context.addIssue({
        code: "custom",
        path: [name],
        message: describeHeaderProblem(name, problem),
        params: INVALID_HEADER,
        input: headers,
      });
    }
  }),
);

const HEADER_ROW_MESSAGES: Record<HeaderProblem | "duplicate", { field: "name" | "value"; message: string }> = {
  "name-invalid": { field: "name", message: "endpoints.validation.headerNameInvalid" },
  "name-reserved": { field: "name", message: "endpoints.validation.headerNameReserved" },
  "value-invalid": { field: "value", message: "endpoints.validation.headerValueInvalid" },
  "value-too-long": { field: "value", message: "endpoints.validation.headerValueTooLong" },
  duplicate: { field: "name", message: "endpoints.validation.headerNameDuplicate" },
};

/** The form's headers, one row each, with the same rules as the API's and translated messages on the row's field. */
export const endpointHeaderRowsSchema = z.array(z.object({ name: z.string(), value: z.string() })).check(
  z.maxLength(MAX_ENDPOINT_HEADERS, "endpoints.validation.headersTooMany"),
  z.superRefine((rows, context) => {
    for (const { index, problem } of findHeaderProblems(rows.map(({ name, value }) => [name, value]))) {
      const { field, message } = HEADER_ROW_MESSAGES[problem];
      context.addIssue({ code: "custom", path: [index, field], message, params: INVALID_HEADER, input: rows });
    }
  }),
);

/** The headers of the form's rows, as the API takes them. */
export function toEndpointHeaders(rows: { name: string; value: string }[]): Record<string, string> {
  return Object.fromEntries(rows.map(({ name, value }) => [name, value]));
}

/** Milliseconds one attempt may take; null: the configured default (WEBHOOK_TIMEOUT_MS). */
export const endpointTimeoutSchema = z.nullable(
  z
    .int({ error: "endpoints.validation.timeoutInvalid" })
    .check(
      z.gte(ENDPOINT_TIMEOUT_MIN_MS, "endpoints.validation.timeoutInvalid"),
      z.lte(ENDPOINT_TIMEOUT_MAX_MS, "endpoints.validation.timeoutInvalid"),
    ),
);

/** A new endpoint. Left out: `json`, hmac with a generated secret, no headers, the default timeout, enabled. */
export const createEndpointSchema = z.object({
  url: endpointUrlSchema,
  format: z._default(endpointFormatSchema, "json"),
  signing: z._default(endpointSigningSchema, { scheme: "hmac" }),
  headers: z._default(endpointHeadersSchema, {}),
  timeoutMs: z._default(endpointTimeoutSchema, null),
  filter: z._default(z.nullable(endpointFilterSchema), null),
  isEnabled: z._default(z.boolean(), true),
});

/** A change: only the fields sent. */
export const updateEndpointSchema = z.partial(
  z.object({
    url: endpointUrlSchema,
    format: endpointFormatSchema,
    signing: endpointSigningSchema,
    headers: endpointHeadersSchema,
    timeoutMs: endpointTimeoutSchema,
    filter: z.nullable(endpointFilterSchema),
    isEnabled: z.boolean(),
  }),
);

export type EndpointSigningInput = z.infer<typeof endpointSigningSchema>;
export type CreateEndpointInput = z.infer<typeof createEndpointSchema>;
export type UpdateEndpointInput = z.infer<typeof updateEndpointSchema>;
