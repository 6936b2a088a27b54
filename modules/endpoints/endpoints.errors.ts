// Error factories of endpoints, with the codes of the shared table (error-codes.ts).
import { AppError } from "@/modules/shared/errors/app-error";

/**
 * An endpoint URL that leads to a private address: the same answer as an address's webhook URL
 * (the same rule, docs/security.md), on the endpoint's field. Says no more than "not allowed".
 */
export const createEndpointUrlNotAllowedError = () =>
  new AppError({
    code: "email_callback.webhook_url_not_allowed",
    message: "The webhook URL is not allowed: it must lead to a public address.",
    fields: [{ path: "url", code: "not_allowed", message: "The webhook URL must reach a public address" }],
  });
