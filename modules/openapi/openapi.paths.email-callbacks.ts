// The calls on addresses (email callbacks): list, create, read, update, delete, a test mail, a
// redelivery of failed mail, and the live event stream.
import { z } from "zod";
import { createEmailCallbackSchema, updateEmailCallbackSchema } from "@/modules/email-callbacks/email-callbacks.schemas";
import { EVENT_STREAM_EVENTS } from "@/modules/events/events.constants";
import { eventStreamQuerySchema, lastEventIdSchema } from "@/modules/events/events.schemas";
import { redeliverProcessingsBodySchema } from "@/modules/processings/processings.schemas";
import { OPENAPI_TAG } from "./openapi.constants";
import type { OperationSpec } from "./openapi.operations";
import { emailCallbackResponseSchema, emailReceivedEventSchema, processingEventSchema } from "./openapi.responses";

const ITEM_PATH = "/api/email-callbacks/{emailCallbackId}";
const tag = OPENAPI_TAG.EMAIL_CALLBACKS;
const emailCallbackBody = z.object({ emailCallback: emailCallbackResponseSchema });

export const EMAIL_CALLBACK_OPERATIONS: OperationSpec[] = [
  {
    method: "get",
    path: "/api/email-callbacks",
    tag,
    operationId: "listEmailCallbacks",
    summary: "List your addresses",
    description:
      "Every address of the caller, newest first, and how many addresses the caller's plan allows: " +
      "once they have that many, creating another answers `403 email_callbacks.limit_reached`.",
    access: "session-or-key",
    success: {
      status: 200,
      description: "The addresses, and the plan's limit.",
      content: {
        "application/json": z.object({
          emailCallbacks: z.array(emailCallbackResponseSchema),
          maxEmailCallbacks: z.number().int().describe("How many addresses the caller's plan allows."),
        }),
      },
    },
    errors: [],
  },
  {
    method: "post",
    path: "/api/email-callbacks",
    tag,
    operationId: "createEmailCallback",
    summary: "Create an address",
    description:
      "Usernames are 3–64 letters, digits, `-`, `.` or `_`, starting and ending with a letter or digit, stored lower-case; " +
      "role and brand names are reserved. The webhook URL must be http(s) and reach a public address.",
    access: "session-or-key",
    requestBody: { content: { "application/json": createEmailCallbackSchema } },
    success: { status: 201, description: "The new address.", content: { "application/json": emailCallbackBody } },
    errors: [
      "email_callback.username_not_allowed",
      "email_callback.invalid_domain",
      "email_callback.invalid_username",
      "email_callback.webhook_url_not_allowed",
      "email_callback.already_exists",
      "email_callbacks.limit_reached",
    ],
  },
  {
    method: "get",
    path: ITEM_PATH,
    tag,
    operationId: "getEmailCallback",
    summary: "Read an address",
    access: "session-or-key",
    success: { status: 200, description: "The address.", content: { "application/json": emailCallbackBody } },
    errors: ["email_callback.not_found"],
  },
  {
    method: "put",
    path: ITEM_PATH,
    tag,
    operationId: "updateEmailCallback",
    summary: "Update an address",
    description: 'A partial update: only the fields sent change. Send `webhookSecret` only to change it (`""` removes it).',
    access: "session-or-key",
    requestBody: { content: { "application/json": updateEmailCallbackSchema } },
    success: { status: 200, description: "The address as updated.", content: { "application/json": emailCallbackBody } },
    errors: [
      "email_callback.not_found",
      "email_callback.username_not_allowed",
      "email_callback.invalid_domain",
      "email_callback.invalid_username",
      "email_callback.webhook_url_not_allowed",
      "email_callback.already_exists",
    ],
  },
  {
    method: "delete",
    path: ITEM_PATH,
    tag,
    operationId: "deleteEmailCallback",
    summary: "Delete an address",
    description: "The address is free again at once; its inbox is no longer reachable.",
    access: "session-or-key",
    success: { status: 204, description: "Deleted." },
    errors: ["email_callback.not_found"],
  },
  {
    method: "post",
    path: `${ITEM_PATH}/test-mail`,
    tag,
    operationId: "sendTestMail",
    summary: "Send a test mail",
    description:
      "Runs a message through the same pipeline as real mail, as if it had arrived by SMTP: a sample mail from " +
      "`test@{domain}` for a JSON body, or the message sent as `message/rfc822`, at most `MAX_MESSAGE_BYTES` (with an " +
      "API key: a write by the session cookie must be JSON). Rate limited per address.",
    access: "session-or-key",
    requestBody: {
      required: false,
      content: {
        "application/json": { kind: "any", description: "Not read (send `{}`): the server composes the sample mail." },
        "message/rfc822": { kind: "binary", description: "A whole message (RFC 5322), as an .eml file holds it." },
      },
    },
    success: {
      status: 202,
      description: "Accepted: how many processings the message created.",
      content: { "application/json": z.object({ accepted: z.number().int() }) },
    },
    errors: [
      "email_callback.not_found",
      "request.rate_limited",
      "inbound.invalid_message",
      "inbound.message_too_complex",
      "inbound.payload_too_large",
      "service.unavailable",
    ],
  },
  {
    method: "post",
    path: `${ITEM_PATH}/redeliver`,
    tag,
    operationId: "redeliverFailedEmailProcessings",
    summary: "Redeliver failed mail",
    description:
      "Every final mail of the address with the given status (`error`), created from `since` (included) to `until` " +
      "(excluded), gets a new attempt series. Rate limited per address.",
    access: "session-or-key",
    requestBody: { content: { "application/json": redeliverProcessingsBodySchema } },
    success: {
      status: 202,
      description: "How many mails were queued for a new attempt series.",
      content: { "application/json": z.object({ count: z.number().int() }) },
    },
    errors: ["email_callback.not_found", "request.rate_limited"],
  },
  {
    method: "get",
    path: `${ITEM_PATH}/events`,
    tag,
    operationId: "streamEmailCallbackEvents",
    summary: "Stream the address's events",
    description:
      "Server-sent events: a `processing` event (id, status, error, webhook status code) as mail arrives and as " +
      "deliveries end, across processes; an event a delivery caused names its `endpointId`. With `?include=webhook`, " +
      "also `email.received` events whose data is " +
      '`{"headers": {"webhook-id", "webhook-timestamp", "webhook-signature"}, "body": "<the exact body string>"}`; ' +
      "with `&endpoint=<endpoint id>`, they are that endpoint's requests instead (its body, every header it is sent, " +
      'signed with its scheme; a `raw` endpoint\'s message in base64, with `"bodyEncoding": "base64"`), for the mails it takes. ' +
      "Events carry ids; send the last one as `Last-Event-ID` to resume.",
    access: "session-or-key",
    query: eventStreamQuerySchema,
    queryDescriptions: {
      include: "`webhook`: also send each mail's signed webhook request as an `email.received` event.",
      endpoint:
        "With `include=webhook`: one of the address's endpoints (else 404 `endpoint.not_found`); the `email.received` " +
        "events are its requests, for the mails it takes.",
    },
    requestHeaders: [
      {
        name: "Last-Event-ID",
        description: "The id of the last event received: the stream resumes after it (events are kept about ten minutes).",
        schema: lastEventIdSchema,
      },
    ],
    success: {
      status: 200,
      description:
        "The event stream, open until the client leaves or the server ends it: after an hour, at once when the API key " +
        "is deleted, within 30 s of the session ending, or when the client takes nothing for 30 s. Reconnect with " +
        "`Last-Event-ID` after the `retry:` delay.",
      content: {
        "text/event-stream": {
          kind: "text",
          description: "`id:`, `event:` and `data:` lines; the data is one line of JSON (`x-events`: its schema by event).",
          events: {
            [EVENT_STREAM_EVENTS.PROCESSING]: processingEventSchema,
            [EVENT_STREAM_EVENTS.EMAIL_RECEIVED]: emailReceivedEventSchema,
          },
        },
      },
    },
    errors: ["email_callback.not_found", "endpoint.not_found", "request.rate_limited", "service.unavailable"],
  },
];
