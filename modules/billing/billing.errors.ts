// Error factories of billing, with the codes of the shared table (error-codes.ts).
import { defineError } from "@/modules/shared/errors/app-error";

export const createBillingNotConfiguredError = defineError("billing.not_configured", "Billing is not enabled on this instance.");

export const createAlreadyProError = defineError("billing.already_pro", "You are already on the pro plan.");

export const createCheckoutSessionNotFoundError = defineError(
  "billing.checkout_session_not_found",
  "The checkout session was not found.",
);

export const createInvalidSignatureError = defineError(
  "billing.invalid_signature",
  "The Stripe signature is missing or invalid.",
);

export const createNoCustomerError = defineError("billing.no_customer", "You have no subscription to manage yet.");

/** The webhook cannot verify any event without STRIPE_WEBHOOK_SECRET: Stripe retries until it is set. */
export const createWebhookNotConfiguredError = defineError(
  "billing.webhook_not_configured",
  "STRIPE_WEBHOOK_SECRET is not set: webhook events cannot be verified.",
);
