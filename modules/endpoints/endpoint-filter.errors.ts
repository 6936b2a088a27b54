// Errors of an endpoint's content filter, with the codes of the shared table (error-codes.ts).
import { AppError, type FieldIssue } from "@/modules/shared/errors/app-error";

export const ENDPOINT_INVALID_FILTER_CODE = "endpoint.invalid_filter";

/** 400 endpoint.invalid_filter: the message names the condition and what is wrong with it. */
export const createInvalidFilterError = (message: string, fields?: FieldIssue[]) =>
  new AppError({ code: ENDPOINT_INVALID_FILTER_CODE, message, ...(fields ? { fields } : {}) });
