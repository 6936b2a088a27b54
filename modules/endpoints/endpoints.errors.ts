// Error factories of endpoints, with the codes of the shared table (error-codes.ts).
import { AppError, defineError } from "@/modules/shared/errors/app-error";

export const createEndpointNotFoundError = defineError("endpoint.not_found", "The endpoint was not found.");

export const createLastEndpointError = defineError(
  "endpoint.last",
  "This is the address's only endpoint: an address needs one. Change it, or delete the address.",
);

export const createEndpointsLimitReachedError = (limit: number) =>
  new AppError({
    code: "endpoints.limit_reached",
    message: `An address on your plan may have at most ${limit} endpoints: upgrade your plan to add more.`,
  });

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
