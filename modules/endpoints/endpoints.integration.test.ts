// The endpoint calls through their route handlers on a fresh database: the list in creation order
// with the address's webhook first, the defaults of a new endpoint, an HMAC secret shown only by the
// call that set it, Ed25519 pairs whose private key never leaves the server, partial changes, the
// last endpoint kept, the plan's limit, and the address's webhookUrl / webhookSecret as its first
// endpoint's (docs/webhooks.md: Destinations).
import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { decryptSigningKey, deriveSigningKeyEncryptionKey } from "@/modules/delivery/signing-keys";
import { PLAN_MAX_ENDPOINTS } from "@/modules/plans/plans.constants";
import { createEndpointCalls } from "@/tests/support/endpoint-calls";
import { type RouteTestApp, startRouteTestApp, type TestUser } from "@/tests/support/route-test-app";

let app: RouteTestApp;
let owner: TestUser;
const calls = createEndpointCalls(() => app);
const AUTH_SECRET = "endpoint-tests-secret-endpoint-tests-secret";

beforeAll(async () => {
  app = await startRouteTestApp({ AUTH_SECRET, WEBHOOK_TIMEOUT_MS: "12000" });
  owner = await app.signUp("endpoints");
  // Many addresses: more than a free account may have.
  await app.database.prisma.user.update({ where: { id: owner.userId }, data: { planId: "pro" } });
});
afterAll(() => app.close());

async function addOrFail(emailCallbackId: string, body: Record<string, unknown>) {
  const response = await calls.addEndpoint(emailCallbackId, body, owner.headers);
  expect(response.status).toBe(201);
  return response.body?.endpoint as Record<string, any>;
}

describe("GET /api/email-callbacks/{id}/endpoints", () => {
  it("lists the address's webhook first, its secret masked, then the others in creation order", async () => {
    const id = await calls.createAddress(owner.headers);
    const second = await addOrFail(id, { url: "https://hooks.example.com/second" });
    const response = await calls.listEndpoints(id, owner.headers);
    expect(response.status).toBe(200);
    const { endpoints } = response.body!;
    expect(endpoints.map((endpoint: { url: string }) => endpoint.url)).toEqual([
      "https://hooks.example.com/first",
      "https://hooks.example.com/second",
    ]);
    expect(endpoints[0].signing).toEqual({ scheme: "hmac", maskedSecret: "••••••••6789" });
    expect(endpoints[1].id).toBe(second.id);
    expect(endpoints[1].signing).toEqual({ scheme: "hmac", maskedSecret: second.signing.maskedSecret });
  });

  it("shows an address without a secret as an endpoint that does not sign", async () => {
    const id = await calls.createAddress(owner.headers, { webhookSecret: undefined });
    const { endpoints } = (await calls.listEndpoints(id, owner.headers)).body!;
    expect(endpoints[0].signing).toEqual({ scheme: "none" });
  });
});

describe("POST /api/email-callbacks/{id}/endpoints", () => {
  it("adds json, hmac with a generated secret shown once, the configured timeout, no headers or filter, enabled", async () => {
    const id = await calls.createAddress(owner.headers);
    const endpoint = await addOrFail(id, { url: "https://hooks.example.com/defaults" });
    expect(endpoint).toEqual({
      id: expect.stringMatching(/^ep/),
      url: "https://hooks.example.com/defaults",
      format: "json",
      signing: { scheme: "hmac", secret: expect.any(String), maskedSecret: expect.any(String) },
      headers: {},
      timeoutMs: 12000,
      filter: null,
      isEnabled: true,
      createdAt: expect.any(String),
    });
    const stored = await app.database.prisma.endpoint.findUniqueOrThrow({ where: { id: endpoint.id } });
    expect(stored.secret).toBe(endpoint.signing.secret);
    expect(endpoint.signing.maskedSecret).toBe(`••••••••${stored.secret!.slice(-4)}`);
    expect(stored.timeoutMs).toBeNull();
    const listed = (await calls.listEndpoints(id, owner.headers)).body!.endpoints[1];
    expect(listed.signing).toEqual({ scheme: "hmac", maskedSecret: endpoint.signing.maskedSecret });
  });

  it("adds a raw Ed25519 endpoint: a whpk_ public key, the private key stored only encrypted and never answered", async () => {
    const id = await calls.createAddress(owner.headers);
    const response = await calls.addEndpoint(
      id,
      { url: "https://hooks.example.com/raw", format: "raw", signing: { scheme: "ed25519" } },
      owner.headers,
    );
    expect(response.status).toBe(201);
    const { endpoint } = response.body!;
    expect(endpoint.format).toBe("raw");
    expect(endpoint.signing).toEqual({ scheme: "ed25519", publicKey: expect.stringMatching(/^whpk_[A-Za-z0-9+/]{43}=$/) });
    const stored = await app.database.prisma.endpoint.findUniqueOrThrow({ where: { id: endpoint.id } });
    expect(stored).toMatchObject({ signingScheme: "ed25519", secret: null, publicKey: endpoint.signing.publicKey });
    const privateKey = decryptSigningKey({
      encrypted: stored.privateKeyEncrypted!,
      publicKey: stored.publicKey!,
      encryptionKey: deriveSigningKeyEncryptionKey(AUTH_SECRET),
    });
    const der = privateKey.export({ format: "der", type: "pkcs8" });
    const seed = der.subarray(der.length - 32);
    const text = JSON.stringify(response.body);
    for (const encoding of ["base64", "base64url", "hex"] as const) {
      expect(stored.privateKeyEncrypted).not.toContain(seed.toString(encoding));
      expect(text).not.toContain(seed.toString(encoding));
    }
    expect(text).not.toContain(stored.privateKeyEncrypted!);
    expect(text).not.toContain(createHash("sha256").update(seed).digest("hex"));
  });

  it("keeps the headers, the timeout, the filter and isEnabled it is given", async () => {
    const id = await calls.createAddress(owner.headers);
    const filter = { match: "any", conditions: [{ field: "subject", op: "contains", value: "invoice" }] };
    const endpoint = await addOrFail(id, {
      url: "https://hooks.example.com/custom",
      headers: { "X-Team": "billing" },
      timeoutMs: 5000,
      filter,
      isEnabled: false,
      signing: { scheme: "hmac", secret: "my-own-secret-0123456789" },
    });
    expect(endpoint).toMatchObject({ headers: { "X-Team": "billing" }, timeoutMs: 5000, filter, isEnabled: false });
    expect(endpoint.signing).toEqual({ scheme: "hmac", secret: "my-own-secret-0123456789", maskedSecret: "••••••••6789" });
  });
});

describe("PUT /api/email-callbacks/{id}/endpoints/{endpointId}", () => {
  it("changes only the fields sent, and keeps the secret hidden when signing is not sent", async () => {
    const id = await calls.createAddress(owner.headers);
    const endpoint = await addOrFail(id, { url: "https://hooks.example.com/before", headers: { "X-A": "1" } });
    const response = await calls.updateEndpoint(id, endpoint.id, { isEnabled: false, timeoutMs: 2000 }, owner.headers);
    expect(response.status).toBe(200);
    expect(response.body?.endpoint).toEqual({
      ...endpoint,
      signing: { scheme: "hmac", maskedSecret: endpoint.signing.maskedSecret },
      isEnabled: false,
      timeoutMs: 2000,
    });
  });

  it("changes nothing with an empty body", async () => {
    const id = await calls.createAddress(owner.headers);
    const endpoint = await addOrFail(id, { url: "https://hooks.example.com/same" });
    const response = await calls.updateEndpoint(id, endpoint.id, {}, owner.headers);
    expect(response.status).toBe(200);
    expect(response.body?.endpoint).toEqual({
      ...endpoint,
      signing: { scheme: "hmac", maskedSecret: endpoint.signing.maskedSecret },
    });
  });

  it("rotates a secret when signing is sent again, showing the new one once", async () => {
    const id = await calls.createAddress(owner.headers);
    const endpoint = await addOrFail(id, { url: "https://hooks.example.com/rotate" });
    const response = await calls.updateEndpoint(id, endpoint.id, { signing: { scheme: "hmac" } }, owner.headers);
    expect(response.status).toBe(200);
    const rotated = response.body?.endpoint.signing;
    expect(rotated.secret).toEqual(expect.any(String));
    expect(rotated.secret).not.toBe(endpoint.signing.secret);
    const stored = await app.database.prisma.endpoint.findUniqueOrThrow({ where: { id: endpoint.id } });
    expect(stored.secret).toBe(rotated.secret);
  });

  it("clears a filter with null and the timeout back to the default with null", async () => {
    const id = await calls.createAddress(owner.headers);
    const filter = { match: "all", conditions: [{ field: "spam.score", op: "lt", value: 5 }] };
    const endpoint = await addOrFail(id, { url: "https://hooks.example.com/f", filter, timeoutMs: 3000 });
    const response = await calls.updateEndpoint(id, endpoint.id, { filter: null, timeoutMs: null }, owner.headers);
    expect(response.body?.endpoint).toMatchObject({ filter: null, timeoutMs: 12000 });
  });
});

describe("DELETE /api/email-callbacks/{id}/endpoints/{endpointId}", () => {
  it("removes an endpoint (204) and keeps the only one (409 endpoint.last)", async () => {
    const id = await calls.createAddress(owner.headers);
    const second = await addOrFail(id, { url: "https://hooks.example.com/second" });
    expect((await calls.deleteEndpoint(id, second.id, owner.headers)).status).toBe(204);
    const [first] = (await calls.listEndpoints(id, owner.headers)).body!.endpoints;
    const refused = await calls.deleteEndpoint(id, first.id, owner.headers);
    expect(refused.status).toBe(409);
    expect(refused.body?.error.code).toBe("endpoint.last");
    expect((await calls.listEndpoints(id, owner.headers)).body!.endpoints).toHaveLength(1);
  });

  it("answers 404 endpoint.not_found for an endpoint already deleted", async () => {
    const id = await calls.createAddress(owner.headers);
    const second = await addOrFail(id, { url: "https://hooks.example.com/second" });
    await calls.deleteEndpoint(id, second.id, owner.headers);
    const again = await calls.deleteEndpoint(id, second.id, owner.headers);
    expect(again.status).toBe(404);
    expect(again.body?.error.code).toBe("endpoint.not_found");
  });
});

describe("the plan's number of endpoints", () => {
  it.each([
    ["free", PLAN_MAX_ENDPOINTS.free],
    ["pro", PLAN_MAX_ENDPOINTS.pro],
  ])("on %s, an address holds %i endpoints and the next answers 403 endpoints.limit_reached", async (planId, max) => {
    const user = await app.signUp(planId);
    await app.database.prisma.user.update({ where: { id: user.userId }, data: { planId } });
    const id = await calls.createAddress(user.headers);
    for (let index = 1; index < max; index += 1) {
      expect((await calls.addEndpoint(id, { url: `https://hooks.example.com/${index}` }, user.headers)).status).toBe(201);
    }
    const refused = await calls.addEndpoint(id, { url: "https://hooks.example.com/over" }, user.headers);
    expect(refused.status).toBe(403);
    expect(refused.body?.error.code).toBe("endpoints.limit_reached");
    expect(await app.database.prisma.endpoint.count({ where: { emailCallbackId: id, deletedAt: null } })).toBe(max);
  });
});

describe("the address's webhook is its first endpoint", () => {
  it("a change of the address's webhookUrl and webhookSecret changes its first endpoint", async () => {
    const id = await calls.createAddress(owner.headers);
    await addOrFail(id, { url: "https://hooks.example.com/second" });
    const changed = await calls.updateAddress(
      id,
      { webhookUrl: "https://hooks.example.com/moved", webhookSecret: "moved-secret-abcdefghijWXYZ" },
      owner.headers,
    );
    expect(changed.status).toBe(200);
    const { endpoints } = (await calls.listEndpoints(id, owner.headers)).body!;
    expect(endpoints[0]).toMatchObject({
      url: "https://hooks.example.com/moved",
      signing: { scheme: "hmac", maskedSecret: "••••••••WXYZ" },
    });
    expect(endpoints[1].url).toBe("https://hooks.example.com/second");
  });

  it("a change of the first endpoint is the address's: its URL, and a secret taken away by Ed25519", async () => {
    const id = await calls.createAddress(owner.headers);
    const [first] = (await calls.listEndpoints(id, owner.headers)).body!.endpoints;
    const moved = await calls.updateEndpoint(id, first.id, { url: "https://hooks.example.com/renamed" }, owner.headers);
    expect(moved.status).toBe(200);
    expect((await calls.getAddress(id, owner.headers)).body?.emailCallback).toMatchObject({
      webhookUrl: "https://hooks.example.com/renamed",
      maskedWebhookSecret: "••••••••6789",
    });
    await calls.updateEndpoint(id, first.id, { signing: { scheme: "ed25519" } }, owner.headers);
    expect((await calls.getAddress(id, owner.headers)).body?.emailCallback).toMatchObject({
      hasWebhookSecret: false,
      maskedWebhookSecret: null,
    });
  });

  it("an address's secret taken away makes its first endpoint one that does not sign", async () => {
    const id = await calls.createAddress(owner.headers);
    expect((await calls.updateAddress(id, { webhookSecret: "" }, owner.headers)).status).toBe(200);
    const [first] = (await calls.listEndpoints(id, owner.headers)).body!.endpoints;
    expect(first.signing).toEqual({ scheme: "none" });
  });

  it("deleting the first endpoint makes the second the address's webhook", async () => {
    const id = await calls.createAddress(owner.headers);
    const second = await addOrFail(id, {
      url: "https://hooks.example.com/second",
      signing: { scheme: "hmac", secret: "second-secret-0123456789ABCD" },
    });
    const [first] = (await calls.listEndpoints(id, owner.headers)).body!.endpoints;
    expect((await calls.deleteEndpoint(id, first.id, owner.headers)).status).toBe(204);
    const address = (await calls.getAddress(id, owner.headers)).body?.emailCallback;
    expect(address).toMatchObject({ webhookUrl: second.url, hasWebhookSecret: true, maskedWebhookSecret: "••••••••ABCD" });
  });
});
