// The rules of billing. Stripe is the source of truth for subscriptions: every plan change re-reads
// the customer's subscriptions from Stripe and derives planId from them, so handling an event twice
// or out of order always lands on Stripe's current state.
import Stripe from "stripe";
import { PLAN_ID, PLAN_IDS, type PlanId } from "@/modules/plans/plans.constants";
import { getPlanLimits, type PlanLimits, type PlanSettings } from "@/modules/plans/plans.models";
import { createUnauthorizedError } from "@/modules/shared/errors/app-error";
import {
  CHECKOUT_CANCEL_PATH,
  CHECKOUT_SUCCESS_PATH,
  CUSTOMER_PORTAL_RETURN_PATH,
  PLAN_SYNC_EVENT_TYPES,
  PRO_SUBSCRIPTION_STATUSES,
  SUBSCRIPTIONS_PAGE_SIZE,
} from "./billing.constants";
import {
  createAlreadyProError,
  createCheckoutSessionNotFoundError,
  createInvalidSignatureError,
  createNoCustomerError,
  createWebhookNotConfiguredError,
} from "./billing.errors";
import type { BillingRepository, BillingUserRecord } from "./billing.repository";
import { type CreateCheckoutSessionInput, checkoutSessionIdSchema } from "./billing.schemas";

export type BillingSettings = { proPriceId: string; baseUrl: string; webhookSecret: string | undefined };
type BillingServices = { stripe: Stripe; repository: BillingRepository; settings: BillingSettings };

export type BillingPlans = Record<PlanId, PlanLimits>;

export function getBillingPlans(settings: PlanSettings): { isEnabled: true; plans: BillingPlans } {
  return {
    isEnabled: true,
    plans: Object.fromEntries(PLAN_IDS.map((planId) => [planId, getPlanLimits(planId, settings)])) as BillingPlans,
  };
}

export async function createCheckoutSession({
  userId,
  input,
  stripe,
  repository,
  settings,
}: BillingServices & { userId: string; input: CreateCheckoutSessionInput }): Promise<{ checkoutUrl: string }> {
  const user = await getBillingUserOrThrow(repository, userId);
  if (user.planId === PLAN_ID.PRO) throw createAlreadyProError();
  // A paid subscription whose webhook has not arrived yet must not be bought twice.
  if (user.stripeCustomerId) {
    const { planId } = await syncPlanForCustomer({ customerId: user.stripeCustomerId, stripe, repository, settings });
    if (planId === PLAN_ID.PRO) throw createAlreadyProError();
  }
  const customerId = await ensureStripeCustomer({ user, stripe, repository });
  const session = await stripe.checkout.sessions.create({
    mode: "subscription",
    customer: customerId,
    client_reference_id: user.id,
    line_items: [{ price: settings.proPriceId, quantity: 1 }],
    success_url: `${settings.baseUrl}${CHECKOUT_SUCCESS_PATH}`,
    cancel_url: `${settings.baseUrl}${CHECKOUT_CANCEL_PATH}`,
    metadata: { userId: user.id, planId: input.planId },
    subscription_data: { metadata: { userId: user.id } },
  });
  if (!session.url) throw new Error(`Stripe returned checkout session ${session.id} without a URL`);
  return { checkoutUrl: session.url };
}

/** The state of one of the caller's Checkout Sessions; a paid one brings the plan up to date at once. */
export async function getCheckoutSessionStatus({
  userId,
  sessionId,
  stripe,
  repository,
  settings,
}: BillingServices & { userId: string; sessionId: string }): Promise<{ isPaid: boolean; status: string | null }> {
  if (!checkoutSessionIdSchema.safeParse(sessionId).success) throw createCheckoutSessionNotFoundError();
  const user = await getBillingUserOrThrow(repository, userId);
  const session = await retrieveCheckoutSession(stripe, sessionId);
  const customerId = getStripeId(session.customer);
  const isOwn = session.client_reference_id === user.id || (customerId !== null && customerId === user.stripeCustomerId);
  if (!isOwn) throw createCheckoutSessionNotFoundError();
  const isPaid = session.status === "complete" && session.payment_status !== "unpaid";
  if (isPaid && customerId !== null && customerId === user.stripeCustomerId) {
    await syncPlanForCustomer({ customerId, stripe, repository, settings });
  }
  return { isPaid, status: session.status };
}

export async function createCustomerPortalSession({
  userId,
  stripe,
  repository,
  settings,
}: BillingServices & { userId: string }): Promise<{ portalUrl: string }> {
  const user = await getBillingUserOrThrow(repository, userId);
  if (!user.stripeCustomerId) throw createNoCustomerError();
  const session = await stripe.billingPortal.sessions.create({
    customer: user.stripeCustomerId,
    return_url: `${settings.baseUrl}${CUSTOMER_PORTAL_RETURN_PATH}`,
  });
  return { portalUrl: session.url };
}

export type WebhookOutcome =
  | { handled: false; eventType: string }
  | { handled: true; eventType: string; customerId: string | null; planId: PlanId | null };

/**
 * Verifies the event's signature on the raw body (nothing changes when it fails), then re-reads the
 * plan of the event's customer from Stripe.
 */
export async function handleStripeWebhook({
  payload,
  signature,
  stripe,
  repository,
  settings,
}: BillingServices & { payload: string; signature: string | null }): Promise<WebhookOutcome> {
  if (!settings.webhookSecret) throw createWebhookNotConfiguredError();
  if (!signature) throw createInvalidSignatureError();
  let event: Stripe.Event;
  try {
    event = stripe.webhooks.constructEvent(payload, signature, settings.webhookSecret);
  } catch (error) {
    throw Object.assign(createInvalidSignatureError(), { cause: error });
  }
  if (!PLAN_SYNC_EVENT_TYPES.has(event.type)) return { handled: false, eventType: event.type };
  const customerId = await findEventCustomerId(event, repository);
  if (!customerId) return { handled: true, eventType: event.type, customerId: null, planId: null };
  const { planId } = await syncPlanForCustomer({ customerId, stripe, repository, settings });
  return { handled: true, eventType: event.type, customerId, planId };
}

/** Sets the plan of the customer's user from their subscriptions on Stripe; null when no user has that customer. */
export async function syncPlanForCustomer({
  customerId,
  stripe,
  repository,
  settings,
}: BillingServices & { customerId: string }): Promise<{ planId: PlanId | null }> {
  const subscriptions = await stripe.subscriptions.list({
    customer: customerId,
    status: "all",
    limit: SUBSCRIPTIONS_PAGE_SIZE,
  });
  const planId = subscriptions.data.some((subscription) => isProSubscription(subscription, settings.proPriceId))
    ? PLAN_ID.PRO
    : PLAN_ID.FREE;
  const updated = await repository.setPlanIdByStripeCustomerId(customerId, planId);
  return { planId: updated > 0 ? planId : null };
}

export function isProSubscription(subscription: Stripe.Subscription, proPriceId: string): boolean {
  return (
    PRO_SUBSCRIPTION_STATUSES.has(subscription.status) && subscription.items.data.some((item) => item.price.id === proPriceId)
  );
}

async function ensureStripeCustomer({
  user,
  stripe,
  repository,
}: {
  user: BillingUserRecord;
  stripe: Stripe;
  repository: BillingRepository;
}): Promise<string> {
  if (user.stripeCustomerId) return user.stripeCustomerId;
  const customer = await stripe.customers.create({
    email: user.email,
    name: user.name,
    metadata: { userId: user.id },
  });
  if (await repository.setStripeCustomerIdIfMissing(user.id, customer.id)) return customer.id;
  // A concurrent request stored its customer first: keep that one.
  const stored = await getBillingUserOrThrow(repository, user.id);
  return stored.stripeCustomerId ?? customer.id;
}

async function findEventCustomerId(event: Stripe.Event, repository: BillingRepository): Promise<string | null> {
  const object = event.data.object as { object?: string; customer?: unknown; client_reference_id?: string | null };
  const customerId = getStripeId(object.customer);
  if (customerId) return customerId;
  // A Checkout Session without a customer: fall back to the user it was opened for.
  if (object.object === "checkout.session" && object.client_reference_id) {
    const user = await repository.findBillingUserById(object.client_reference_id);
    return user?.stripeCustomerId ?? null;
  }
  return null;
}

async function retrieveCheckoutSession(stripe: Stripe, sessionId: string): Promise<Stripe.Checkout.Session> {
  try {
    return await stripe.checkout.sessions.retrieve(sessionId);
  } catch (error) {
    if (error instanceof Stripe.errors.StripeError && error.statusCode === 404) {
      throw createCheckoutSessionNotFoundError();
    }
    throw error;
  }
}

async function getBillingUserOrThrow(repository: BillingRepository, userId: string): Promise<BillingUserRecord> {
  const user = await repository.findBillingUserById(userId);
  // The caller's account was deleted while the request was under way.
  if (!user) throw createUnauthorizedError();
  return user;
}

/** Stripe expands some fields into objects: the id either way. */
function getStripeId(value: unknown): string | null {
  if (typeof value === "string") return value;
  if (value && typeof value === "object" && typeof (value as { id?: unknown }).id === "string") {
    return (value as { id: string }).id;
  }
  return null;
}
