// The API reference page shows every call of the OpenAPI document once, under its tag, with its
// fields, its answer and its error codes read back from the document.
import { describe, expect, it } from "vitest";
import { buildReferenceSections, describeType, listFields } from "./api-reference.models";
import { buildOpenApiDocument, OPERATIONS } from "./openapi.document";

const sections = buildReferenceSections(buildOpenApiDocument({ serverUrl: "http://localhost:3000" }));
const allOperations = sections.flatMap((section) => section.operations);
const find = (id: string) => allOperations.find((operation) => operation.id === id)!;

describe("the API reference's view of the document", () => {
  it("lists every call once, grouped by tag in the tags' order", () => {
    expect(sections.map((section) => section.tag)).toEqual(["email-callbacks", "processings", "domains", "api-keys", "account"]);
    expect(allOperations.map((operation) => operation.id).sort()).toEqual(OPERATIONS.map((spec) => spec.operationId).sort());
  });

  it("resolves referenced schemas into fields, nested ones by their dotted path", () => {
    const create = find("createEmailCallback");
    const answer = create.success.contents[0]!.fields.map((field) => field.name);
    expect(answer).toEqual(expect.arrayContaining(["emailCallback", "emailCallback.id", "emailCallback.maskedWebhookSecret"]));
    const body = create.requestBody!.contents[0]!.fields;
    expect(body.find((field) => field.name === "username")).toMatchObject({ required: true, type: "string" });
    expect(body.find((field) => field.name === "attachmentDelivery")).toMatchObject({
      required: false,
      type: '"inline" | "url"',
    });
  });

  it("reads parameters, access, the events of a stream and the error codes by status", () => {
    const events = find("streamEmailCallbackEvents");
    expect(events.parameters.map(({ name, in: location }) => `${location} ${name}`)).toEqual([
      "path emailCallbackId",
      "query include",
      "query endpoint",
      "header Last-Event-ID",
    ]);
    expect(events.events.map((event) => event.name)).toEqual(["processing", "email.received"]);
    expect(find("listApiKeys").access).toBe("session");
    expect(find("getRawMessage").errors.find((error) => error.status === "409")?.codes).toEqual([
      "email_processing.message_gone",
    ]);
  });

  it("describes types for a reader", () => {
    expect(describeType({ type: ["string", "null"] })).toBe("string | null");
    expect(describeType({ type: "array", items: { type: "string", format: "date-time" } })).toBe("string (date-time)[]");
    expect(describeType({ anyOf: [{ type: "integer" }, { type: "null" }] })).toBe("integer | null");
    expect(
      listFields({ type: "object", properties: { list: { type: "array", items: { type: "object", properties: { a: {} } } } } }),
    ).toEqual([
      { name: "list", type: "object[]", required: false },
      { name: "list[].a", type: "any", required: false },
    ]);
  });
});
