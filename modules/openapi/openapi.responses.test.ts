// The answers the OpenAPI document describes are the ones the formatters produce: each formatter's
// output parses with its response schema, with no field the schema leaves out.
import { describe, expect, it } from "vitest";
import type { z } from "zod";
import { formatApiKeyForApi } from "@/modules/api-keys/api-keys.models";
import { formatDomainForApi } from "@/modules/domains/domains.models";
import { formatEmailCallbackForApi } from "@/modules/email-callbacks/email-callbacks.models";
import { formatEndpointForApi } from "@/modules/endpoints/endpoints.models";
import { formatEmailReceivedEvent, formatProcessingEvent } from "@/modules/events/events.models";
import {
  formatDeliveryAttemptForApi,
  formatProcessingDeliveryForApi,
  formatProcessingDetailForApi,
  formatProcessingForApi,
} from "@/modules/processings/processings.models";
import { createInvalidQueryError, createNotFoundError } from "@/modules/shared/errors/app-error";
import { formatErrorBody } from "@/modules/shared/errors/error-response";
import { formatUserForApi } from "@/modules/users/users.models";
import {
  apiKeyResponseSchema,
  deliveryAttemptResponseSchema,
  domainResponseSchema,
  emailCallbackResponseSchema,
  emailProcessingDetailResponseSchema,
  emailProcessingResponseSchema,
  emailReceivedEventSchema,
  errorResponseSchema,
  processingEventSchema,
  userResponseSchema,
} from "./openapi.responses";
import { endpointResponseSchema, processingDeliveryResponseSchema } from "./openapi.responses.endpoints";

const createdAt = new Date("2026-11-24T10:00:00.000Z");
const processing = {
  id: "ep_0123456789ABCDEFabcdef",
  fromAddress: "alice@example.org",
  recipient: "orders-42@example.org",
  subject: "Order 42",
  status: "error",
  error: "webhook-failed",
  webhookResponseStatusCode: 500,
  createdAt,
};

/** Parses with the schema closed to unknown fields: a field the formatter adds and the schema lacks fails. */
function expectExactShape(schema: z.ZodObject, value: unknown) {
  const parsed = schema.strict().safeParse(value);
  expect(parsed.error?.issues ?? []).toEqual([]);
}

describe("response schemas", () => {
  it("match formatEmailCallbackForApi, with and without a secret", () => {
    const record = {
      id: "ecb_0123456789ABCDEFabcdef",
      userId: "usr_x",
      domain: "example.com",
      username: "orders",
      webhookUrl: "https://example.com/hook",
      webhookSecret: "a-long-enough-secret-1234",
      allowedOrigins: ["@example.org"],
      isEnabled: true,
      attachmentDelivery: "url" as const,
      authenticationPolicy: "dmarc" as const,
      spamThreshold: 15,
      createdAt,
      updatedAt: createdAt,
    };
    expectExactShape(emailCallbackResponseSchema, formatEmailCallbackForApi(record));
    expectExactShape(
      emailCallbackResponseSchema,
      formatEmailCallbackForApi({ ...record, webhookSecret: null, spamThreshold: null }),
    );
  });

  it("match the inbox rows, a row in full and its delivery attempts", () => {
    expectExactShape(emailProcessingResponseSchema, formatProcessingForApi(processing));
    expectExactShape(
      emailProcessingDetailResponseSchema,
      formatProcessingDetailForApi({ ...processing, attemptCount: 6, nextAttemptAt: null }),
    );
    const attempt = {
      id: "da_x",
      attemptedAt: createdAt,
      statusCode: null,
      durationMs: 30,
      error: "timeout",
      responseBody: null,
      endpointId: null,
    };
    expectExactShape(deliveryAttemptResponseSchema, formatDeliveryAttemptForApi(attempt));
    expectExactShape(deliveryAttemptResponseSchema, formatDeliveryAttemptForApi({ ...attempt, endpointId: "ept_x" }));
  });

  it("match an endpoint of each signing scheme, an HMAC secret shown or not, with and without a filter", () => {
    const endpoint = {
      id: "ept_x",
      emailCallbackId: "ecb_x",
      url: "https://hooks.example.com/x",
      format: "json" as const,
      signingScheme: "hmac" as const,
      secret: "a-long-enough-secret-1234",
      publicKey: null,
      privateKeyEncrypted: null,
      headers: { "X-Team": "billing" },
      timeoutMs: null,
      filter: null,
      isEnabled: true,
      createdAt,
    };
    const filter = {
      match: "any",
      conditions: [
        { field: "header:x-priority", op: "equals", value: "1" },
        { field: "spam.score", op: "lt", value: 5 },
      ],
    };
    const ed25519 = {
      ...endpoint,
      signingScheme: "ed25519" as const,
      secret: null,
      publicKey: "whpk_x",
      privateKeyEncrypted: "v1:x",
    };
    for (const [record, revealsSecret] of [
      [endpoint, true],
      [{ ...endpoint, filter, format: "raw" as const, timeoutMs: 5000 }, false],
      [ed25519, false],
      [{ ...endpoint, signingScheme: "none" as const, secret: null }, false],
    ] as const) {
      const formatted = formatEndpointForApi(record, { defaultTimeoutMs: 15_000, revealsSecret });
      expectExactShape(endpointResponseSchema, formatted);
      expect(endpointResponseSchema.parse(formatted)).toEqual(formatted);
    }
    const delivery = {
      endpointId: "ept_x",
      status: "pending" as const,
      attemptCount: 2,
      nextAttemptAt: createdAt,
      lastStatusCode: 503,
    };
    expectExactShape(processingDeliveryResponseSchema, formatProcessingDeliveryForApi(delivery));
  });

  it("match an API key, used or not", () => {
    const key = { id: "ak_x", userId: "usr_x", name: "ci", prefix: "hm_AbC1234", createdAt, lastUsedAt: null };
    expectExactShape(apiKeyResponseSchema, formatApiKeyForApi(key));
    expectExactShape(apiKeyResponseSchema, formatApiKeyForApi({ ...key, lastUsedAt: createdAt }));
  });

  it("match a domain, pending with its last error and verified, with its two records", () => {
    const pending = {
      id: "dom_0123456789ABCDEFabcdef",
      userId: "usr_x",
      name: "xn--bcher-kva.example",
      token: "0123456789ABCDEFabcdef0123456789",
      status: "pending" as const,
      verifiedAt: null,
      lastCheckedAt: createdAt,
      lastCheckError: "TXT _hookmail.xn--bcher-kva.example not found",
      failingSince: null,
      createdAt,
    };
    const verified = { ...pending, status: "verified" as const, verifiedAt: createdAt, lastCheckError: null };
    for (const domain of [pending, verified]) {
      const formatted = formatDomainForApi(domain, "mx.hookmail.example");
      expectExactShape(domainResponseSchema, formatted);
      expect(formatted.records.map((record) => record.type)).toEqual(["TXT", "MX"]);
    }
  });

  it("match formatUserForApi, which never shows the password or any session data", () => {
    const record = {
      id: "usr_0123456789ABCDEFabcdef",
      email: "alice@example.org",
      name: "Alice",
      planId: "free",
      emailVerified: true,
      deliveryAlerts: false,
      password: "hunter2",
      sessionToken: "session-token",
    };
    expectExactShape(userResponseSchema, formatUserForApi(record));
  });

  it("match the live stream's events", () => {
    const row = {
      eventId: "7",
      emailCallbackId: "ecb_x",
      emailProcessingId: processing.id,
      isNew: false,
      ...processing,
      attemptCount: 2,
      endpointId: "ept_x",
    };
    expectExactShape(processingEventSchema, formatProcessingEvent(row));
    const event = formatEmailReceivedEvent({
      emailProcessingId: processing.id,
      body: "{}",
      secret: "whsec-secret-1234567",
      now: createdAt,
    });
    expectExactShape(emailReceivedEventSchema, event);
  });

  it("match the error body, with and without invalid fields", () => {
    expectExactShape(errorResponseSchema, formatErrorBody(createNotFoundError()));
    const invalid = formatErrorBody(createInvalidQueryError([{ path: "pageSize", code: "too_big", message: "Too big" }]));
    expectExactShape(errorResponseSchema, invalid);
    expect(invalid.error.fields).toHaveLength(1);
  });
});
