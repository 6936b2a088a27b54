// The email callbacks REST API through its route handlers, on a fresh database: every validation
// rule and error code with its exact status, secrets never returned, soft deletion, the inbox pages.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as processings from "@/app/api/email-callbacks/[emailCallbackId]/processings/route";
import * as item from "@/app/api/email-callbacks/[emailCallbackId]/route";
import * as collection from "@/app/api/email-callbacks/route";
import { createId } from "@/modules/shared/ids";
import { type RouteTestApp, startRouteTestApp, type TestUser } from "@/tests/support/route-test-app";
import { seedDeliveriesOf } from "@/tests/support/seed";

let app: RouteTestApp;
let owner: TestUser;

const validBody = (overrides: Record<string, unknown> = {}) => ({
  domain: "hookmail.test",
  username: `user-${Math.random().toString(36).slice(2, 10)}`,
  webhookUrl: "https://hooks.example.com/incoming",
  allowedOrigins: [],
  ...overrides,
});

const create = (user: TestUser, body: unknown) =>
  app.call(collection.POST, { path: "/api/email-callbacks", method: "POST", body, headers: user.headers });

const update = (user: TestUser, id: string, body: unknown) =>
  app.call(item.PUT, {
    path: `/api/email-callbacks/${id}`,
    method: "PUT",
    body,
    headers: user.headers,
    params: { emailCallbackId: id },
  });

beforeAll(async () => {
  app = await startRouteTestApp();
  owner = await app.signUp("owner");
});
afterAll(() => app.close());

describe("POST /api/email-callbacks validation", () => {
  it.each([
    ["a missing username", { username: undefined }, 400, "request.invalid_body", "username"],
    ["an empty username", { username: "  " }, 400, "request.invalid_body", "username"],
    ["a username under 3 characters", { username: "ab" }, 400, "request.invalid_body", "username"],
    ["a username over 64 characters", { username: "a".repeat(65) }, 400, "request.invalid_body", "username"],
    ["a username starting with a dash", { username: "-abc" }, 400, "request.invalid_body", "username"],
    ["a username ending with a dot", { username: "abc." }, 400, "request.invalid_body", "username"],
    ["a username with a space", { username: "a b c" }, 400, "request.invalid_body", "username"],
    ["a username with a plus", { username: "abc+tag" }, 400, "request.invalid_body", "username"],
    ["a reserved username", { username: "postmaster" }, 400, "email_callback.username_not_allowed", "username"],
    ["a reserved username in capitals", { username: "Admin" }, 400, "email_callback.username_not_allowed", "username"],
    ["a brand name", { username: "paypal" }, 400, "email_callback.username_not_allowed", "username"],
    ["a domain not offered", { domain: "elsewhere.com" }, 400, "email_callback.invalid_domain", "domain"],
    ["a missing webhook URL", { webhookUrl: "" }, 400, "request.invalid_body", "webhookUrl"],
    ["a webhook URL that is not a URL", { webhookUrl: "not a url" }, 400, "request.invalid_body", "webhookUrl"],
    ["an ftp webhook URL", { webhookUrl: "ftp://files.example.com/x" }, 400, "request.invalid_body", "webhookUrl"],
    [
      "a loopback webhook URL",
      { webhookUrl: "http://127.0.0.1:8080/hook" },
      400,
      "email_callback.webhook_url_not_allowed",
      "webhookUrl",
    ],
    [
      "a metadata webhook URL",
      { webhookUrl: "http://169.254.169.254/latest" },
      400,
      "email_callback.webhook_url_not_allowed",
      "webhookUrl",
    ],
    [
      "a private-network webhook URL",
      { webhookUrl: "https://192.168.1.10/x" },
      400,
      "email_callback.webhook_url_not_allowed",
      "webhookUrl",
    ],
    [
      "a localhost webhook URL",
      { webhookUrl: "http://localhost:3000/x" },
      400,
      "email_callback.webhook_url_not_allowed",
      "webhookUrl",
    ],
    ["a secret under 16 characters", { webhookSecret: "short-secret" }, 400, "request.invalid_body", "webhookSecret"],
    ["a secret over 128 characters", { webhookSecret: "s".repeat(129) }, 400, "request.invalid_body", "webhookSecret"],
    ["an allowed origin that is not an address", { allowedOrigins: ["bob"] }, 400, "request.invalid_body", "allowedOrigins.0"],
    ["an empty allowed origin", { allowedOrigins: ["ok@example.org", ""] }, 400, "request.invalid_body", "allowedOrigins.1"],
    ["an allowed domain without a dot", { allowedOrigins: ["@localdomain"] }, 400, "request.invalid_body", "allowedOrigins.0"],
  ])("refuses %s with %i %s", async (_case, overrides, status, code, field) => {
    const response = await create(owner, validBody(overrides));
    expect(response.status).toBe(status);
    expect(response.body?.error.code).toBe(code);
    expect(response.body?.error.fields.map((issue: { path: string }) => issue.path)).toContain(field);
  });

  it("refuses a body that is not JSON", async () => {
    const response = await create(owner, "{oops");
    expect(response.status).toBe(400);
    expect(response.body?.error.code).toBe("request.invalid_body");
  });

  it("stores the username lower-cased and the allowed origins normalised, and answers 201", async () => {
    const response = await create(
      owner,
      validBody({
        username: "Alice.Smith_01",
        allowedOrigins: ["Bob@Example.org", "@example.com", "bob@example.org"],
        webhookSecret: "s".repeat(16),
      }),
    );
    expect(response.status).toBe(201);
    expect(response.body?.emailCallback).toMatchObject({
      username: "alice.smith_01",
      domain: "hookmail.test",
      address: "alice.smith_01@hookmail.test",
      allowedOrigins: ["bob@example.org", "@example.com"],
      isEnabled: true,
    });
    expect(response.body?.emailCallback.id).toMatch(/^ecb_/);
  });

  it("refuses the same address twice, whatever the case, with 409 email_callback.already_exists", async () => {
    const first = await create(owner, validBody({ username: "unique-name" }));
    expect(first.status).toBe(201);
    const other = await app.signUp("other");
    const second = await create(other, validBody({ username: "UNIQUE-NAME" }));
    expect(second.status).toBe(409);
    expect(second.body?.error.code).toBe("email_callback.already_exists");
    const otherDomain = await create(other, validBody({ username: "unique-name", domain: "example.org" }));
    expect(otherDomain.status).toBe(201);
  });
});

describe("webhook secrets", () => {
  it("are never returned: responses carry hasWebhookSecret and a masked value", async () => {
    const secret = "my-very-secret-webhook-key-1234";
    const created = await create(owner, validBody({ webhookSecret: secret }));
    const listed = await app.call(collection.GET, { path: "/api/email-callbacks", headers: owner.headers });
    for (const text of [JSON.stringify(created.body), JSON.stringify(listed.body)]) expect(text).not.toContain(secret);
    expect(created.body?.emailCallback).toMatchObject({ hasWebhookSecret: true, maskedWebhookSecret: "••••••••1234" });
    expect(created.body?.emailCallback).not.toHaveProperty("webhookSecret");
  });

  it("change only when a new one is sent, and an empty one removes it", async () => {
    const created = await create(owner, validBody({ webhookSecret: "first-secret-value-xyz" }));
    const id = created.body?.emailCallback.id as string;
    const put = (body: unknown) => update(owner, id, body);

    await put({ webhookUrl: "https://hooks.example.com/changed" });
    expect((await app.database.prisma.emailCallback.findUniqueOrThrow({ where: { id } })).webhookSecret).toBe(
      "first-secret-value-xyz",
    );
    await put({ webhookSecret: "second-secret-value-abc" });
    expect((await app.database.prisma.emailCallback.findUniqueOrThrow({ where: { id } })).webhookSecret).toBe(
      "second-secret-value-abc",
    );
    const removed = await put({ webhookSecret: "" });
    expect(removed.body?.emailCallback).toMatchObject({ hasWebhookSecret: false, maskedWebhookSecret: null });
  });
});

describe("PUT /api/email-callbacks/{id}", () => {
  it("disables and enables, and applies the same rules as creation", async () => {
    const created = await create(owner, validBody());
    const id = created.body?.emailCallback.id as string;
    const put = (body: unknown) => update(owner, id, body);

    expect((await put({ isEnabled: false })).body?.emailCallback.isEnabled).toBe(false);
    expect((await put({ isEnabled: true })).body?.emailCallback.isEnabled).toBe(true);
    expect((await put({ username: "abuse" })).body?.error.code).toBe("email_callback.username_not_allowed");
    expect((await put({ domain: "nope.example" })).body?.error.code).toBe("email_callback.invalid_domain");
    expect((await put({ webhookUrl: "http://10.0.0.1/x" })).body?.error.code).toBe("email_callback.webhook_url_not_allowed");
    expect((await put({ isEnabled: "yes" })).status).toBe(400);
    await create(owner, validBody({ username: "taken-by-me" }));
    const clash = await put({ username: "taken-by-me" });
    expect(clash.status).toBe(409);
    expect(clash.body?.error.code).toBe("email_callback.already_exists");
  });
});

describe("DELETE /api/email-callbacks/{id}", () => {
  it("answers 204, hides the callback and its inbox, and frees the address for reuse", async () => {
    const created = await create(owner, validBody({ username: "short-lived" }));
    const id = created.body?.emailCallback.id as string;
    const params = { emailCallbackId: id };
    const removed = await app.call(item.DELETE, {
      path: `/api/email-callbacks/${id}`,
      method: "DELETE",
      headers: owner.headers,
      params,
    });
    expect(removed.status).toBe(204);
    expect((await app.call(item.GET, { path: `/api/email-callbacks/${id}`, headers: owner.headers, params })).status).toBe(404);
    expect(
      (await app.call(processings.GET, { path: `/api/email-callbacks/${id}/processings`, headers: owner.headers, params }))
        .status,
    ).toBe(404);
    expect(
      (await app.call(item.DELETE, { path: `/api/email-callbacks/${id}`, method: "DELETE", headers: owner.headers, params }))
        .status,
    ).toBe(404);
    const listed = await app.call(collection.GET, { path: "/api/email-callbacks", headers: owner.headers });
    expect(listed.body?.emailCallbacks.map((callback: { id: string }) => callback.id)).not.toContain(id);

    const reused = await create(await app.signUp("reuser"), validBody({ username: "short-lived" }));
    expect(reused.status).toBe(201);
  });
});

describe("plan limits", () => {
  it("stop a free user at 10 addresses with 403 email_callbacks.limit_reached, and let a pro user go past 10", async () => {
    const user = await app.signUp("collector");
    for (let index = 0; index < 10; index += 1) expect((await create(user, validBody())).status).toBe(201);
    const eleventh = await create(user, validBody());
    expect(eleventh.status).toBe(403);
    expect(eleventh.body?.error.code).toBe("email_callbacks.limit_reached");

    await app.database.prisma.user.update({ where: { id: user.userId }, data: { planId: "pro" } });
    expect((await create(user, validBody())).status).toBe(201);
  });

  it("are answered with the list: GET /api/email-callbacks says how many addresses the plan allows (free 10, pro 100)", async () => {
    const user = await app.signUp("counter");
    await create(user, validBody());
    const listed = await app.call(collection.GET, { path: "/api/email-callbacks", headers: user.headers });
    expect(listed.body).toMatchObject({ maxEmailCallbacks: 10 });
    expect(listed.body?.emailCallbacks).toHaveLength(1);

    await app.database.prisma.user.update({ where: { id: user.userId }, data: { planId: "pro" } });
    const asPro = await app.call(collection.GET, { path: "/api/email-callbacks", headers: user.headers });
    expect(asPro.body?.maxEmailCallbacks).toBe(100);
  });

  it("hold under concurrent creations: 40 parallel POSTs of a free user create exactly 10, the rest 403 email_callbacks.limit_reached", async () => {
    const user = await app.signUp("racer");
    const responses = await Promise.all(Array.from({ length: 40 }, () => create(user, validBody())));
    const statuses = responses.map((response) => response.status);
    expect(statuses.filter((status) => status === 201)).toHaveLength(10);
    expect(
      responses.filter((response) => response.status !== 201).map((response) => [response.status, response.body?.error.code]),
    ).toEqual(Array.from({ length: 30 }, () => [403, "email_callbacks.limit_reached"]));
    expect(await app.database.prisma.emailCallback.count({ where: { userId: user.userId } })).toBe(10);
  });

  it("count only live addresses", async () => {
    const user = await app.signUp("deleter");
    const ids: string[] = [];
    for (let index = 0; index < 10; index += 1) ids.push((await create(user, validBody())).body?.emailCallback.id);
    const id = ids[0] ?? "";
    await app.call(item.DELETE, {
      path: `/api/email-callbacks/${id}`,
      method: "DELETE",
      headers: user.headers,
      params: { emailCallbackId: id },
    });
    expect((await create(user, validBody())).status).toBe(201);
  });
});

describe("GET /api/email-callbacks/{id}/processings", () => {
  it("pages the inbox newest first: 15 by default, at most 100", async () => {
    const created = await create(owner, validBody());
    const id = created.body?.emailCallback.id as string;
    const start = Date.parse("2026-11-01T00:00:00Z");
    const rows = Array.from({ length: 40 }, (_, index) => ({
      id: createId("emailProcessing"),
      emailCallbackId: id,
      fromAddress: `sender${index}@example.org`,
      subject: `Message ${index}`,
      recipient: `x@hookmail.test`,
      status: index % 3 === 0 ? "error" : "success",
      error: index % 3 === 0 ? "webhook-failed" : null,
      webhookResponseStatusCode: index % 3 === 0 ? 500 : 200,
      attemptCount: 1,
      nextAttemptAt: null,
      deliveredAt: index % 3 === 0 ? null : new Date(start + index * 60_000),
      createdAt: new Date(start + index * 60_000),
    }));
    await app.database.prisma.emailProcessing.createMany({ data: rows });
    await seedDeliveriesOf(app.database, rows);
    const page = (query: string) =>
      app.call(processings.GET, {
        path: `/api/email-callbacks/${id}/processings${query}`,
        headers: owner.headers,
        params: { emailCallbackId: id },
      });

    const first = await page("");
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ emailProcessingsCount: 40, pageIndex: 0, pageSize: 15 });
    expect(first.body?.emailProcessings).toHaveLength(15);
    expect(first.body?.emailProcessings[0]).toEqual({
      id: expect.stringMatching(/^ep_/),
      fromAddress: "sender39@example.org",
      recipient: "x@hookmail.test",
      subject: "Message 39",
      status: "error",
      error: "webhook-failed",
      webhookResponseStatusCode: 500,
      createdAt: new Date(start + 39 * 60_000).toISOString(),
    });
    const last = await page("?pageIndex=2&pageSize=15");
    expect(last.body?.emailProcessings.map((row: { subject: string }) => row.subject)).toEqual(
      Array.from({ length: 10 }, (_, index) => `Message ${9 - index}`),
    );
    expect((await page("?pageSize=100")).body?.emailProcessings).toHaveLength(40);
    for (const query of ["?pageSize=101", "?pageSize=0", "?pageIndex=-1", "?pageIndex=abc"]) {
      const refused = await page(query);
      expect(refused.status).toBe(400);
      expect(refused.body?.error.code).toBe("request.invalid_query");
    }
  });
});

describe("the mail options of an address (docs/webhooks.md: Per-address options)", () => {
  it("default to inline attachments, no authentication rule and no spam threshold", async () => {
    const created = await create(owner, validBody());
    expect(created.status).toBe(201);
    expect(created.body?.emailCallback).toMatchObject({
      attachmentDelivery: "inline",
      authenticationPolicy: "none",
      spamThreshold: null,
    });
  });

  it("are set on creation and changed one at a time, null removing the threshold", async () => {
    const created = await create(
      owner,
      validBody({ attachmentDelivery: "url", authenticationPolicy: "dmarc", spamThreshold: 6.5 }),
    );
    const id = created.body?.emailCallback.id as string;
    expect(created.body?.emailCallback).toMatchObject({
      attachmentDelivery: "url",
      authenticationPolicy: "dmarc",
      spamThreshold: 6.5,
    });
    const changed = await update(owner, id, { spamThreshold: null, attachmentDelivery: "inline" });
    expect(changed.body?.emailCallback).toMatchObject({
      attachmentDelivery: "inline",
      authenticationPolicy: "dmarc",
      spamThreshold: null,
    });
  });

  it.each([
    ["an unknown attachment delivery", { attachmentDelivery: "email" }, "attachmentDelivery"],
    ["an unknown authentication policy", { authenticationPolicy: "spf" }, "authenticationPolicy"],
    ["a negative spam threshold", { spamThreshold: -1 }, "spamThreshold"],
    ["a spam threshold as text", { spamThreshold: "5" }, "spamThreshold"],
  ])("refuse %s with 400 request.invalid_body naming the field", async (_case, overrides, field) => {
    const response = await create(owner, validBody(overrides));
    expect(response.status).toBe(400);
    expect(response.body?.error.code).toBe("request.invalid_body");
    expect(response.body?.error.fields.map((issue: { path: string }) => issue.path)).toEqual([field]);
  });
});
