// The one error type of the application. Features create them through factories in their
// `*.errors.ts`; toErrorResponse turns any thrown value into the API's error body.
import { ERROR_HTTP_STATUSES, type ErrorCode, getHttpStatusForCode } from "./error-codes";

function isErrorCode(code: string): code is ErrorCode {
  return Object.hasOwn(ERROR_HTTP_STATUSES, code);
}

export type FieldIssue = { path: string; code: string; message: string };

/** A field issue as validation produced it: a schema rule may name the API error code it stands for. */
export type ValidationIssue = FieldIssue & { appErrorCode?: string };

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly httpStatus: number;
  /** Internal errors are logged with their cause and answered with a generic message. */
  readonly isInternal: boolean;
  readonly fields: FieldIssue[] | undefined;
  /** Seconds the client should wait before trying again, answered as Retry-After (429). */
  readonly retryAfterSeconds: number | undefined;

  constructor({
    code,
    message,
    isInternal = false,
    fields,
    cause,
    retryAfterSeconds,
  }: {
    code: ErrorCode;
    message: string;
    isInternal?: boolean;
    fields?: FieldIssue[];
    cause?: unknown;
    retryAfterSeconds?: number;
  }) {
    super(message, { cause });
    this.name = "AppError";
    this.code = code;
    this.httpStatus = getHttpStatusForCode(code);
    this.isInternal = isInternal;
    this.fields = fields;
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

/** The factory of an error that always says the same: its code, its message and, for a form, the field it is about. */
export function defineError(code: ErrorCode, message: string, field?: FieldIssue): () => AppError {
  return () => new AppError({ code, message, ...(field ? { fields: [field] } : {}) });
}

/**
 * Whether `error` is an AppError, from this copy of the module or another: Next bundles route
 * handlers apart from the custom server, whose services (the inbound pipeline above all) throw the
 * server's own copy of the class (docs/architecture.md: The parts).
 */
export function isAppError(error: unknown): error is AppError {
  if (error instanceof AppError) return true;
  if (!(error instanceof Error) || error.name !== "AppError") return false;
  const { code, httpStatus } = error as Partial<AppError>;
  return typeof code === "string" && isErrorCode(code) && httpStatus === getHttpStatusForCode(code);
}

export const createUnauthorizedError = () =>
  new AppError({ code: "auth.unauthorized", message: "You must be signed in to do this." });

export const createNotFoundError = (what = "resource") =>
  new AppError({ code: "resource.not_found", message: `The ${what} was not found.` });

const toFieldIssue = ({ path, code, message }: ValidationIssue): FieldIssue => ({ path, code, message });

/**
 * 400 request.invalid_body with every invalid field — unless a failed rule names its own error
 * code (such as email_callback.username_not_allowed), which then answers for the whole body.
 */
export function createInvalidBodyError(issues: ValidationIssue[]): AppError {
  const coded = issues.find((issue) => issue.appErrorCode && isErrorCode(issue.appErrorCode));
  if (coded?.appErrorCode && isErrorCode(coded.appErrorCode)) {
    return new AppError({ code: coded.appErrorCode, message: coded.message, fields: issues.map(toFieldIssue) });
  }
  return new AppError({
    code: "request.invalid_body",
    message: "The request body is invalid.",
    fields: issues.map(toFieldIssue),
  });
}

export const createInvalidQueryError = (fields: FieldIssue[]) =>
  new AppError({ code: "request.invalid_query", message: "The query parameters are invalid.", fields });

/** 429 request.rate_limited: the action was not done; Retry-After says when it may be tried again. */
export const createRateLimitedError = (retryAfterSeconds: number) =>
  new AppError({
    code: "request.rate_limited",
    message: `Too many requests; try again in ${retryAfterSeconds} seconds.`,
    retryAfterSeconds,
  });

export const createInternalError = (cause?: unknown) =>
  new AppError({ code: "internal.error", message: "An internal error occurred.", isInternal: true, cause });
