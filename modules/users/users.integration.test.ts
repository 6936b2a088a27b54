// GET and PUT /api/users/me through the route handlers, on a fresh database: the account as the API
// shows it, and its partial update (the name, delivery alerts; docs/webhooks.md: Delivery alerts).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET, PUT } from "@/app/api/users/me/route";
import type { Database } from "@/modules/db/db";
import { createAuthTestClient, TEST_BASE_URL } from "@/tests/support/auth-client";
import { startRouteTestApp } from "@/tests/support/route-test-app";

let database: Database;
let cookie: string;
const noParams = { params: Promise.resolve({}) };

beforeAll(async () => {
  const app = await startRouteTestApp();
  database = app.database;
  const client = createAuthTestClient(app.auth);
  await client.call("/sign-up/email", {
    method: "POST",
    body: { email: "renamer@example.com", password: "correct-horse-battery", name: "Original Name" },
  });
  cookie = client.cookieHeader();
});
afterAll(() => database.close());

const sessionHeaders = () => ({ Cookie: cookie, Origin: TEST_BASE_URL, "Content-Type": "application/json" });

const putUser = (body: unknown, headers: Record<string, string> = sessionHeaders()) =>
  PUT(new Request(`${TEST_BASE_URL}/api/users/me`, { method: "PUT", headers, body: JSON.stringify(body) }), noParams);

const putName = (name: unknown, headers?: Record<string, string>) => putUser({ name }, headers);

const findStoredUser = () => database.prisma.user.findUniqueOrThrow({ where: { email: "renamer@example.com" } });

describe("GET /api/users/me", () => {
  it("answers the signed-in user, with no secret field", async () => {
    const response = await GET(new Request(`${TEST_BASE_URL}/api/users/me`, { headers: { Cookie: cookie } }), noParams);
    const { user } = await response.json();
    expect(Object.keys(user).sort()).toEqual(["deliveryAlerts", "email", "emailVerified", "id", "name", "planId"]);
    expect(user).toMatchObject({ email: "renamer@example.com", name: "Original Name", planId: "free", deliveryAlerts: true });
  });

  it("answers the stored delivery alerts setting", async () => {
    await database.prisma.user.update({ where: { email: "renamer@example.com" }, data: { deliveryAlerts: false } });
    try {
      const response = await GET(new Request(`${TEST_BASE_URL}/api/users/me`, { headers: { Cookie: cookie } }), noParams);
      expect((await response.json()).user.deliveryAlerts).toBe(false);
    } finally {
      await database.prisma.user.update({ where: { email: "renamer@example.com" }, data: { deliveryAlerts: true } });
    }
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

  it("takes any name sign-up takes: 1 to 64 characters once trimmed", async () => {
    expect((await putName("  A  ")).status).toBe(200);
    expect((await findStoredUser()).name).toBe("A");
    expect((await putName("x".repeat(64))).status).toBe(200);
    expect((await findStoredUser()).name).toBe("x".repeat(64));
  });

  it("refuses a name that is empty once trimmed, with the field error sign-up gives", async () => {
    const response = await putName("   ");
    expect(response.status).toBe(400);
    expect((await response.json()).error).toEqual({
      code: "request.invalid_body",
      message: "The request body is invalid.",
      fields: [{ path: "name", code: "too_small", message: "Please enter a name" }],
    });
  });

  it("refuses over 64 characters with the message sign-up gives, and a name that is not text", async () => {
    const long = await putName("x".repeat(65));
    expect((await long.json()).error.fields).toEqual([
      { path: "name", code: "too_big", message: "Name must be at most 64 characters" },
    ]);
    expect((await putName(null)).status).toBe(400);
    expect((await putName(42)).status).toBe(400);
  });

  it("answers 401 without a session and changes nothing", async () => {
    const response = await putName("Mallory", {});
    expect(response.status).toBe(401);
    const stored = await database.prisma.user.findUniqueOrThrow({ where: { email: "renamer@example.com" } });
    expect(stored.name).not.toBe("Mallory");
  });
});

describe("PUT /api/users/me, a partial update", () => {
  it("changes the name only, leaving delivery alerts as they are", async () => {
    await putUser({ deliveryAlerts: false });
    const response = await putUser({ name: "Only The Name" });
    expect(response.status).toBe(200);
    expect((await response.json()).user).toMatchObject({ name: "Only The Name", deliveryAlerts: false });
    expect(await findStoredUser()).toMatchObject({ name: "Only The Name", deliveryAlerts: false });
  });

  it("turns delivery alerts off and on, leaving the name as it is", async () => {
    await putName("Kept Name");
    const off = await putUser({ deliveryAlerts: false });
    expect(off.status).toBe(200);
    expect((await off.json()).user).toMatchObject({ name: "Kept Name", deliveryAlerts: false });
    expect(await findStoredUser()).toMatchObject({ name: "Kept Name", deliveryAlerts: false });

    const on = await putUser({ deliveryAlerts: true });
    expect((await on.json()).user).toMatchObject({ name: "Kept Name", deliveryAlerts: true });
    expect((await findStoredUser()).deliveryAlerts).toBe(true);
  });

  it("changes both fields at once", async () => {
    const response = await putUser({ name: "Both Fields", deliveryAlerts: false });
    expect((await response.json()).user).toMatchObject({ name: "Both Fields", deliveryAlerts: false });
    await putUser({ deliveryAlerts: true });
  });

  it("refuses a setting that is not a boolean, or an unknown field, with a field error, and changes nothing", async () => {
    await putUser({ name: "Before Refusal", deliveryAlerts: true });

    const notBoolean = await putUser({ name: "Never Stored", deliveryAlerts: "no" });
    expect(notBoolean.status).toBe(400);
    const { error } = await notBoolean.json();
    expect(error.code).toBe("request.invalid_body");
    expect(error.fields).toEqual([expect.objectContaining({ path: "deliveryAlerts", code: "invalid_type" })]);

    const unknown = await putUser({ deliveryAlert: false });
    expect(unknown.status).toBe(400);
    expect((await unknown.json()).error.fields).toEqual([expect.objectContaining({ code: "unrecognized_keys" })]);

    expect((await putUser({ deliveryAlerts: null })).status).toBe(400);
    expect((await putUser([])).status).toBe(400);
    expect(await findStoredUser()).toMatchObject({ name: "Before Refusal", deliveryAlerts: true });
  });

  it("records the language the settings were saved in, for the mails sent outside a request", async () => {
    await putUser({ deliveryAlerts: true }, { ...sessionHeaders(), Cookie: `${cookie}; hookmail-locale=fr` });
    expect((await findStoredUser()).locale).toBe("fr");
    await putUser({ deliveryAlerts: true }, { ...sessionHeaders(), "Accept-Language": "en-GB,en;q=0.8" });
    expect((await findStoredUser()).locale).toBe("en");
  });

  it("answers 401 to a change of delivery alerts without a session", async () => {
    const response = await putUser({ deliveryAlerts: false }, { "Content-Type": "application/json" });
    expect(response.status).toBe(401);
    expect((await findStoredUser()).deliveryAlerts).toBe(true);
  });
});
