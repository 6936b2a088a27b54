// GET and PUT /api/users/me through the route handlers, on a fresh database.
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET, PUT } from "@/app/api/users/me/route";
import { createAuth, setProcessAuth } from "@/modules/auth/auth.server";
import { loadConfig, setProcessConfig } from "@/modules/config/config";
import { type Database, setProcessDatabase } from "@/modules/db/db";
import { createAuthTestClient, TEST_BASE_URL } from "@/tests/support/auth-client";
import { createTestDatabase } from "@/tests/support/test-database";

let database: Database;
let cookie: string;
const noParams = { params: Promise.resolve({}) };

beforeAll(async () => {
  const config = loadConfig({
    DATA_DIR: path.join(os.tmpdir(), "hookmail-users-test"),
    AUTH_SECRET: "integration-test-secret-integration-test",
    AUTH_RATE_LIMIT_ENABLED: "false",
  });
  setProcessConfig(config);
  database = await createTestDatabase();
  setProcessDatabase(database);
  const auth = createAuth({ config, prisma: database.prisma, mailer: { send: async () => undefined } });
  setProcessAuth(auth);
  const client = createAuthTestClient(auth);
  await client.call("/sign-up/email", {
    method: "POST",
    body: { email: "renamer@example.com", password: "correct-horse-battery", name: "Original Name" },
  });
  cookie = client.cookieHeader();
});
afterAll(() => database.close());

const putName = (
  name: unknown,
  headers: Record<string, string> = { Cookie: cookie, Origin: TEST_BASE_URL, "Content-Type": "application/json" },
) => PUT(new Request(`${TEST_BASE_URL}/api/users/me`, { method: "PUT", headers, body: JSON.stringify({ name }) }), noParams);

describe("GET /api/users/me", () => {
  it("answers the signed-in user, with no secret field", async () => {
    const response = await GET(new Request(`${TEST_BASE_URL}/api/users/me`, { headers: { Cookie: cookie } }), noParams);
    const { user } = await response.json();
    expect(Object.keys(user).sort()).toEqual(["email", "emailVerified", "id", "name", "planId"]);
    expect(user).toMatchObject({ email: "renamer@example.com", name: "Original Name", planId: "free" });
  });
});

describe("PUT /api/users/me", () => {
  it("stores the trimmed name and answers {user}", async () => {
    const response = await putName("  Grace Hopper  ");
    expect(response.status).toBe(200);
    expect((await response.json()).user.name).toBe("Grace Hopper");
    const stored = await database.prisma.user.findUniqueOrThrow({ where: { email: "renamer@example.com" } });
    expect(stored.name).toBe("Grace Hopper");
  });

  it("accepts 2 and 49 characters", async () => {
    expect((await putName("Al")).status).toBe(200);
    expect((await putName("x".repeat(49))).status).toBe(200);
  });

  it("refuses under 2 characters once trimmed, with a field error", async () => {
    const response = await putName("  A  ");
    expect(response.status).toBe(400);
    expect((await response.json()).error).toEqual({
      code: "request.invalid_body",
      message: "The request body is invalid.",
      fields: [{ path: "name", code: "too_small", message: "Full name must be at least 2 characters" }],
    });
  });

  it("refuses 50 characters or more, and a missing name", async () => {
    const long = await putName("x".repeat(50));
    expect((await long.json()).error.fields).toEqual([
      { path: "name", code: "too_big", message: "Full name must be less than 50 characters" },
    ]);
    expect((await putName(undefined)).status).toBe(400);
  });

  it("answers 401 without a session and changes nothing", async () => {
    const response = await putName("Mallory", {});
    expect(response.status).toBe(401);
    const stored = await database.prisma.user.findUniqueOrThrow({ where: { email: "renamer@example.com" } });
    expect(stored.name).not.toBe("Mallory");
  });
});
