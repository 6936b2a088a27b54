// An AppError thrown by another copy of the module (the custom server's services, seen from a route
// handler Next bundled apart: docs/architecture.md, The parts) is still an AppError to isAppError.
import { expect, it, vi } from "vitest";
import { AppError, isAppError } from "./app-error";
import { formatErrorBody, normalizeError } from "./error-response";

it("recognises an AppError made by another copy of the module, and nothing that merely looks like one", async () => {
  vi.resetModules();
  const otherCopy = await import("./app-error");
  const foreign = new otherCopy.AppError({ code: "inbound.invalid_message", message: "Not mail." });
  expect(foreign instanceof AppError).toBe(false);
  expect(isAppError(foreign)).toBe(true);
  expect(isAppError(new AppError({ code: "inbound.invalid_message", message: "Not mail." }))).toBe(true);
  const lookalike = Object.assign(new Error("x"), { name: "AppError", code: "no.such_code", httpStatus: 400 });
  expect(isAppError(lookalike)).toBe(false);
  expect(isAppError({ name: "AppError", code: "inbound.invalid_message", httpStatus: 400 })).toBe(false);
});

it("answers another copy's AppError with its own code, not as an internal error", async () => {
  vi.resetModules();
  const otherCopy = await import("./app-error");
  const foreign = new otherCopy.AppError({ code: "inbound.invalid_message", message: "Not mail." });
  expect(formatErrorBody(normalizeError(foreign)).error.code).toBe("inbound.invalid_message");
});
