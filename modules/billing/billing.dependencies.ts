// What the payments routes hand to the usecases: the Stripe client, the repository and the
// settings from the configuration — and the 404 billing.not_configured every payments route
// answers when billing is off.
import { getConfig } from "@/modules/config/config";
import { getPrisma } from "@/modules/db/db";
import { toErrorResponse } from "@/modules/shared/errors/error-response";
import { createBillingNotConfiguredError } from "./billing.errors";
import { createBillingRepository } from "./billing.repository";
import type { BillingSettings } from "./billing.usecases";
import { getStripeClient } from "./stripe-client";

/** Answers 404 billing.not_configured, before anything else, when STRIPE_SECRET_KEY or STRIPE_PRO_PRICE_ID is unset. */
export function withBillingEnabled<Args extends unknown[]>(handler: (...args: Args) => Promise<Response>) {
  return async (...args: Args): Promise<Response> => {
    if (!getConfig().billing.isEnabled) return toErrorResponse(createBillingNotConfiguredError());
    return handler(...args);
  };
}

export async function getBillingDependencies() {
  const config = getConfig();
  const { billing } = config;
  if (!billing.isEnabled || !billing.proPriceId) throw createBillingNotConfiguredError();
  const settings: BillingSettings = {
    proPriceId: billing.proPriceId,
    baseUrl: config.baseUrl,
    webhookSecret: billing.webhookSecret,
  };
  return { stripe: getStripeClient(billing), repository: createBillingRepository(await getPrisma()), settings };
}
