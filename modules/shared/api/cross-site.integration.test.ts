// Cookie writes come from the app's own pages as JSON, and API keys reach /api/email-callbacks
// only (docs/security.md), through the real route handlers on a fresh database.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as apiKeyItem from "@/app/api/api-keys/[apiKeyId]/route";
import * as apiKeys from "@/app/api/api-keys/route";
import * as emailCallbackItem from "@/app/api/email-callbacks/[emailCallbackId]/route";
import * as emailCallbacks from "@/app/api/email-callbacks/route";
import * as checkoutSessionItem from "@/app/api/payments/checkout-session/[sessionId]/route";
import * as checkoutSession from "@/app/api/payments/checkout-session/route";
import * as customerPortal from "@/app/api/payments/customer-portal/route";
import * as usersMe from "@/app/api/users/me/route";
import { TEST_BASE_URL } from "@/tests/support/auth-client";
import { type RouteTestApp, startRouteTestApp, type TestUser } from "@/tests/support/route-test-app";

let app: RouteTestApp;
let user: TestUser;
let keyHeaders: Record<string, string>;
let apiKeyId: string;
let emailCallbackId: string;

const cookieOnly = () => ({ Cookie: user.headers.Cookie! });
const newCallback = () => ({
  domain: "hookmail.test",
  username: `cs-${Math.random().toString(36).slice(2, 10)}`,
  webhookUrl: "https://hooks.example.com/in",
  allowedOrigins: [],
});

/** Through the test app's `call`, which adds a JSON Content-Type unless `headers` name one. */
const postCallback = (body: unknown, headers: Record<string, string>) =>
  app.call(emailCallbacks.POST, { path: "/api/email-callbacks", method: "POST", body, headers });
const deleteCallback = (id: string, headers: Record<string, string>) =>
  app.call(emailCallbackItem.DELETE, {
    path: `/api/email-callbacks/${id}`,
    method: "DELETE",
    headers,
    params: { emailCallbackId: id },
  });

beforeAll(async () => {
  app = await startRouteTestApp({ STRIPE_SECRET_KEY: "sk_test_unused", STRIPE_PRO_PRICE_ID: "price_pro_unused" });
  user = await app.signUp("cross-site");
  await app.database.prisma.user.update({ where: { id: user.userId }, data: { planId: "pro" } });
  const key = await app.createApiKey(user, "ci");
  keyHeaders = key.headers;
  apiKeyId = key.id;
  const created = await postCallback(newCallback(), user.headers);
  expect(created.status).toBe(201);
  emailCallbackId = created.body?.emailCallback.id;
});
afterAll(() => app.close());

type Write = {
  name: string;
  handler: (request: Request, context: { params: Promise<any> }) => Promise<Response>;
  path: () => string;
  method: string;
  body?: () => unknown;
  params?: () => Record<string, string>;
};

/** Every cookie write the suite tries. */
const WRITES: Write[] = [
  {
    name: "POST /api/email-callbacks",
    handler: emailCallbacks.POST,
    path: () => "/api/email-callbacks",
    method: "POST",
    body: newCallback,
  },
  {
    name: "POST /api/api-keys",
    handler: apiKeys.POST,
    path: () => "/api/api-keys",
    method: "POST",
    body: () => ({ name: "stolen" }),
  },
  {
    name: "PUT /api/users/me",
    handler: usersMe.PUT,
    path: () => "/api/users/me",
    method: "PUT",
    body: () => ({ name: "Mallory" }),
  },
  {
    name: "PUT /api/email-callbacks/{id}",
    handler: emailCallbackItem.PUT,
    path: () => `/api/email-callbacks/${emailCallbackId}`,
    method: "PUT",
    body: () => ({ isEnabled: false }),
    params: () => ({ emailCallbackId }),
  },
  {
    name: "DELETE /api/email-callbacks/{id}",
    handler: emailCallbackItem.DELETE,
    path: () => `/api/email-callbacks/${emailCallbackId}`,
    method: "DELETE",
    params: () => ({ emailCallbackId }),
  },
  {
    name: "DELETE /api/api-keys/{id}",
    handler: apiKeyItem.DELETE,
    path: () => `/api/api-keys/${apiKeyId}`,
    method: "DELETE",
    params: () => ({ apiKeyId }),
  },
];

/** Sends a write with exactly the given headers (the test app's helper would add a Content-Type). */
async function send(write: Write, headers: Record<string, string>) {
  const request = new Request(`${TEST_BASE_URL}${write.path()}`, {
    method: write.method,
    headers,
    body: write.body ? JSON.stringify(write.body()) : undefined,
  });
  const response = await write.handler(request, { params: Promise.resolve(write.params?.() ?? {}) });
  const text = await response.text();
  return { status: response.status, code: text ? (JSON.parse(text) as { error?: { code: string } }).error?.code : undefined };
}

async function snapshotAccount() {
  const { prisma } = app.database;
  return {
    user: await prisma.user.findUniqueOrThrow({ where: { id: user.userId }, select: { name: true } }),
    callbacks: await prisma.emailCallback.findMany({
      where: { userId: user.userId },
      select: { id: true, isEnabled: true },
      orderBy: { id: "asc" },
    }),
    keys: await prisma.apiKey.findMany({ where: { userId: user.userId }, select: { id: true }, orderBy: { id: "asc" } }),
  };
}

describe("a cookie write from another origin", () => {
  it.each([
    ["another site's Origin", { Origin: "https://evil.example" }],
    ["another port of the same host", { Origin: "http://localhost:4000" }],
    ["the same host over another scheme", { Origin: "https://localhost:3000" }],
    ["Origin: null (a sandboxed frame)", { Origin: "null" }],
    ["Sec-Fetch-Site: cross-site and no Origin", { "Sec-Fetch-Site": "cross-site" }],
    ["Sec-Fetch-Site: same-site (another port) and no Origin", { "Sec-Fetch-Site": "same-site" }],
    ["the right Origin but Sec-Fetch-Site: same-site", { Origin: TEST_BASE_URL, "Sec-Fetch-Site": "same-site" }],
    ["neither Origin nor Sec-Fetch-Site", {}],
  ])("is refused with 403 request.cross_site and changes nothing: %s", async (_, originHeaders) => {
    const before = await snapshotAccount();
    for (const write of WRITES) {
      const response = await send(write, { ...cookieOnly(), "Content-Type": "application/json", ...originHeaders });
      expect({ write: write.name, ...response }).toEqual({
        write: write.name,
        status: 403,
        code: "request.cross_site",
      });
    }
    expect(await snapshotAccount()).toEqual(before);
  });
});

describe("a cookie write from the app's origin", () => {
  it.each([
    ["text/plain", { "Content-Type": "text/plain" }],
    ["application/x-www-form-urlencoded", { "Content-Type": "application/x-www-form-urlencoded" }],
    ["multipart/form-data", { "Content-Type": "multipart/form-data; boundary=x" }],
    ["application/json-seq", { "Content-Type": "application/json-seq" }],
    ["no Content-Type", {}],
  ])("is refused with 415 request.unsupported_media_type and changes nothing unless it is JSON: %s", async (_, typeHeaders) => {
    const before = await snapshotAccount();
    for (const write of WRITES) {
      const response = await send(write, { ...cookieOnly(), Origin: TEST_BASE_URL, ...typeHeaders });
      expect({ write: write.name, ...response }).toEqual({
        write: write.name,
        status: 415,
        code: "request.unsupported_media_type",
      });
    }
    expect(await snapshotAccount()).toEqual(before);
  });

  it("works as JSON, with Origin alone, with Sec-Fetch-Site: same-origin alone, and with a charset", async () => {
    const variants = [
      { ...cookieOnly(), Origin: TEST_BASE_URL, "Content-Type": "application/json" },
      { ...cookieOnly(), "Sec-Fetch-Site": "same-origin", "Content-Type": "application/json" },
      {
        ...cookieOnly(),
        Origin: TEST_BASE_URL,
        "Sec-Fetch-Site": "same-origin",
        "Content-Type": "Application/JSON; charset=utf-8",
      },
    ];
    for (const headers of variants) {
      const renamed = await app.call(usersMe.PUT, {
        path: "/api/users/me",
        method: "PUT",
        body: { name: "Same Origin" },
        headers,
      });
      expect(renamed.status).toBe(200);
      const created = await postCallback(newCallback(), headers);
      expect(created.status).toBe(201);
      const id = created.body?.emailCallback.id as string;
      const deleted = await deleteCallback(id, headers);
      expect(deleted.status).toBe(204);
    }
  });

  it("still reads without Origin or Content-Type: GET is not a write", async () => {
    const listed = await app.call(emailCallbacks.GET, { path: "/api/email-callbacks", headers: cookieOnly() });
    expect(listed.status).toBe(200);
    expect((await app.call(usersMe.GET, { path: "/api/users/me", headers: cookieOnly() })).status).toBe(200);
  });

  it("answers 401, not 403, to a write with no session at all", async () => {
    const response = await postCallback(newCallback(), { Origin: "https://evil.example" });
    expect(response.status).toBe(401);
  });
});

describe("an API key", () => {
  it("is exempt from the origin and Content-Type rules on /api/email-callbacks", async () => {
    const created = await postCallback(JSON.stringify(newCallback()), {
      ...keyHeaders,
      Origin: "https://evil.example",
      "Sec-Fetch-Site": "cross-site",
      "Content-Type": "text/plain",
    });
    expect(created.status).toBe(201);
    const id = created.body?.emailCallback.id as string;
    const deleted = await deleteCallback(id, keyHeaders);
    expect(deleted.status).toBe(204);
  });

  it.each([
    ["GET /api/users/me", () => app.call(usersMe.GET, { path: "/api/users/me", headers: keyHeaders })],
    [
      "PUT /api/users/me",
      () =>
        app.call(usersMe.PUT, { path: "/api/users/me", method: "PUT", body: { name: "Renamed By Key" }, headers: keyHeaders }),
    ],
    ["GET /api/api-keys", () => app.call(apiKeys.GET, { path: "/api/api-keys", headers: keyHeaders })],
    [
      "POST /api/api-keys",
      () => app.call(apiKeys.POST, { path: "/api/api-keys", method: "POST", body: { name: "by key" }, headers: keyHeaders }),
    ],
    [
      "DELETE /api/api-keys/{id}",
      () =>
        app.call(apiKeyItem.DELETE, {
          path: `/api/api-keys/${apiKeyId}`,
          method: "DELETE",
          headers: keyHeaders,
          params: { apiKeyId },
        }),
    ],
    [
      "POST /api/payments/checkout-session",
      () =>
        app.call(checkoutSession.POST, {
          path: "/api/payments/checkout-session",
          method: "POST",
          body: { planId: "pro" },
          headers: keyHeaders,
        }),
    ],
    [
      "GET /api/payments/checkout-session/{id}",
      () =>
        app.call(checkoutSessionItem.GET, {
          path: "/api/payments/checkout-session/cs_test_1",
          headers: keyHeaders,
          params: { sessionId: "cs_test_1" },
        }),
    ],
    [
      "GET /api/payments/customer-portal",
      () => app.call(customerPortal.GET, { path: "/api/payments/customer-portal", headers: keyHeaders }),
    ],
  ])("cannot reach account, key or payment calls: %s answers 403 api_keys.session_required", async (_, run) => {
    const before = await snapshotAccount();
    const response = await run();
    expect(response.status).toBe(403);
    expect(response.body?.error.code).toBe("api_keys.session_required");
    expect(await snapshotAccount()).toEqual(before);
  });
});

describe("NUL bytes on the real routes", () => {
  it.each([
    ["an address's username", () => ({ ...newCallback(), username: "nul\u0000user" })],
    ["an address's webhook URL", () => ({ ...newCallback(), webhookUrl: "https://hooks.example.com/\u0000" })],
    ["an address's allowed origins", () => ({ ...newCallback(), allowedOrigins: ["ok@example.org", "bad\u0000@example.org"] })],
  ])("in %s answer 400 request.invalid_body and create nothing", async (_, body) => {
    const before = await snapshotAccount();
    for (const headers of [user.headers, keyHeaders]) {
      const response = await postCallback(body(), headers);
      expect(response.status).toBe(400);
      expect(response.body?.error.code).toBe("request.invalid_body");
    }
    expect(await snapshotAccount()).toEqual(before);
  });

  it("in a user's name, an address update or an API key's name answer 400 request.invalid_body", async () => {
    const calls = [
      app.call(usersMe.PUT, { path: "/api/users/me", method: "PUT", body: { name: "Nul\u0000Name" }, headers: user.headers }),
      app.call(apiKeys.POST, { path: "/api/api-keys", method: "POST", body: { name: "key\u0000" }, headers: user.headers }),
      app.call(emailCallbackItem.PUT, {
        path: `/api/email-callbacks/${emailCallbackId}`,
        method: "PUT",
        body: { webhookUrl: "https://hooks.example.com/\u0000x" },
        headers: user.headers,
        params: { emailCallbackId },
      }),
    ];
    for (const response of await Promise.all(calls)) {
      expect(response.status).toBe(400);
      expect(response.body?.error.code).toBe("request.invalid_body");
    }
  });

  it.each([
    ["a NUL byte", "ecb_\u0000"],
    ["a percent-encoded NUL", "ecb_%00"],
  ])("in a path id answer 404, not 500: %s", async (_, badId) => {
    const answers = await Promise.all([
      // Read by the session, deleted by the session, deleted by an API key.
      app.call(emailCallbackItem.GET, {
        path: "/api/email-callbacks/x",
        headers: user.headers,
        params: { emailCallbackId: badId },
      }),
      app.call(apiKeyItem.DELETE, {
        path: "/api/api-keys/x",
        method: "DELETE",
        headers: user.headers,
        params: { apiKeyId: badId },
      }),
      app.call(emailCallbackItem.DELETE, {
        path: "/api/email-callbacks/x",
        method: "DELETE",
        headers: keyHeaders,
        params: { emailCallbackId: badId },
      }),
    ]);
    expect(answers.map(({ status }) => status)).toEqual([404, 404, 404]);
  });
});
