// The OpenAPI document describes an address's endpoints (docs/webhooks.md: Destinations): the four
// endpoint calls with the codes each can answer, the Endpoint and Filter they answer and take, the
// optional body of a mail's redelivery, and the detail call's deliveries.
import { expect, it } from "vitest";
import { buildOpenApiDocument } from "./openapi.document";

const document = buildOpenApiDocument({ serverUrl: "https://hookmail.example" });

type JsonObject = Record<string, any>;
const operation = (apiPath: string, method: string) => (document.paths[apiPath] as JsonObject)[method] as JsonObject;
const codesOf = (op: JsonObject, status: string): string[] =>
  op.responses[status].content["application/json"].schema.properties.error.properties.code.enum;

const LIST = "/api/email-callbacks/{emailCallbackId}/endpoints";
const ITEM = `${LIST}/{endpointId}`;
const MAIL = "/api/email-callbacks/{emailCallbackId}/processings/{processingId}";

it("describes the four endpoint calls, each with the codes its rules answer", () => {
  expect(Object.keys(document.paths[LIST]!).sort()).toEqual(["get", "post"]);
  expect(Object.keys(document.paths[ITEM]!).sort()).toEqual(["delete", "put"]);
  const create = operation(LIST, "post");
  expect(codesOf(create, "400")).toEqual(
    expect.arrayContaining([
      "request.invalid_body",
      "endpoint.invalid_header",
      "endpoint.invalid_filter",
      "email_callback.webhook_url_not_allowed",
    ]),
  );
  expect(codesOf(create, "403")).toContain("endpoints.limit_reached");
  expect(codesOf(create, "404")).toContain("email_callback.not_found");
  expect(codesOf(operation(ITEM, "put"), "404")).toEqual(
    expect.arrayContaining(["email_callback.not_found", "endpoint.not_found"]),
  );
  expect(codesOf(operation(ITEM, "delete"), "409")).toContain("endpoint.last");
  expect(operation(ITEM, "delete").responses["204"]).toBeDefined();
});

it("answers and takes the Endpoint and its Filter as components", () => {
  const schemas = document.components.schemas as JsonObject;
  expect(Object.keys(schemas.Endpoint.properties)).toEqual([
    "id",
    "url",
    "format",
    "signing",
    "headers",
    "timeoutMs",
    "filter",
    "isEnabled",
    "createdAt",
  ]);
  expect(schemas.Filter.properties.conditions).toMatchObject({ minItems: 1, maxItems: 20 });
  const body = operation(LIST, "post").requestBody.content["application/json"].schema;
  expect(body.required).toEqual(["url"]);
  expect(body.properties.filter.anyOf).toContainEqual({ $ref: "#/components/schemas/Filter" });
  expect(body.properties.signing.oneOf.map((each: JsonObject) => each.properties.scheme.const)).toEqual(["hmac", "ed25519"]);
});

it("describes a mail's redelivery with an optional endpointId, and the detail's deliveries", () => {
  const redeliver = operation(`${MAIL}/redeliver`, "post");
  expect(redeliver.requestBody.required).toBe(false);
  expect(Object.keys(redeliver.requestBody.content["application/json"].schema.properties)).toEqual(["endpointId"]);
  expect(codesOf(redeliver, "404")).toContain("endpoint.not_found");
  expect(codesOf(redeliver, "409")).toContain("email_processing.delivery_in_progress");
  const detail = operation(MAIL, "get").responses["200"].content["application/json"].schema;
  expect(detail.properties.deliveries.items).toEqual({ $ref: "#/components/schemas/ProcessingDelivery" });
  expect(Object.keys((document.components.schemas as JsonObject).DeliveryAttempt.properties)).toContain("endpointId");
});
