// Error factories of billing, with the codes of the shared table (error-codes.ts).
import { AppError } from "@/modules/shared/errors/app-error";

export const createBillingNotConfiguredError = () =>
  new AppError({ code: "billing.not_configured", message: "Billing is not enabled on this instance." });

export const createAlreadyProError = () =>
  new AppError({ code: "billing.already_pro", message: "You are already on the pro plan." });

export const createCheckoutSessionNotFoundError = () =>
  new AppError({ code: "billing.checkout_session_not_found", message: "The checkout session was not found." });

export const createInvalidSignatureError = () =>
  new AppError({ code: "billing.invalid_signature", message: "The Stripe signature is missing or invalid." });

export const createNoCustomerError = () =>
  new AppError({ code: "billing.no_customer", message: "You have no subscription to manage yet." });

/** The webhook cannot verify any event without STRIPE_WEBHOOK_SECRET: Stripe retries until it is set. */
export const createWebhookNotConfiguredError = () =>
  new AppError({
    code: "billing.webhook_not_configured",
    message: "STRIPE_WEBHOOK_SECRET is not set: webhook events cannot be verified.",
  });
