import { describe, expect, it } from "vitest";
import { webhookSecretSchema } from "@/modules/email-callbacks/email-callbacks.schemas";
import { normalizeError } from "@/modules/shared/errors/error-response";
import {
  createEndpointSchema,
  endpointHeaderRowsSchema,
  endpointHeadersSchema,
  toEndpointHeaders,
  updateEndpointSchema,
} from "./endpoints.schemas";

const url = "https://hooks.example.com/in";

/** The API's answer to a body the schema refuses. */
function answerTo(body: unknown) {
  const result = createEndpointSchema.safeParse(body);
  if (result.success) throw new Error("the body was accepted");
  const error = normalizeError(result.error);
  return { code: error.code, status: error.httpStatus, message: error.message, fields: error.fields };
}

describe("createEndpointSchema (docs/webhooks.md: Endpoints)", () => {
  it("gives the defaults: json, hmac with a secret to generate, no headers, the configured timeout, no filter, enabled", () => {
    expect(createEndpointSchema.parse({ url })).toEqual({
      url,
      format: "json",
      signing: { scheme: "hmac" },
      headers: {},
      timeoutMs: null,
      filter: null,
      isEnabled: true,
    });
  });

  it("takes every field", () => {
    const body = {
      url: ` ${url} `,
      format: "raw",
      signing: { scheme: "ed25519" },
      headers: { Authorization: "Bearer abc", "X-Tenant": "acme" },
      timeoutMs: 5000,
      isEnabled: false,
    };
    expect(createEndpointSchema.parse(body)).toEqual({ ...body, url, filter: null });
  });

  it("takes a secret of the caller's own with the address form's rules, and never an empty one", () => {
    const secret = "my-own-secret-0123456789";
    expect(createEndpointSchema.parse({ url, signing: { scheme: "hmac", secret } }).signing).toEqual({ scheme: "hmac", secret });
    for (const [bad, message] of [
      ["", "emailCallbacks.form.validation.webhookSecretTooShort"],
      ["short", "emailCallbacks.form.validation.webhookSecretTooShort"],
      ["with a space 0123456789", "emailCallbacks.form.validation.webhookSecretCharacters"],
      ["x".repeat(129), "emailCallbacks.form.validation.webhookSecretTooLong"],
    ] as const) {
      const issues = createEndpointSchema.safeParse({ url, signing: { scheme: "hmac", secret: bad } }).error?.issues;
      expect(issues?.map((issue) => issue.message)).toContain(message);
    }
  });

  it("leaves the address form's rule as it is: there, an empty secret still means none", () => {
    expect(webhookSecretSchema.parse("")).toBe("");
  });

  it("refuses the none scheme, an unknown one, and a secret given with ed25519, as validation errors", () => {
    for (const signing of [
      { scheme: "none" },
      { scheme: "rsa" },
      { scheme: "ed25519", secret: "my-own-secret-0123456789" },
      "hmac",
    ]) {
      expect({ signing, code: answerTo({ url, signing }).code }).toEqual({ signing, code: "request.invalid_body" });
    }
  });

  it("refuses a URL the address form refuses, an unknown format and a timeout out of range, as validation errors", () => {
    for (const body of [
      { url: "ftp://hooks.example.com/in" },
      { url: "not a url" },
      { url: "" },
      { url, format: "xml" },
      { url, timeoutMs: 999 },
      { url, timeoutMs: 30_001 },
      { url, timeoutMs: 1500.5 },
      { url, timeoutMs: "5000" },
    ]) {
      expect({ body, answer: answerTo(body) }).toMatchObject({ body, answer: { code: "request.invalid_body", status: 400 } });
    }
    expect(createEndpointSchema.parse({ url, timeoutMs: 1000 }).timeoutMs).toBe(1000);
    expect(createEndpointSchema.parse({ url, timeoutMs: 30_000 }).timeoutMs).toBe(30_000);
  });
});

describe("an endpoint's headers", () => {
  it.each([
    ["a name that is not an HTTP token", { "X Tenant": "a" }, /^Header "X Tenant" is not a header name/],
    ["an empty name", { "": "a" }, /^Header "" is not a header name/],
    ["a name over 256 characters", { ["X".repeat(257)]: "a" }, /^Header "X{64}…" is not a header name/],
    ["host", { Host: "evil.example" }, /^Header "Host" cannot be set/],
    ["content-length", { "content-length": "1" }, /^Header "content-length" cannot be set/],
    ["content-type", { "Content-Type": "text/plain" }, /^Header "Content-Type" cannot be set/],
    ["transfer-encoding", { "Transfer-Encoding": "chunked" }, /^Header "Transfer-Encoding" cannot be set/],
    ["connection", { Connection: "close" }, /^Header "Connection" cannot be set/],
    ["a webhook-* name", { "Webhook-Signature": "v1,x" }, /^Header "Webhook-Signature" cannot be set/],
    ["an x-hookmail-* name", { "X-Hookmail-Recipient": "a@b.c" }, /^Header "X-Hookmail-Recipient" cannot be set/],
    ["a value with CR", { "X-A": "a\rb" }, /^Header "X-A" has a line break, a NUL/],
    ["a value with LF", { "X-A": "a\nInjected: yes" }, /^Header "X-A" has a line break, a NUL/],
    ["a value with NUL", { "X-A": "a\u0000" }, /^Header "X-A" has a line break, a NUL/],
    ["a value over 1 KiB", { "X-A": "é".repeat(513) }, /^Header "X-A" has a value over 1024 bytes/],
    ["a name given twice in another case", { "X-Tenant": "a", "x-tenant": "b" }, /^Header "x-tenant" is given twice/],
    [
      "more than 10 headers",
      Object.fromEntries(Array.from({ length: 11 }, (_, i) => [`X-H${i}`, "v"])),
      /^At most 10 headers: 11/,
    ],
  ])("refuses %s with 400 endpoint.invalid_header and a message naming it", (_, headers, message) => {
    const answer = answerTo({ url, headers });
    expect(answer).toMatchObject({ code: "endpoint.invalid_header", status: 400 });
    expect(answer.message).toMatch(message);
  });

  it("puts each refused header on its own field", () => {
    const { fields } = answerTo({ url, headers: { Host: "x", "X-Ok": "fine", "X-B": "a\nb" } });
    expect(fields?.map((field) => field.path)).toEqual(["headers.Host", "headers.X-B"]);
  });

  it("takes names of every token character, a value of exactly 1 KiB, tabs and text beyond ASCII", () => {
    const headers = {
      "X-!#$%&'*+-.^_`|~09az": "a",
      "X-Max": "é".repeat(512),
      "X-Tab": "a\tb",
      "X-Text": "Jörg €",
      Authorization: "Bearer abc",
      "X-Webhook-Id": "allowed: only webhook-* itself is Hookmail's",
    };
    expect(endpointHeadersSchema.parse(headers)).toEqual(headers);
    const ten = Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`X-H${i}`, "v"]));
    expect(endpointHeadersSchema.parse(ten)).toEqual(ten);
  });

  it("refuses a value that is not text as a validation error", () => {
    expect(answerTo({ url, headers: { "X-A": 1 } }).code).toBe("request.invalid_body");
  });
});

describe("the form's header rows", () => {
  it("puts a translated message on the row's field, with the endpoint.invalid_header code", () => {
    const rows = [
      { name: "X-Tenant", value: "a" },
      { name: "host", value: "x" },
      { name: "X-B", value: "a\nb" },
      { name: "x-tenant", value: "c" },
      { name: "bad name", value: "d" },
      { name: "X-Long", value: "x".repeat(1025) },
    ];
    const issues = endpointHeaderRowsSchema.safeParse(rows).error?.issues;
    expect(issues?.map(({ path, message }) => ({ path, message }))).toEqual([
      { path: [1, "name"], message: "endpoints.validation.headerNameReserved" },
      { path: [2, "value"], message: "endpoints.validation.headerValueInvalid" },
      { path: [3, "name"], message: "endpoints.validation.headerNameDuplicate" },
      { path: [4, "name"], message: "endpoints.validation.headerNameInvalid" },
      { path: [5, "value"], message: "endpoints.validation.headerValueTooLong" },
    ]);
    expect(normalizeError(endpointHeaderRowsSchema.safeParse(rows).error).code).toBe("endpoint.invalid_header");
  });

  it("takes at most 10 rows, and gives the API's headers", () => {
    const rows = Array.from({ length: 11 }, (_, i) => ({ name: `X-H${i}`, value: "v" }));
    expect(endpointHeaderRowsSchema.safeParse(rows).error?.issues[0]?.message).toBe("endpoints.validation.headersTooMany");
    expect(toEndpointHeaders(rows.slice(0, 2))).toEqual({ "X-H0": "v", "X-H1": "v" });
  });
});

describe("updateEndpointSchema", () => {
  it("gives only the fields sent, with no defaults", () => {
    expect(updateEndpointSchema.parse({})).toEqual({});
    expect(updateEndpointSchema.parse({ isEnabled: false, timeoutMs: null })).toEqual({ isEnabled: false, timeoutMs: null });
  });

  it("has the same rules as creation", () => {
    expect(updateEndpointSchema.safeParse({ signing: { scheme: "none" } }).success).toBe(false);
    expect(updateEndpointSchema.safeParse({ url: "ftp://x.example" }).success).toBe(false);
    expect(normalizeError(updateEndpointSchema.safeParse({ headers: { Host: "x" } }).error).code).toBe("endpoint.invalid_header");
  });
});
