import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { getAuth } from "@/modules/auth/auth.server";
import { loadConfig, setProcessConfig } from "@/modules/config/config";
import { setProcessDatabase, type Database } from "@/modules/db/db";
import { createTestDatabase } from "@/tests/support/test-database";
import { parseJsonBody, withCaller } from "./route-handler";

let database: Database;
const noParams = { params: Promise.resolve({}) };

beforeAll(async () => {
  setProcessConfig(loadConfig({ DATA_DIR: "/tmp/hookmail-test", AUTH_SECRET: "test-secret-".padEnd(40, "x") }));
  database = await createTestDatabase();
  setProcessDatabase(database);
});
afterAll(() => database.close());

async function signUpAndGetCookie(email: string) {
  const auth = await getAuth();
  const response = await auth.handler(
    new Request("http://localhost:3000/api/auth/sign-up/email", {
      method: "POST",
      headers: { "Content-Type": "application/json", Origin: "http://localhost:3000" },
      body: JSON.stringify({ email, password: "correct-horse-battery", name: "Route Tester" }),
    }),
  );
  expect(response.status).toBe(200);
  return response.headers.getSetCookie().map((cookie) => cookie.split(";")[0]).join("; ");
}

const echoCaller = withCaller(async ({ caller }) => Response.json({ userId: caller.userId, email: caller.user.email }));

describe("withCaller", () => {
  it("answers 401 auth.unauthorized when the request has no session", async () => {
    const response = await echoCaller(new Request("http://localhost:3000/api/x"), noParams);
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({
      error: { code: "auth.unauthorized", message: "You must be signed in to do this." },
    });
  });

  it("answers 401 for a forged session cookie", async () => {
    const request = new Request("http://localhost:3000/api/x", {
      headers: { Cookie: "hookmail.session_token=forged.signature" },
    });
    expect((await echoCaller(request, noParams)).status).toBe(401);
  });

  it("hands the signed-in user to the handler", async () => {
    const cookie = await signUpAndGetCookie("caller@example.com");
    const response = await echoCaller(new Request("http://localhost:3000/api/x", { headers: { Cookie: cookie } }), noParams);
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body.email).toBe("caller@example.com");
    expect(body.userId).toMatch(/^usr_[0-9A-Za-z]{22}$/);
  });

  it("answers an invalid body with 400 and the invalid fields", async () => {
    const cookie = await signUpAndGetCookie("body@example.com");
    const route = withCaller(async ({ request }) => {
      const input = await parseJsonBody(request, z.object({ name: z.string().min(2, "too short") }));
      return Response.json(input);
    });
    const post = (body: string) =>
      route(new Request("http://localhost:3000/api/x", { method: "POST", headers: { Cookie: cookie }, body }), noParams);

    const invalid = await post(JSON.stringify({ name: "a" }));
    expect(invalid.status).toBe(400);
    expect(await invalid.json()).toEqual({
      error: {
        code: "request.invalid_body",
        message: "The request body is invalid.",
        fields: [{ path: "name", code: "too_small", message: "too short" }],
      },
    });
    const malformed = await post("{not json");
    expect((await malformed.json()).error.fields[0].code).toBe("invalid_json");
    expect((await post(JSON.stringify({ name: "ok" }))).status).toBe(200);
  });

  it("turns an unexpected failure into internal.error without details", async () => {
    const cookie = await signUpAndGetCookie("boom@example.com");
    const route = withCaller(async () => {
      throw new Error("secret internals");
    });
    const originalError = console.error;
    console.error = () => undefined;
    const response = await route(new Request("http://localhost:3000/api/x", { headers: { Cookie: cookie } }), noParams);
    console.error = originalError;
    expect(response.status).toBe(500);
    expect(await response.json()).toEqual({ error: { code: "internal.error", message: "An internal error occurred." } });
  });
});
