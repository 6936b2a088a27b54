// What a plan gives, in one place: the configured address limit beside the fixed retention and price.
import {
  DEFAULT_PLAN_ID,
  PLAN_IDS,
  PLAN_MAX_DOMAINS,
  PLAN_PRICES_USD_MONTHLY,
  PLAN_RETENTION_DAYS,
  type PlanId,
} from "./plans.constants";

export type PlanLimits = { maxEmails: number; retentionDays: number; priceUsdMonthly: number };

/** The configured part of the plans (the configuration's `plans`). */
export type PlanSettings = { plans: Record<PlanId, { maxEmails: number }> };

/** A stored plan id as a plan: an unknown or missing one is the default plan. */
export function toPlanId(value: string | null | undefined): PlanId {
  return PLAN_IDS.find((planId) => planId === value) ?? DEFAULT_PLAN_ID;
}

export function getPlanLimits(planId: string | null | undefined, settings: PlanSettings): PlanLimits {
  const plan = toPlanId(planId);
  return {
    maxEmails: settings.plans[plan].maxEmails,
    retentionDays: PLAN_RETENTION_DAYS[plan],
    priceUsdMonthly: PLAN_PRICES_USD_MONTHLY[plan],
  };
}

/** How many of their own domains a plan allows (fixed, not configured). */
export function getMaxDomains(planId: string | null | undefined): number {
  return PLAN_MAX_DOMAINS[toPlanId(planId)];
}
