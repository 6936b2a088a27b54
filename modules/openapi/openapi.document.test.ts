// The OpenAPI document (README: REST API) is a valid OpenAPI 3.1 description, every route of the
// REST API under app/api is in it with the methods its file exports, and each error answer lists
// only codes whose status (modules/shared/errors/error-codes.ts) is that answer's.
import fs from "node:fs";
import path from "node:path";
import { compileErrors, validate } from "@readme/openapi-parser";
import { describe, expect, it } from "vitest";
import { GET } from "@/app/api/openapi.json/route";
import { loadConfig } from "@/modules/config/config";
import { setServices } from "@/modules/server/services";
import { ERROR_HTTP_STATUSES, type ErrorCode } from "@/modules/shared/errors/error-codes";
import { createTestServices } from "@/tests/support/test-services";
import { buildOpenApiDocument } from "./openapi.document";
import { HTTP_METHODS } from "./openapi.operations";

const ROOT = path.resolve(import.meta.dirname, "../..");
const API_DIR = path.join(ROOT, "app/api");

/** Routes that are not part of the REST API this document describes, each for its reason. */
const NOT_DESCRIBED_BECAUSE: Record<string, string> = {
  "/api/auth": "better-auth's own endpoints (sign-in, sign-up, reset), described by better-auth, not by us",
  "/api/inbound": "the mail providers' ingest webhooks, called by Postmark, Mailgun, SendGrid with their own formats",
  "/api/payments": "Stripe checkout, its portal and its webhook, called by the app's pages and by Stripe",
  "/api/content": "the signed content links of a webhook body: a link carries its own signature, not a credential",
  "/api/health": "the health check of a load balancer or an orchestrator",
  "/api/config": "the public settings the app's pages read before anyone signs in",
  "/api/webhooks/schema": "the JSON Schema of the webhook body, a document of its own (docs/webhooks.md)",
  "/api/metrics": "Prometheus's scrape, in Prometheus's text format behind METRICS_TOKEN",
  "/api/openapi.json": "this document itself",
};
const NOT_DESCRIBED = Object.keys(NOT_DESCRIBED_BECAUSE);

const isDescribed = (apiPath: string) => !NOT_DESCRIBED.some((prefix) => apiPath === prefix || apiPath.startsWith(`${prefix}/`));

function listRouteFiles(directory: string): string[] {
  return fs.readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(directory, entry.name);
    if (entry.isDirectory()) return listRouteFiles(file);
    return entry.name === "route.ts" ? [file] : [];
  });
}

/** `app/api/a/[id]/b/route.ts` → `/api/a/{id}/b`. */
function toApiPath(routeFile: string): string {
  const segments = path.relative(path.join(ROOT, "app"), path.dirname(routeFile)).split(path.sep);
  return `/${segments.map((segment) => segment.replace(/^\[([^.\]]+)\]$/, "{$1}")).join("/")}`;
}

/** The HTTP methods a route file exports (`export const GET =`, `export async function POST(`). */
function listExportedMethods(routeFile: string): string[] {
  const source = fs.readFileSync(routeFile, "utf8");
  const pattern = /export\s+(?:const|(?:async\s+)?function)\s+(GET|POST|PUT|PATCH|DELETE)\b/g;
  return [...source.matchAll(pattern)].map((match) => (match[1] ?? "").toLowerCase()).sort();
}

const document = buildOpenApiDocument({ serverUrl: "http://localhost:3000" });

function listDocumentedOperations() {
  return Object.entries(document.paths).flatMap(([apiPath, item]) =>
    HTTP_METHODS.filter((method) => method in item).map((method) => `${method.toUpperCase()} ${apiPath}`),
  );
}

describe("the OpenAPI document", () => {
  it("is a valid OpenAPI 3.1 document", async () => {
    const result = await validate(structuredClone(document) as Parameters<typeof validate>[0]);
    expect(result.valid ? "" : compileErrors(result)).toBe("");
    expect(result.specification).toBe("OpenAPI");
    expect(document.openapi).toMatch(/^3\.1\./);
  });

  it("describes every route file of the REST API with the methods it exports, and no call without one", () => {
    const routes = listRouteFiles(API_DIR)
      .map((file) => ({ apiPath: toApiPath(file), methods: listExportedMethods(file) }))
      .filter(({ apiPath }) => isDescribed(apiPath));
    expect(routes.map(({ apiPath }) => apiPath)).toEqual(
      expect.arrayContaining(["/api/email-callbacks/{emailCallbackId}", "/api/users/me"]),
    );
    const fromFiles = routes.flatMap(({ apiPath, methods }) => methods.map((method) => `${method.toUpperCase()} ${apiPath}`));
    expect(listDocumentedOperations().sort()).toEqual(fromFiles.sort());
  });

  it("leaves out only the listed routes, each with its reason and each of which exists", () => {
    const apiPaths = listRouteFiles(API_DIR).map(toApiPath);
    for (const prefix of NOT_DESCRIBED) {
      expect(
        apiPaths.some((apiPath) => apiPath === prefix || apiPath.startsWith(`${prefix}/`)),
        prefix,
      ).toBe(true);
      expect(NOT_DESCRIBED_BECAUSE[prefix]?.length, prefix).toBeGreaterThan(10);
    }
  });

  it("lists under each error status only codes of that status, and every call can answer 401 and 500", () => {
    for (const [apiPath, item] of Object.entries(document.paths)) {
      for (const operation of Object.values(item)) {
        const statuses = Object.keys(operation.responses);
        expect(statuses, apiPath).toEqual(expect.arrayContaining(["401", "500"]));
        for (const status of statuses.filter((status) => Number(status) >= 400)) {
          const response = operation.responses[status] as unknown as { content: { "application/json": { schema: ErrorSchema } } };
          const codes = response.content["application/json"].schema.properties.error.properties.code.enum;
          expect(codes.length).toBeGreaterThan(0);
          for (const code of codes) expect(ERROR_HTTP_STATUSES[code], `${apiPath} ${code}`).toBe(Number(status));
        }
      }
    }
  });

  it("gives the session-only calls the session cookie alone, and the others an API key too", () => {
    const securityOf = (apiPath: string, method: "get" | "delete") =>
      (document.paths[apiPath]![method] as { security: Record<string, string[]>[] }).security.flatMap(Object.keys);
    expect(securityOf("/api/api-keys", "get")).toEqual(["sessionCookie"]);
    expect(securityOf("/api/users/me", "get")).toEqual(["sessionCookie"]);
    expect(securityOf("/api/email-callbacks/{emailCallbackId}", "delete")).toEqual(["apiKey", "sessionCookie"]);
    expect(securityOf("/api/domains", "get")).toEqual(["apiKey", "sessionCookie"]);
    expect(securityOf("/api/domains/{domainId}", "delete")).toEqual(["apiKey", "sessionCookie"]);
    expect(Object.keys(document.components.securitySchemes)).toEqual(["apiKey", "sessionCookie"]);
  });

  it("takes its query parameters from the route's schema: the inbox's filters and pages", () => {
    const list = document.paths["/api/email-callbacks/{emailCallbackId}/processings"]?.get as {
      parameters: { name: string; in: string }[];
    };
    const query = list.parameters.filter((parameter) => parameter.in === "query").map(({ name }) => name);
    expect(query.sort()).toEqual(["pageIndex", "pageSize", "q", "status"]);
  });
});

it("describes the test mail's two bodies, and no invalid-body error for the JSON one it does not read", () => {
  const testMail = document.paths["/api/email-callbacks/{emailCallbackId}/test-mail"]!.post as unknown as {
    requestBody: { required: boolean; content: Record<string, unknown> };
    responses: Record<string, { content: { "application/json": { schema: ErrorSchema } } }>;
  };
  expect(testMail.requestBody.required).toBe(false);
  expect(Object.keys(testMail.requestBody.content)).toEqual(["application/json", "message/rfc822"]);
  expect(testMail.responses["400"]!.content["application/json"].schema.properties.error.properties.code.enum).toEqual([
    "inbound.invalid_message",
    "inbound.message_too_complex",
  ]);
  expect(Object.keys(testMail.responses)).toEqual(expect.arrayContaining(["202", "404", "413", "429"]));
});

it("describes the account calls, session only, with the body PUT /api/users/me parses and the user it answers", () => {
  const account = document.paths["/api/users/me"] as unknown as Record<"get" | "put", AccountOperation>;
  expect(Object.keys(account).sort()).toEqual(["get", "put"]);
  for (const operation of Object.values(account)) {
    expect(operation.security).toEqual([{ sessionCookie: [] }]);
    expect(operation.tags).toEqual(["account"]);
    expect(operation.responses["200"]!.content["application/json"].schema.properties.user).toEqual({
      $ref: "#/components/schemas/User",
    });
    expect(operation.responses["403"]!.content["application/json"].schema.properties.error.properties.code.enum).toContain(
      "api_keys.session_required",
    );
  }
  const body = account.put.requestBody!.content["application/json"].schema;
  expect(body).toMatchObject({
    type: "object",
    additionalProperties: false,
    properties: { name: { type: "string", minLength: 1, maxLength: 64 }, deliveryAlerts: { type: "boolean" } },
  });
  expect(body.required ?? []).toEqual([]);
  expect(account.put.responses["400"]!.content["application/json"].schema.properties.error.properties.code.enum).toEqual([
    "request.invalid_body",
  ]);
  expect(Object.keys((document.components.schemas as Record<string, unknown>).User as object)).toContain("properties");
});

it("describes the domain calls with the body POST /api/domains parses, the Domain it answers and each call's codes", () => {
  type DomainOperation = {
    tags: string[];
    responses: Record<
      string,
      { content: { "application/json": { schema: ErrorSchema & { properties: Record<string, unknown> } } } }
    >;
    requestBody?: { content: { "application/json": { schema: Record<string, unknown> } } };
  };
  const operation = (apiPath: string, method: string) =>
    (document.paths[apiPath] as unknown as Record<string, DomainOperation>)[method]!;
  const codesOf = (op: DomainOperation, status: string) =>
    op.responses[status]!.content["application/json"].schema.properties.error.properties.code.enum;
  expect(Object.keys(document.paths["/api/domains"]!).sort()).toEqual(["get", "post"]);
  expect(Object.keys(document.paths["/api/domains/{domainId}"]!).sort()).toEqual(["delete", "get"]);
  expect(Object.keys(document.paths["/api/domains/{domainId}/verify"]!)).toEqual(["post"]);
  const route = operation("/api/domains/route", "get");
  expect(codesOf(route, "400")).toContain("domain.invalid_address");
  expect(Object.keys(route.responses["200"]!.content["application/json"].schema.properties)).toEqual([
    "recipient",
    "match",
    "emailCallback",
    "reason",
  ]);

  const create = operation("/api/domains", "post");
  expect(create.tags).toEqual(["domains"]);
  expect(create.requestBody!.content["application/json"].schema).toMatchObject({
    type: "object",
    properties: { name: { type: "string" } },
    required: ["name"],
  });
  expect(create.responses["201"]!.content["application/json"].schema.properties.domain).toEqual({
    $ref: "#/components/schemas/Domain",
  });
  expect(codesOf(create, "400").sort()).toEqual(["domain.invalid", "domain.reserved", "request.invalid_body"]);
  expect(codesOf(create, "409").sort()).toEqual(["domain.already_exists", "domain.taken"]);
  expect(codesOf(create, "403")).toContain("domains.limit_reached");
  expect(codesOf(operation("/api/domains/{domainId}", "delete"), "409")).toEqual(["domain.in_use"]);
  expect(codesOf(operation("/api/domains/{domainId}/verify", "post"), "404")).toContain("domain.not_found");
  const domain = (document.components.schemas as Record<string, { properties: Record<string, unknown> }>).Domain!;
  expect(Object.keys(domain.properties)).toEqual([
    "id",
    "name",
    "status",
    "records",
    "verifiedAt",
    "lastCheckedAt",
    "lastCheckError",
    "createdAt",
  ]);
});

type AccountOperation = {
  security: Record<string, string[]>[];
  tags: string[];
  requestBody?: { content: { "application/json": { schema: { required?: string[] } & Record<string, unknown> } } };
  responses: Record<string, { content: { "application/json": { schema: ErrorSchema & { properties: { user?: unknown } } } } }>;
};

type ErrorSchema = { properties: { error: { properties: { code: { enum: ErrorCode[] } } } } };

describe("GET /api/openapi.json", () => {
  it("answers the document without credentials, and the same with an API key", async () => {
    setServices(
      createTestServices({ config: loadConfig({ DATA_DIR: "/tmp/hookmail-test", BASE_URL: "http://localhost:3000" }) }),
    );
    const context = { params: Promise.resolve({}) };
    const anonymous = await GET(new Request("http://localhost:3000/api/openapi.json"), context);
    expect(anonymous.status).toBe(200);
    const body = await anonymous.json();
    expect(body.openapi).toMatch(/^3\.1\./);
    expect(body.servers).toEqual([{ url: "http://localhost:3000" }]);
    const withKey = await GET(
      new Request("http://localhost:3000/api/openapi.json", { headers: { Authorization: `Bearer hm_${"x".repeat(40)}` } }),
      context,
    );
    expect(withKey.status).toBe(200);
    expect(await withKey.json()).toEqual(body);
  });
});
