// The JSON shapes of an address's endpoints (docs/webhooks.md: Destinations) for the OpenAPI
// document: the Endpoint the endpoint calls answer, its Filter, and one endpoint's delivery of a mail
// as the detail call answers it. The type checks at the bottom fail to compile when a formatter's
// type and its schema drift apart; openapi.responses.test.ts parses real formatter output with them.
import { z } from "zod";
import { ENDPOINT_FORMATS } from "@/modules/delivery/delivery.constants";
import {
  FILTER_HEADER_FIELD_PREFIX,
  FILTER_MATCHES,
  FILTER_MAX_CONDITIONS,
  FILTER_MIN_CONDITIONS,
  FILTER_PATTERN_MAX_LENGTH,
  FILTER_SCORE_OPERATORS,
  FILTER_SPAM_SCORE_FIELD,
  FILTER_TEXT_FIELDS,
  FILTER_TEXT_OPERATORS,
  FILTER_VALUE_MAX_LENGTH,
} from "@/modules/endpoints/endpoint-filter.constants";
import type { ApiEndpoint } from "@/modules/endpoints/endpoints.models";
import { PROCESSING_STATUS } from "@/modules/processings/processings.constants";
import type { ApiProcessingDelivery } from "@/modules/processings/processings.models";

const timestamp = z.iso.datetime().describe("ISO 8601 time, UTC.");

const textConditionSchema = z
  .object({
    field: z
      .union([z.enum(FILTER_TEXT_FIELDS), z.templateLiteral([FILTER_HEADER_FIELD_PREFIX, z.string()])])
      .describe(
        "`from` (the From header's address), `to` (the envelope recipient), `subject`, `text` (the plain-text body), " +
          "`header:<name>` (any field of that name), `attachment.filename` and `attachment.contentType` (any attachment), " +
          "`authentication.dmarc` (the DMARC result). A missing value never matches.",
      ),
    op: z
      .enum(FILTER_TEXT_OPERATORS)
      .describe(
        `Comparisons ignore case. \`matches\`: a regular expression run in linear time (RE2 syntax), at most ${FILTER_PATTERN_MAX_LENGTH} characters; one that does not compile answers \`endpoint.invalid_filter\`.`,
      ),
    value: z.string().describe(`1 to ${FILTER_VALUE_MAX_LENGTH} characters.`),
  })
  .meta({ id: "FilterTextCondition" });

const scoreConditionSchema = z
  .object({
    field: z.literal(FILTER_SPAM_SCORE_FIELD).describe("The mail's spam score (none: never matches)."),
    op: z.enum(FILTER_SCORE_OPERATORS).describe("`gt`: above `value`; `lt`: below it."),
    value: z.number(),
  })
  .meta({ id: "FilterScoreCondition" });

export const endpointFilterResponseSchema = z
  .object({
    match: z.enum(FILTER_MATCHES).describe("`all`: every condition holds; `any`: at least one does."),
    conditions: z
      .array(z.union([textConditionSchema, scoreConditionSchema]))
      .min(FILTER_MIN_CONDITIONS)
      .max(FILTER_MAX_CONDITIONS),
  })
  .describe(
    "Which mail the endpoint gets; a bad field, operator, value or pattern answers `endpoint.invalid_filter`, naming the condition.",
  )
  .meta({ id: "Filter" });

const endpointSigningResponseSchema = z
  .discriminatedUnion("scheme", [
    z.object({
      scheme: z.literal("hmac"),
      secret: z
        .string()
        .optional()
        .describe("The secret in full, only in the answer of the call that set it (generated or given): keep it then."),
      maskedSecret: z.string().describe("The secret with all but its last 4 characters hidden."),
    }),
    z.object({
      scheme: z.literal("ed25519"),
      publicKey: z
        .string()
        .describe(
          "`whpk_` + base64 of the 32-byte Ed25519 public key, to verify `v1a,` signatures; the private key never leaves the server.",
        ),
    }),
    z.object({ scheme: z.literal("none").describe("Only an address's first endpoint, when the address has no secret.") }),
  ])
  .meta({ id: "EndpointSigning" });

export const endpointResponseSchema = z
  .object({
    id: z.string().describe("`ept_…`"),
    url: z.string(),
    format: z.enum(ENDPOINT_FORMATS).describe("`json`: the webhook body; `raw`: the message as received (`message/rfc822`)."),
    signing: endpointSigningResponseSchema,
    headers: z.record(z.string(), z.string()).describe("Headers sent with each request, by name."),
    timeoutMs: z.number().int().describe("How long one attempt may take (the configured default unless set)."),
    filter: endpointFilterResponseSchema.nullable().describe("null: every mail."),
    isEnabled: z.boolean(),
    createdAt: timestamp,
  })
  .meta({ id: "Endpoint" });

export const processingDeliveryResponseSchema = z
  .object({
    endpointId: z.string(),
    status: z.enum(PROCESSING_STATUS),
    attemptCount: z.number().int().describe("Calls of the current attempt series."),
    nextAttemptAt: timestamp.nullable().describe("When the next attempt is due while the delivery is pending."),
    lastStatusCode: z.number().int().nullable().describe("The endpoint's last HTTP status; null when no answer came."),
  })
  .meta({ id: "ProcessingDelivery" });

/** `A` and `B` are the same type (each assignable to the other). */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Assert<T extends true> = T;

export type EndpointSchemasMatchFormatters = [
  Assert<Same<z.output<typeof endpointResponseSchema>, ApiEndpoint>>,
  Assert<Same<z.output<typeof processingDeliveryResponseSchema>, ApiProcessingDelivery>>,
];
