// What the endpoint calls refuse, through their route handlers on a fresh database: bad input with
// its code (a header, a filter, a private URL have their own; the rest is a validation error like
// every other), and the owner's rules: another user's address or endpoint and a deleted address are
// not found, no caller is 401, and API keys reach the calls (docs/webhooks.md: Destinations).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createEndpointCalls } from "@/tests/support/endpoint-calls";
import { type RouteTestApp, setUpOwnerAndStranger, startRouteTestApp } from "@/tests/support/route-test-app";

const suite = setUpOwnerAndStranger("endpoints");
const calls = createEndpointCalls(() => suite.app);

beforeAll(async () => {
  // Many addresses: more than a free account may have.
  await suite.app.database.prisma.user.update({ where: { id: suite.owner.userId }, data: { planId: "pro" } });
});

const valid = { url: "https://hooks.example.com/x" };
const condition = (overrides: Record<string, unknown> = {}) => ({ field: "subject", op: "contains", value: "a", ...overrides });
const filterOf = (conditions: unknown[]) => ({ match: "all", conditions });

describe("POST and PUT /api/email-callbacks/{id}/endpoints refuse bad input", () => {
  let addressOfBadInput: string | undefined;
  it.each([
    ["a header name that is not a token", { headers: { "Bad Header": "x" } }, "endpoint.invalid_header"],
    ["a reserved header", { headers: { "Webhook-Id": "x" } }, "endpoint.invalid_header"],
    ["a header value with a line break", { headers: { "X-A": "a\r\nInjected: 1" } }, "endpoint.invalid_header"],
    ["a header value over 1 KiB", { headers: { "X-A": "a".repeat(1025) } }, "endpoint.invalid_header"],
    [
      "eleven headers",
      { headers: Object.fromEntries(Array.from({ length: 11 }, (_, index) => [`X-H${index}`, "v"])) },
      "endpoint.invalid_header",
    ],
    ["a filter on an unknown field", { filter: filterOf([condition({ field: "color" })]) }, "endpoint.invalid_filter"],
    ["a filter with a bad operator", { filter: filterOf([condition({ op: "near" })]) }, "endpoint.invalid_filter"],
    [
      "a filter whose pattern does not compile",
      { filter: filterOf([condition({ op: "matches", value: "(unclosed" })]) },
      "endpoint.invalid_filter",
    ],
    ["a timeout under 1000 ms", { timeoutMs: 999 }, "request.invalid_body"],
    ["a timeout over 30000 ms", { timeoutMs: 30_001 }, "request.invalid_body"],
    ["a filter without conditions", { filter: filterOf([]) }, "request.invalid_body"],
    ["a filter of 21 conditions", { filter: filterOf(Array.from({ length: 21 }, () => condition())) }, "request.invalid_body"],
    ["a URL that is not one", { url: "not a url" }, "request.invalid_body"],
    ["an ftp URL", { url: "ftp://files.example.com/x" }, "request.invalid_body"],
    ["an unknown format", { format: "xml" }, "request.invalid_body"],
    ["the scheme none", { signing: { scheme: "none" } }, "request.invalid_body"],
    ["a loopback URL", { url: "http://127.0.0.1:8080/hook" }, "email_callback.webhook_url_not_allowed"],
    ["a private-network URL", { url: "https://192.168.1.10/x" }, "email_callback.webhook_url_not_allowed"],
  ])("%s answers 400, on POST and on PUT, and changes nothing", async (_, body, code) => {
    addressOfBadInput ??= await calls.createAddress(suite.owner.headers);
    const id = addressOfBadInput;
    const added = await calls.addEndpoint(id, { ...valid, ...body }, suite.owner.headers);
    expect(added.status).toBe(400);
    expect(added.body?.error.code).toBe(code);
    const [first] = (await calls.listEndpoints(id, suite.owner.headers)).body!.endpoints;
    const changed = await calls.updateEndpoint(id, first.id, body, suite.owner.headers);
    expect(changed.status).toBe(400);
    expect(changed.body?.error.code).toBe(code);
    expect((await calls.listEndpoints(id, suite.owner.headers)).body!.endpoints).toEqual([first]);
  });

  it("names the condition whose pattern does not compile", async () => {
    const id = await calls.createAddress(suite.owner.headers);
    const filter = filterOf([condition(), condition({ op: "matches", value: "[z-a]" })]);
    const response = await calls.addEndpoint(id, { ...valid, filter }, suite.owner.headers);
    expect(response.status).toBe(400);
    expect(response.body?.error.message).toContain("Condition 2");
  });
});

describe("the owner's rules", () => {
  it("answers 404 email_callback.not_found for another user's address, on every call", async () => {
    const id = await calls.createAddress(suite.owner.headers);
    const [first] = (await calls.listEndpoints(id, suite.owner.headers)).body!.endpoints;
    for (const headers of [suite.stranger.headers, suite.strangerKey]) {
      const answers = [
        await calls.listEndpoints(id, headers),
        await calls.addEndpoint(id, valid, headers),
        await calls.updateEndpoint(id, first.id, { isEnabled: false }, headers),
        await calls.deleteEndpoint(id, first.id, headers),
      ];
      for (const answer of answers) {
        expect(answer.status).toBe(404);
        expect(answer.body?.error.code).toBe("email_callback.not_found");
      }
    }
    expect((await calls.listEndpoints(id, suite.owner.headers)).body!.endpoints).toEqual([first]);
  });

  it("answers 404 endpoint.not_found for an endpoint of another address, even the caller's own", async () => {
    const mine = await calls.createAddress(suite.owner.headers);
    const other = await calls.createAddress(suite.owner.headers);
    const strangers = await calls.createAddress(suite.stranger.headers);
    await calls.addEndpoint(mine, valid, suite.owner.headers);
    for (const source of [other, strangers]) {
      const headers = source === other ? suite.owner.headers : suite.stranger.headers;
      const [foreign] = (await calls.listEndpoints(source, headers)).body!.endpoints;
      const changed = await calls.updateEndpoint(mine, foreign.id, { isEnabled: false }, suite.owner.headers);
      expect(changed.status).toBe(404);
      expect(changed.body?.error.code).toBe("endpoint.not_found");
      const removed = await calls.deleteEndpoint(mine, foreign.id, suite.owner.headers);
      expect(removed.status).toBe(404);
      expect(removed.body?.error.code).toBe("endpoint.not_found");
    }
  });

  it("answers 404 email_callback.not_found for a deleted address", async () => {
    const id = await calls.createAddress(suite.owner.headers);
    const [first] = (await calls.listEndpoints(id, suite.owner.headers)).body!.endpoints;
    expect((await calls.deleteAddress(id, suite.owner.headers)).status).toBe(204);
    for (const answer of [
      await calls.listEndpoints(id, suite.owner.headers),
      await calls.addEndpoint(id, valid, suite.owner.headers),
      await calls.updateEndpoint(id, first.id, { isEnabled: false }, suite.owner.headers),
      await calls.deleteEndpoint(id, first.id, suite.owner.headers),
    ]) {
      expect(answer.status).toBe(404);
      expect(answer.body?.error.code).toBe("email_callback.not_found");
    }
  });

  it("answers 401 without a caller", async () => {
    const id = await calls.createAddress(suite.owner.headers);
    const [first] = (await calls.listEndpoints(id, suite.owner.headers)).body!.endpoints;
    for (const answer of [
      await calls.listEndpoints(id, {}),
      await calls.addEndpoint(id, valid, {}),
      await calls.updateEndpoint(id, first.id, { isEnabled: false }, {}),
      await calls.deleteEndpoint(id, first.id, {}),
    ]) {
      expect(answer.status).toBe(401);
    }
  });

  it("lets the owner's API key list, add, change and delete", async () => {
    const id = await calls.createAddress(suite.owner.headers);
    const added = await calls.addEndpoint(id, valid, suite.ownerKey);
    expect(added.status).toBe(201);
    const endpointId = added.body?.endpoint.id as string;
    expect((await calls.listEndpoints(id, suite.ownerKey)).body?.endpoints).toHaveLength(2);
    const changed = await calls.updateEndpoint(id, endpointId, { url: "https://hooks.example.com/y" }, suite.ownerKey);
    expect(changed.body?.endpoint.url).toBe("https://hooks.example.com/y");
    expect((await calls.deleteEndpoint(id, endpointId, suite.ownerKey)).status).toBe(204);
  });
});

describe("with WEBHOOK_ALLOW_PRIVATE_TARGETS", () => {
  let app: RouteTestApp;
  beforeAll(async () => {
    app = await startRouteTestApp({ WEBHOOK_ALLOW_PRIVATE_TARGETS: "true" });
  });
  afterAll(() => app.close());

  it("accepts a private URL", async () => {
    const user = await app.signUp("private");
    const privateCalls = createEndpointCalls(() => app);
    const id = await privateCalls.createAddress(user.headers);
    const response = await privateCalls.addEndpoint(id, { url: "http://127.0.0.1:8080/hook" }, user.headers);
    expect(response.status).toBe(201);
  });
});
