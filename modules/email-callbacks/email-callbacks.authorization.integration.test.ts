// The authorization matrix of every email-callback route: no caller → 401; another user, by
// session or by API key → 404 (nothing tells that the record exists); the owner, by session or by
// API key → success.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as processings from "@/app/api/email-callbacks/[emailCallbackId]/processings/route";
import * as item from "@/app/api/email-callbacks/[emailCallbackId]/route";
import * as collection from "@/app/api/email-callbacks/route";
import { type RouteTestApp, startRouteTestApp, type TestUser } from "@/tests/support/route-test-app";

let app: RouteTestApp;
let owner: TestUser;
let stranger: TestUser;
let ownerKey: Record<string, string>;
let strangerKey: Record<string, string>;

async function createCallback(headers: Record<string, string>) {
  const response = await app.call(collection.POST, {
    path: "/api/email-callbacks",
    method: "POST",
    headers,
    body: {
      domain: "hookmail.test",
      username: `m-${Math.random().toString(36).slice(2, 10)}`,
      webhookUrl: "https://hooks.example.com/x",
      allowedOrigins: [],
    },
  });
  expect(response.status).toBe(201);
  return response.body?.emailCallback.id as string;
}

beforeAll(async () => {
  app = await startRouteTestApp();
  owner = await app.signUp("owner");
  stranger = await app.signUp("stranger");
  // The matrix creates more callbacks than the free plan's 10.
  for (const user of [owner, stranger]) {
    await app.database.prisma.user.update({ where: { id: user.userId }, data: { planId: "pro" } });
  }
  ownerKey = (await app.createApiKey(owner, "matrix")).headers;
  strangerKey = (await app.createApiKey(stranger, "matrix")).headers;
});
afterAll(() => app.close());

type Route = {
  name: string;
  run: (id: string, headers: Record<string, string>) => ReturnType<RouteTestApp["call"]>;
  ownerStatus: number;
};

const ROUTES: Route[] = [
  {
    name: "GET /api/email-callbacks/{id}",
    run: (id, headers) => app.call(item.GET, { path: `/api/email-callbacks/${id}`, headers, params: { emailCallbackId: id } }),
    ownerStatus: 200,
  },
  {
    name: "PUT /api/email-callbacks/{id}",
    run: (id, headers) =>
      app.call(item.PUT, {
        path: `/api/email-callbacks/${id}`,
        method: "PUT",
        body: { isEnabled: false },
        headers,
        params: { emailCallbackId: id },
      }),
    ownerStatus: 200,
  },
  {
    name: "GET /api/email-callbacks/{id}/processings",
    run: (id, headers) =>
      app.call(processings.GET, { path: `/api/email-callbacks/${id}/processings`, headers, params: { emailCallbackId: id } }),
    ownerStatus: 200,
  },
  {
    name: "DELETE /api/email-callbacks/{id}",
    run: (id, headers) =>
      app.call(item.DELETE, { path: `/api/email-callbacks/${id}`, method: "DELETE", headers, params: { emailCallbackId: id } }),
    ownerStatus: 204,
  },
];

describe.each(ROUTES)("$name", ({ run, ownerStatus }) => {
  it("answers 401 auth.unauthorized to no caller, and to an unknown API key", async () => {
    const id = await createCallback(owner.headers);
    const callers: Record<string, string>[] = [
      {},
      { Authorization: `Bearer hm_${"x".repeat(40)}` },
      { Authorization: "Bearer not-a-key" },
    ];
    for (const headers of callers) {
      const response = await run(id, headers);
      expect(response.status).toBe(401);
      expect(response.body?.error.code).toBe("auth.unauthorized");
    }
  });

  it("answers 404 email_callback.not_found to another user, by session and by API key, and changes nothing", async () => {
    const id = await createCallback(owner.headers);
    for (const headers of [stranger.headers, strangerKey]) {
      const response = await run(id, headers);
      expect(response.status).toBe(404);
      expect(response.body?.error.code).toBe("email_callback.not_found");
    }
    const stored = await app.database.prisma.emailCallback.findUniqueOrThrow({ where: { id } });
    expect(stored).toMatchObject({ isEnabled: true, deletedAt: null });
  });

  it("serves the owner by session and by API key", async () => {
    for (const headers of [owner.headers, ownerKey]) {
      const id = await createCallback(headers);
      expect((await run(id, headers)).status).toBe(ownerStatus);
    }
  });
});

describe("GET and POST /api/email-callbacks", () => {
  it("answer 401 to no caller", async () => {
    expect((await app.call(collection.GET, { path: "/api/email-callbacks" })).status).toBe(401);
    const created = await app.call(collection.POST, { path: "/api/email-callbacks", method: "POST", body: {} });
    expect(created.status).toBe(401);
  });

  it("list only the caller's own callbacks, by session and by API key alike", async () => {
    const mine = await createCallback(ownerKey);
    const theirs = await createCallback(stranger.headers);
    for (const headers of [owner.headers, ownerKey]) {
      const listed = await app.call(collection.GET, { path: "/api/email-callbacks", headers });
      const ids = listed.body?.emailCallbacks.map((callback: { id: string }) => callback.id);
      expect(ids).toContain(mine);
      expect(ids).not.toContain(theirs);
    }
  });
});
