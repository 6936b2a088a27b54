// Turns any thrown value into `{"error":{"code","message"}}` with the code's HTTP status.
// Unknown and internal errors become internal.error / 500 and leak nothing; they are logged.

import { $ZodError } from "zod/v4/core";
import type { Logger } from "../logging/logger";
import {
  type AppError,
  createInternalError,
  createInvalidBodyError,
  type FieldIssue,
  isAppError,
  type ValidationIssue,
} from "./app-error";
import { translateToEnglish } from "./validation-messages";

export type ErrorBody = { error: { code: string; message: string; fields?: FieldIssue[] } };

export function toFieldIssues(error: $ZodError): ValidationIssue[] {
  return error.issues.map((issue) => {
    const appErrorCode =
      issue.code === "custom" ? (issue.params as { appErrorCode?: unknown } | undefined)?.appErrorCode : undefined;
    return {
      path: issue.path.map(String).join("."),
      code: issue.code,
      message: translateToEnglish(issue.message),
      ...(typeof appErrorCode === "string" ? { appErrorCode } : {}),
    };
  });
}

export function normalizeError(error: unknown): AppError {
  if (isAppError(error)) return error;
  if (error instanceof $ZodError) return createInvalidBodyError(toFieldIssues(error));
  return createInternalError(error);
}

export function formatErrorBody(error: AppError): ErrorBody {
  if (error.isInternal) return { error: { code: "internal.error", message: "An internal error occurred." } };
  return {
    error: {
      code: error.code,
      message: error.message,
      ...(error.fields ? { fields: error.fields } : {}),
    },
  };
}

export function toErrorResponse(error: unknown, logger: Logger): Response {
  const appError = normalizeError(error);
  if (appError.isInternal) logger.error({ err: appError.cause ?? appError }, "Unhandled error while serving a request");
  const status = appError.isInternal ? 500 : appError.httpStatus;
  const headers =
    !appError.isInternal && appError.retryAfterSeconds !== undefined
      ? { "Retry-After": String(appError.retryAfterSeconds) }
      : undefined;
  return Response.json(formatErrorBody(appError), { status, headers });
}
