import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { withCaller } from "@/modules/auth/with-caller";
import { loadConfig } from "@/modules/config/config";
import type { Database } from "@/modules/db/db";
import type { Services } from "@/modules/server/services";
import { createTestDatabase } from "@/tests/support/test-database";
import { createTestServices } from "@/tests/support/test-services";
import { parseJsonBody, parseSearchParams, withErrors } from "./route-handler";

let database: Database;
let services: Services;
const getServices = () => services;
const noParams = { params: Promise.resolve({}) };

beforeAll(async () => {
  const config = loadConfig({ DATA_DIR: "/tmp/hookmail-test", AUTH_SECRET: "test-secret-".padEnd(40, "x") });
  database = await createTestDatabase();
  services = createTestServices({ config, database });
});
afterAll(async () => {
  await services.close();
  await database.close();
});

async function signUpAndGetCookie(email: string) {
  const auth = await services.auth();
  const response = await auth.handler(
    new Request("http://localhost:3000/api/auth/sign-up/email", {
      method: "POST",
      headers: { "Content-Type": "application/json", Origin: "http://localhost:3000" },
      body: JSON.stringify({ email, password: "correct-horse-battery", name: "Route Tester" }),
    }),
  );
  expect(response.status).toBe(200);
  return response.headers
    .getSetCookie()
    .map((cookie) => cookie.split(";")[0])
    .join("; ");
}

const echoCaller = withCaller(getServices, async ({ caller }) =>
  Response.json({ userId: caller.userId, email: caller.user.email }),
);

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
    const route = withCaller(getServices, async ({ request }) => {
      const input = await parseJsonBody(request, z.object({ name: z.string().min(2, "too short") }));
      return Response.json(input);
    });
    const post = (body: string) =>
      route(
        new Request("http://localhost:3000/api/x", {
          method: "POST",
          headers: { Cookie: cookie, Origin: "http://localhost:3000", "Content-Type": "application/json" },
          body,
        }),
        noParams,
      );

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
    const route = withCaller(getServices, async () => {
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

describe("NUL bytes", () => {
  const echoBody = withErrors(getServices, async ({ request }) =>
    Response.json(
      await parseJsonBody(
        request,
        z.object({ name: z.string(), tags: z.array(z.string()).optional(), nested: z.record(z.string(), z.string()).optional() }),
      ),
    ),
  );
  const postJson = (body: unknown) =>
    echoBody(
      new Request("http://localhost:3000/api/x", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify(body),
      }),
      noParams,
    );

  it.each([
    ["a top-level field", { name: "a\u0000b" }, "name"],
    ["an array item", { name: "ok", tags: ["fine", "bad\u0000"] }, "tags.1"],
    ["a nested value", { name: "ok", nested: { key: "\u0000" } }, "nested.key"],
    ["a key", { name: "ok", nested: { "k\u0000": "v" } }, "nested.k\u0000"],
  ])("in %s of a JSON body answer 400 request.invalid_body naming the field", async (_, body, path) => {
    const response = await postJson(body);
    expect(response.status).toBe(400);
    const { error } = await response.json();
    expect(error.code).toBe("request.invalid_body");
    expect(error.fields).toEqual([{ path, code: "invalid_string", message: "Text must not contain NUL bytes." }]);
  });

  it("leave other control characters and text alone", async () => {
    const response = await postJson({ name: "tab\there \u00e9 \u2028" });
    expect(response.status).toBe(200);
  });

  it("in a query parameter answer 400 request.invalid_query", async () => {
    const route = withErrors(getServices, async ({ request }) =>
      Response.json(parseSearchParams(request, z.object({ q: z.string() }))),
    );
    const response = await route(new Request("http://localhost:3000/api/x?q=a%00b"), noParams);
    expect(response.status).toBe(400);
    expect((await response.json()).error.code).toBe("request.invalid_query");
  });

  it.each([
    ["a NUL byte", "ecb_abc\u0000def"],
    ["a percent-encoded NUL", "ecb_abc%00def"],
    ["a slash", "ecb_abc/../def"],
    ["a space", "ecb abc"],
    ["an empty id", ""],
    ["an over-long id", "x".repeat(129)],
  ])("in a path id answer 404 before the handler runs: %s", async (_, id) => {
    let reached = false;
    const route = withErrors<{ id: string }>(getServices, async () => {
      reached = true;
      return Response.json({});
    });
    const response = await route(new Request("http://localhost:3000/api/x/id"), { params: Promise.resolve({ id }) });
    expect(response.status).toBe(404);
    expect((await response.json()).error.code).toBe("resource.not_found");
    expect(reached).toBe(false);
  });

  it("let well-formed ids through", async () => {
    const route = withErrors<{ id: string; index: string }>(getServices, async ({ params }) => Response.json(params));
    const params = { id: "ecb_0123456789ABCDEFabcdef", index: "0" };
    const response = await route(new Request("http://localhost:3000/api/x"), { params: Promise.resolve(params) });
    expect(await response.json()).toEqual(params);
  });
});
