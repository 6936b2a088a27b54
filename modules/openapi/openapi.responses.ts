// The JSON shapes the API answers with, as zod schemas for the OpenAPI document. Each mirrors a
// feature's formatter (formatEmailCallbackForApi, formatProcessingForApi, …): the type checks at
// the bottom fail to compile when a formatter's type and its schema drift apart, and
// openapi.responses.test.ts parses real formatter output with them.
import { z } from "zod";
import type { ApiApiKey } from "@/modules/api-keys/api-keys.models";
import { DOMAIN_STATUSES } from "@/modules/domains/domains.constants";
import type { ApiDomain } from "@/modules/domains/domains.models";
import { ATTACHMENT_DELIVERIES, AUTHENTICATION_POLICIES } from "@/modules/email-callbacks/email-callbacks.constants";
import type { ApiEmailCallback } from "@/modules/email-callbacks/email-callbacks.models";
import type { ApiEmailReceivedEvent, ApiProcessingEvent } from "@/modules/events/events.models";
import { PROCESSING_STATUS } from "@/modules/processings/processings.constants";
import type {
  ApiDeliveryAttempt,
  ApiEmailProcessing,
  ApiEmailProcessingDetail,
  ApiProcessingsPage,
} from "@/modules/processings/processings.models";
import type { ErrorBody } from "@/modules/shared/errors/error-response";
import type { ApiUser } from "@/modules/users/users.models";
import { processingDeliveryResponseSchema } from "./openapi.responses.endpoints";

const timestamp = z.iso.datetime().describe("ISO 8601 time, UTC.");

export const emailCallbackResponseSchema = z
  .object({
    id: z.string().describe("`ecb_…`"),
    domain: z.string(),
    username: z.string(),
    address: z.string().describe("`username@domain`: the address that receives mail."),
    webhookUrl: z.string(),
    hasWebhookSecret: z.boolean(),
    maskedWebhookSecret: z
      .string()
      .nullable()
      .describe("The secret with all but its last 4 characters hidden; the secret itself is never returned."),
    allowedOrigins: z.array(z.string()).describe("Sender addresses, or `@domain` for every sender of a domain; empty: anyone."),
    isEnabled: z.boolean(),
    attachmentDelivery: z.enum(ATTACHMENT_DELIVERIES),
    authenticationPolicy: z
      .enum(AUTHENTICATION_POLICIES)
      .describe(
        "`none`: every mail is delivered with its verdicts; `dmarc`: only a mail whose `authentication.dmarc.result` is " +
          "`pass` is delivered, any other (fail, none, temperror, no verdict) is recorded `not-processed` / " +
          "`authentication-failed` (docs/webhooks.md: Per-address options).",
      ),
    spamThreshold: z.number().nullable(),
    createdAt: timestamp,
    updatedAt: timestamp,
  })
  .meta({ id: "EmailCallback" });

export const emailProcessingResponseSchema = z
  .object({
    id: z.string().describe("`ep_…`"),
    fromAddress: z.string(),
    recipient: z
      .string()
      .describe(
        "The envelope recipient as the sender wrote it, tag and case included: on a pattern or catch-all address, the address the mail was sent to.",
      ),
    subject: z.string(),
    status: z.enum(PROCESSING_STATUS),
    error: z
      .string()
      .nullable()
      .describe("Why the mail was not processed or failed (not-enabled, from-address-not-allowed, webhook-failed, …)."),
    webhookResponseStatusCode: z.number().int().nullable(),
    createdAt: timestamp,
  })
  .meta({ id: "EmailProcessing" });

export const emailProcessingDetailResponseSchema = emailProcessingResponseSchema
  .extend({
    attemptCount: z.number().int().describe("Webhook calls of the current attempt series."),
    nextAttemptAt: timestamp.nullable().describe("When the next attempt is due while the mail is pending."),
  })
  .meta({ id: "EmailProcessingDetail" });

export const deliveryAttemptResponseSchema = z
  .object({
    id: z.string().describe("`da_…`"),
    attemptedAt: timestamp,
    statusCode: z.number().int().nullable().describe("The webhook's HTTP status; null when no answer came."),
    durationMs: z.number().int(),
    error: z.string().nullable(),
    responseBody: z.string().nullable().describe("The first 1 KiB of the webhook's answer."),
    endpointId: z.string().nullable().describe("The endpoint called; null for attempts made before addresses had endpoints."),
  })
  .meta({ id: "DeliveryAttempt" });

export const apiKeyResponseSchema = z
  .object({
    id: z.string().describe("`ak_…`"),
    name: z.string(),
    prefix: z.string().describe("The start of the token, e.g. `hm_AbC1234`, to recognise it."),
    createdAt: timestamp,
    lastUsedAt: timestamp.nullable(),
  })
  .meta({ id: "ApiKey" });

const dnsRecordToSetSchema = z
  .discriminatedUnion("type", [
    z.object({
      type: z.literal("TXT"),
      name: z.string().describe("`_hookmail.<name>`"),
      value: z.string().describe("`hookmail-verification=<token>`: the token is this account's, for this domain."),
    }),
    z.object({
      type: z.literal("MX"),
      name: z.string().describe("The domain's name."),
      value: z.string().describe("This instance's MX host name (MX_HOSTNAME)."),
      priority: z.number().int().describe("Suggested; any preference is accepted."),
    }),
  ])
  .meta({ id: "DnsRecordToSet" });

export const domainResponseSchema = z
  .object({
    id: z.string().describe("`dom_…`"),
    name: z.string().describe("Lowercase, without a trailing dot; an IDN as its A-label (`xn--…`)."),
    status: z
      .enum(DOMAIN_STATUSES)
      .describe(
        "`pending`: not (or no longer) proven; `verified`: its records are right and the name is this account's; `failing`: verified, but a later check failed (still accepting mail for a grace period).",
      ),
    records: z.array(dnsRecordToSetSchema).describe("The two records to set at the domain's DNS host."),
    verifiedAt: timestamp.nullable(),
    lastCheckedAt: timestamp.nullable(),
    lastCheckError: z
      .string()
      .nullable()
      .describe("Each record missing or wrong at the last check, in words; null after a check that passed."),
    createdAt: timestamp,
  })
  .meta({ id: "Domain" });

export const userResponseSchema = z
  .object({
    id: z.string().describe("`usr_…`"),
    email: z.string(),
    name: z.string(),
    planId: z.string().describe("The account's plan (`free`, `pro`)."),
    emailVerified: z.boolean(),
    deliveryAlerts: z.boolean().describe("Whether a mail is sent when a webhook keeps failing (docs/webhooks.md)."),
  })
  .meta({ id: "User" });

export const processingsPageResponseSchema = z.object({
  emailProcessings: z.array(emailProcessingResponseSchema).describe("Newest first."),
  emailProcessingsCount: z.number().int().describe("Every row of the inbox (that matches the filters)."),
  pageIndex: z.number().int(),
  pageSize: z.number().int(),
});

export const processingDetailResponseSchema = z.object({
  emailProcessing: emailProcessingDetailResponseSchema,
  deliveries: z
    .array(processingDeliveryResponseSchema)
    .describe("The mail's delivery to each endpoint its filter let through, in the endpoints' creation order."),
  webhookBody: z
    .string()
    .nullable()
    .meta({ contentMediaType: "application/json" })
    .describe(
      "The JSON text sent to the webhook, byte for byte (its schema: GET /api/webhooks/schema); null once the content is gone. " +
        "With `webhookBody=shortened`, a body over 1 MiB comes with each attachment's `content` left out (null).",
    ),
  webhookBodyBytes: z.number().int().nullable().describe("The size in bytes of the body sent; null once the content is gone."),
  isWebhookBodyShortened: z.boolean().describe("Whether `webhookBody` was shortened (the exact body: GET …/webhook-body)."),
});

/** The data of a `processing` event of the live stream. */
export const processingEventSchema = emailProcessingResponseSchema
  .extend({
    attemptCount: z.number().int().describe("Webhook calls of the current attempt series."),
    endpointId: z
      .string()
      .nullable()
      .describe("The endpoint whose delivery changed (an attempt ended, a redelivery began); null when the mail arrived."),
  })
  .meta({ id: "ProcessingEvent" });

/** The data of an `email.received` event: the webhook request as a receiver gets it. */
export const emailReceivedEventSchema = z
  .object({
    headers: z
      .object({
        "webhook-id": z.string(),
        "webhook-timestamp": z.string(),
        "webhook-signature": z.string().optional().describe("Only when the address (or the endpoint) signs."),
      })
      .catchall(z.string())
      .describe("With `endpoint`: every header that endpoint is sent (`Content-Type`, `X-Hookmail-*`, its own headers)."),
    body: z
      .string()
      .describe("The exact JSON text of the webhook body; with `bodyEncoding`, the base64 of the exact bytes sent."),
    bodyEncoding: z
      .literal("base64")
      .optional()
      .describe("With the `endpoint` of a `raw` endpoint: the body is the message as received, in base64."),
  })
  .meta({ id: "EmailReceivedEvent" });

const fieldIssueSchema = z
  .object({
    path: z.string().describe("The field, dot-separated (`allowedOrigins.2`)."),
    code: z.string(),
    message: z.string(),
  })
  .meta({ id: "FieldIssue" });

export const errorResponseSchema = z.object({
  error: z.object({
    code: z.string().describe("A namespaced code (`email_callback.not_found`); clients translate by code."),
    message: z.string().describe("In English."),
    fields: z.array(fieldIssueSchema).optional().describe("The invalid fields of a body or query."),
  }),
});

/** `A` and `B` are the same type (each assignable to the other). */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Assert<T extends true> = T;

export type ResponseSchemasMatchFormatters = [
  Assert<Same<z.output<typeof emailCallbackResponseSchema>, ApiEmailCallback>>,
  Assert<Same<z.output<typeof emailProcessingResponseSchema>, ApiEmailProcessing>>,
  Assert<Same<z.output<typeof emailProcessingDetailResponseSchema>, ApiEmailProcessingDetail>>,
  Assert<Same<z.output<typeof deliveryAttemptResponseSchema>, ApiDeliveryAttempt>>,
  Assert<Same<z.output<typeof apiKeyResponseSchema>, ApiApiKey>>,
  Assert<Same<z.output<typeof domainResponseSchema>, ApiDomain>>,
  Assert<Same<z.output<typeof userResponseSchema>, ApiUser>>,
  Assert<Same<z.output<typeof processingsPageResponseSchema>, ApiProcessingsPage>>,
  Assert<Same<z.output<typeof errorResponseSchema>, ErrorBody>>,
  Assert<Same<z.output<typeof processingEventSchema>, ApiProcessingEvent>>,
  Assert<Same<z.output<typeof emailReceivedEventSchema>, ApiEmailReceivedEvent>>,
];
