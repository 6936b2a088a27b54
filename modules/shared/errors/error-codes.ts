// The one table mapping every error code to its HTTP status. Codes are namespaced
// (`<feature>.<reason>`); clients translate them, so a code never changes meaning.
export const ERROR_HTTP_STATUSES = {
  "request.invalid_body": 400,
  "request.invalid_query": 400,
  "request.cross_site": 403,
  "request.unsupported_media_type": 415,
  "request.rate_limited": 429,
  "auth.unauthorized": 401,
  "auth.forbidden": 403,
  "resource.not_found": 404,
  "service.unavailable": 503,
  "mail.send_failed": 503,
  "email_callback.not_found": 404,
  "email_callback.already_exists": 409,
  "email_callback.username_not_allowed": 400,
  "email_callback.invalid_domain": 400,
  "email_callback.invalid_username": 400,
  "email_callback.webhook_url_not_allowed": 400,
  "email_callbacks.limit_reached": 403,
  "email_processing.not_found": 404,
  "email_processing.message_gone": 409,
  "email_processing.delivery_in_progress": 409,
  "domain.not_found": 404,
  "domain.invalid": 400,
  "domain.reserved": 400,
  "domain.already_exists": 409,
  "domain.taken": 409,
  "domain.in_use": 409,
  "domain.invalid_address": 400,
  "domains.limit_reached": 403,
  "api_key.not_found": 404,
  "api_keys.limit_reached": 403,
  "api_keys.session_required": 403,
  "inbound.invalid_message": 400,
  "inbound.message_too_complex": 400,
  "inbound.unauthorized": 401,
  "inbound.payload_too_large": 413,
  "inbound.unknown_provider": 404,
  "inbound.not_configured": 503,
  "billing.not_configured": 404,
  "billing.already_pro": 409,
  "billing.checkout_session_not_found": 404,
  "billing.invalid_signature": 400,
  "billing.no_customer": 404,
  "billing.webhook_not_configured": 503,
  "internal.error": 500,
} as const satisfies Record<string, number>;

export type ErrorCode = keyof typeof ERROR_HTTP_STATUSES;

export function getHttpStatusForCode(code: ErrorCode): number {
  return ERROR_HTTP_STATUSES[code];
}
