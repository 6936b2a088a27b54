// The calls on an address's endpoints, the places its mail is sent (docs/webhooks.md: Destinations):
// a session or an API key, the caller's own live address only.
import { z } from "zod";
import { createEndpointSchema, updateEndpointSchema } from "@/modules/endpoints/endpoints.schemas";
import { OPENAPI_TAG } from "./openapi.constants";
import type { OperationSpec } from "./openapi.operations";
import { endpointFilterResponseSchema, endpointResponseSchema } from "./openapi.responses.endpoints";

const LIST_PATH = "/api/email-callbacks/{emailCallbackId}/endpoints";
const ITEM_PATH = `${LIST_PATH}/{endpointId}`;
const tag = OPENAPI_TAG.EMAIL_CALLBACKS;
const endpointContent = { "application/json": z.object({ endpoint: endpointResponseSchema }) };

/**
 * The bodies the routes parse, with the filter shown as the Filter it must be: the route's filter
 * schema reads any value so that each wrong part answers endpoint.invalid_filter, naming its condition.
 */
const createEndpointBodySchema = z.object({
  ...createEndpointSchema.shape,
  filter: endpointFilterResponseSchema.nullable().default(null),
});
const updateEndpointBodySchema = z.object({
  ...updateEndpointSchema.shape,
  filter: endpointFilterResponseSchema.nullable().optional(),
});

const INPUT_RULES =
  "`url`: http(s), leading to a public address (else `email_callback.webhook_url_not_allowed`). " +
  '`signing`: `{scheme: "hmac", secret?}` (no secret: one is generated) or `{scheme: "ed25519"}` (a key pair made on the ' +
  "server; the answer holds its public key); sending it again rotates the secret or the pair. `headers`: at most 10, names " +
  "that are HTTP tokens and not `host`, `content-length`, `content-type`, `transfer-encoding`, `connection`, `webhook-*` or " +
  "`x-hookmail-*`, values of at most 1 KiB without CR, LF or NUL (else `endpoint.invalid_header`). `timeoutMs`: 1000–30000, " +
  "null for the configured default. `filter`: 1 to 20 conditions (else `request.invalid_body`); a bad field, operator or " +
  "pattern answers `endpoint.invalid_filter`.";

export const ENDPOINT_OPERATIONS: OperationSpec[] = [
  {
    method: "get",
    path: LIST_PATH,
    tag,
    operationId: "listEndpoints",
    summary: "List an address's endpoints",
    description:
      "In creation order. The first is the address's own `webhookUrl` / `webhookSecret`. An HMAC secret shows masked only.",
    access: "session-or-key",
    success: {
      status: 200,
      description: "The endpoints.",
      content: { "application/json": z.object({ endpoints: z.array(endpointResponseSchema) }) },
    },
    errors: ["email_callback.not_found"],
  },
  {
    method: "post",
    path: LIST_PATH,
    tag,
    operationId: "createEndpoint",
    summary: "Add an endpoint",
    description:
      "Each mail the address receives goes to every enabled endpoint whose filter holds, with its own attempts and retries. " +
      "Left out: `json`, HMAC with a generated secret (in full in this answer only), no headers, the default timeout, no " +
      `filter, enabled. ${INPUT_RULES} At most the plan's number per address (free 2, pro 10: \`endpoints.limit_reached\`).`,
    access: "session-or-key",
    requestBody: { content: { "application/json": createEndpointBodySchema } },
    success: { status: 201, description: "The endpoint.", content: endpointContent },
    errors: [
      "email_callback.not_found",
      "email_callback.webhook_url_not_allowed",
      "endpoint.invalid_header",
      "endpoint.invalid_filter",
      "endpoints.limit_reached",
    ],
  },
  {
    method: "put",
    path: ITEM_PATH,
    tag,
    operationId: "updateEndpoint",
    summary: "Change an endpoint",
    description: `Changes only the fields sent; the answer holds an HMAC secret in full only when this call set it. ${INPUT_RULES}`,
    access: "session-or-key",
    requestBody: { content: { "application/json": updateEndpointBodySchema } },
    success: { status: 200, description: "The endpoint.", content: endpointContent },
    errors: [
      "email_callback.not_found",
      "endpoint.not_found",
      "email_callback.webhook_url_not_allowed",
      "endpoint.invalid_header",
      "endpoint.invalid_filter",
    ],
  },
  {
    method: "delete",
    path: ITEM_PATH,
    tag,
    operationId: "deleteEndpoint",
    summary: "Delete an endpoint",
    description:
      "An address keeps at least one endpoint (`endpoint.last`). Deleting the first makes the next one the address's `webhookUrl`.",
    access: "session-or-key",
    success: { status: 204, description: "Deleted." },
    errors: ["email_callback.not_found", "endpoint.not_found", "endpoint.last"],
  },
];
