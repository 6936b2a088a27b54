// The one table mapping every error code to its HTTP status. Codes are namespaced
// (`<feature>.<reason>`); clients translate them, so a code never changes meaning.
export const ERROR_HTTP_STATUSES = {
  "request.invalid_body": 400,
  "request.invalid_query": 400,
  "request.payload_too_large": 413,
  "auth.unauthorized": 401,
  "auth.forbidden": 403,
  "resource.not_found": 404,
  "service.unavailable": 503,
  "mail.send_failed": 503,
  "internal.error": 500,
} as const satisfies Record<string, number>;

export type ErrorCode = keyof typeof ERROR_HTTP_STATUSES;

export function getHttpStatusForCode(code: ErrorCode): number {
  return ERROR_HTTP_STATUSES[code];
}
