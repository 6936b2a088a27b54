// The Stripe facts billing relies on (the plans themselves are in modules/plans).
/** A subscription in one of these states makes its customer pro. */
export const PRO_SUBSCRIPTION_STATUSES: ReadonlySet<string> = new Set(["active", "trialing"]);

/** Events after which the customer's plan is re-read from Stripe; any other event is acknowledged and ignored. */
export const PLAN_SYNC_EVENT_TYPES: ReadonlySet<string> = new Set([
  "checkout.session.completed",
  "customer.subscription.created",
  "customer.subscription.updated",
  "customer.subscription.deleted",
]);

export const STRIPE_SIGNATURE_HEADER = "stripe-signature";

/** Stripe fills `{CHECKOUT_SESSION_ID}` in the success URL. */
export const CHECKOUT_SUCCESS_PATH = "/checkout-success?sessionId={CHECKOUT_SESSION_ID}";
export const CHECKOUT_CANCEL_PATH = "/checkout-cancel";
export const CUSTOMER_PORTAL_RETURN_PATH = "/settings";

/** A customer never has more subscriptions than this worth looking at (one page of the list). */
export const SUBSCRIPTIONS_PAGE_SIZE = 100;

export const STRIPE_REQUEST_TIMEOUT_MS = 20_000;
