// What the payments routes hand to the usecases: the Stripe client, the repository and the
// settings from the configuration — and the 404 billing.not_configured every payments route
// answers when billing is off.
import type Stripe from "stripe";
import type { Config } from "@/modules/config/config";
import type { PrismaClient } from "@/modules/db/generated/client";
import { toErrorResponse } from "@/modules/shared/errors/error-response";
import type { Logger } from "@/modules/shared/logging/logger";
import { createBillingNotConfiguredError } from "./billing.errors";
import { createBillingRepository } from "./billing.repository";
import type { BillingSettings } from "./billing.usecases";

/** Answers 404 billing.not_configured, before anything else, when STRIPE_SECRET_KEY or STRIPE_PRO_PRICE_ID is unset. */
export function withBillingEnabled<Args extends unknown[]>(
  getServices: () => { config: Pick<Config, "billing">; logger: Logger },
  handler: (...args: Args) => Promise<Response>,
) {
  return async (...args: Args): Promise<Response> => {
    const { config, logger } = getServices();
    if (!config.billing.isEnabled) return toErrorResponse(createBillingNotConfiguredError(), logger);
    return handler(...args);
  };
}

export async function getBillingDependencies({
  config,
  prisma,
  stripe,
}: {
  config: Pick<Config, "billing" | "baseUrl">;
  prisma: () => Promise<PrismaClient>;
  /** The process's Stripe client (stripe-client.ts), made on first use. */
  stripe: () => Stripe;
}) {
  const { billing } = config;
  if (!billing.isEnabled || !billing.proPriceId) throw createBillingNotConfiguredError();
  const settings: BillingSettings = {
    proPriceId: billing.proPriceId,
    baseUrl: config.baseUrl,
    webhookSecret: billing.webhookSecret,
  };
  return { stripe: stripe(), repository: createBillingRepository(await prisma()), settings };
}
