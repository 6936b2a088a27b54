import { describe, expect, it } from "vitest";
import { z } from "zod";
import * as zm from "zod/mini";
import { createMemoryLogger, silentLogger as silent } from "@/tests/support/memory-logger";
import { AppError, createNotFoundError, createUnauthorizedError } from "./app-error";
import { ERROR_HTTP_STATUSES } from "./error-codes";
import { toErrorResponse } from "./error-response";

describe("toErrorResponse", () => {
  it("answers an AppError with its code, message and the status of the codes table", async () => {
    const response = toErrorResponse(createNotFoundError("email callback"), silent);
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({
      error: { code: "resource.not_found", message: "The email callback was not found." },
    });
    expect(toErrorResponse(createUnauthorizedError(), silent).status).toBe(401);
  });

  it("turns an unknown error into internal.error / 500 without leaking its message or stack", async () => {
    const { logger, errors: logged } = createMemoryLogger();
    const response = toErrorResponse(new Error("connect ECONNREFUSED 10.0.0.5:5432 password=hunter2"), logger);
    expect(response.status).toBe(500);
    const text = await response.text();
    expect(JSON.parse(text)).toEqual({ error: { code: "internal.error", message: "An internal error occurred." } });
    expect(text).not.toMatch(/ECONNREFUSED|hunter2|at /);
    expect(logged).toHaveLength(1);
  });

  it("answers an internal AppError like an unknown one", async () => {
    const error = new AppError({ code: "service.unavailable", message: "pool exhausted at db-1", isInternal: true });
    const response = toErrorResponse(error, silent);
    expect(response.status).toBe(500);
    expect(await response.json()).toEqual({ error: { code: "internal.error", message: "An internal error occurred." } });
  });

  it("answers a zod validation error with 400 and one detail per invalid field", async () => {
    const schema = z.object({ name: z.string().min(2, "too short"), nested: z.object({ url: z.url("bad url") }) });
    const result = schema.safeParse({ name: "a", nested: { url: "nope" } });
    const response = toErrorResponse(result.error, silent);
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      error: {
        code: "request.invalid_body",
        message: "The request body is invalid.",
        fields: [
          { path: "name", code: "too_small", message: "too short" },
          { path: "nested.url", code: "invalid_format", message: "bad url" },
        ],
      },
    });
  });

  it("answers a zod/mini schema's thrown error with 400 as well (the forms' schemas are zod/mini)", async () => {
    const schema = zm.object({ name: zm.string().check(zm.minLength(2, "too short")) });
    let thrown: unknown;
    try {
      schema.parse({ name: "a" });
    } catch (error) {
      thrown = error;
    }
    const response = toErrorResponse(thrown, silent);
    expect(response.status).toBe(400);
    expect((await response.json()).error.fields).toEqual([{ path: "name", code: "too_small", message: "too short" }]);
  });

  it("maps every code of the table to a client or server error status", () => {
    for (const status of Object.values(ERROR_HTTP_STATUSES)) expect(status).toBeGreaterThanOrEqual(400);
  });
});

describe("field messages", () => {
  it("are given in English to API callers when the schema carries an i18n key", async () => {
    const schema = z.object({ email: z.string().min(1, "login.validation.emailRequired") });
    const response = toErrorResponse(schema.safeParse({ email: "" }).error, silent);
    expect((await response.json()).error.fields).toEqual([
      { path: "email", code: "too_small", message: "Please enter your email address" },
    ]);
  });
});
