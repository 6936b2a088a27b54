// The plans: their ids and what each gives (README: Plans, billing and analytics). How many
// addresses each allows is configured (PLAN_FREE_MAX_EMAILS, PLAN_PRO_MAX_EMAILS); how long each
// keeps its inbox history and what it costs are fixed here.

export const PLAN_ID = {
  FREE: "free",
  PRO: "pro",
} as const;

export type PlanId = (typeof PLAN_ID)[keyof typeof PLAN_ID];

export const PLAN_IDS = [PLAN_ID.FREE, PLAN_ID.PRO] as const satisfies readonly PlanId[];

/** The plan of a new account, and of any account whose plan is not one of PLAN_IDS. */
export const DEFAULT_PLAN_ID = PLAN_ID.FREE;

/** The plans a user may buy through Checkout. */
export const CHECKOUT_PLAN_IDS = [PLAN_ID.PRO] as const;

/** How long each plan keeps its inbox history. */
export const PLAN_RETENTION_DAYS = { [PLAN_ID.FREE]: 30, [PLAN_ID.PRO]: 90 } as const satisfies Record<PlanId, number>;

export const PLAN_PRICES_USD_MONTHLY = { [PLAN_ID.FREE]: 0, [PLAN_ID.PRO]: 12 } as const satisfies Record<PlanId, number>;

/** How many of their own domains an account may add (docs/domains.md). */
/** How many endpoints (destinations) one address may have (docs/webhooks.md: Destinations). */
export const PLAN_MAX_ENDPOINTS = { [PLAN_ID.FREE]: 2, [PLAN_ID.PRO]: 10 } as const satisfies Record<PlanId, number>;

export const PLAN_MAX_DOMAINS = { [PLAN_ID.FREE]: 1, [PLAN_ID.PRO]: 20 } as const satisfies Record<PlanId, number>;
