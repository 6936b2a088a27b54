// The calls on API keys: session only (an API key cannot manage keys).
import { z } from "zod";
import { API_KEY_TOKEN_PATTERN } from "@/modules/api-keys/api-keys.constants";
import { createApiKeySchema } from "@/modules/api-keys/api-keys.schemas";
import { OPENAPI_TAG } from "./openapi.constants";
import type { OperationSpec } from "./openapi.operations";
import { apiKeyResponseSchema } from "./openapi.responses";

const tag = OPENAPI_TAG.API_KEYS;

export const API_KEY_OPERATIONS: OperationSpec[] = [
  {
    method: "get",
    path: "/api/api-keys",
    tag,
    operationId: "listApiKeys",
    summary: "List your API keys",
    description: "Never the tokens: only their display prefix.",
    access: "session",
    success: {
      status: 200,
      description: "The keys.",
      content: { "application/json": z.object({ apiKeys: z.array(apiKeyResponseSchema) }) },
    },
    errors: [],
  },
  {
    method: "post",
    path: "/api/api-keys",
    tag,
    operationId: "createApiKey",
    summary: "Create an API key",
    description: "The token (`hm_` and 40 letters and digits) is in this answer only; it is stored as a hash.",
    access: "session",
    requestBody: { content: { "application/json": createApiKeySchema } },
    success: {
      status: 201,
      description: "The key and its token.",
      content: {
        "application/json": z.object({
          apiKey: apiKeyResponseSchema,
          token: z.string().regex(API_KEY_TOKEN_PATTERN).describe("Send it as `Authorization: Bearer hm_…`. Shown once."),
        }),
      },
    },
    errors: ["api_keys.limit_reached"],
  },
  {
    method: "delete",
    path: "/api/api-keys/{apiKeyId}",
    tag,
    operationId: "deleteApiKey",
    summary: "Delete an API key",
    description: "The key stops working at once.",
    access: "session",
    success: { status: 204, description: "Deleted." },
    errors: ["api_key.not_found"],
  },
];
