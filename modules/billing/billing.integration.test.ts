// Billing through its route handlers, with the real `stripe` SDK pointed at a local fake Stripe
// server and webhook events signed like Stripe's: checkout makes the user pro with the higher
// limits, the plan always follows Stripe's current state, and nothing changes without a valid
// signature or for another user's session.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as emailCallbacks from "@/app/api/email-callbacks/route";
import * as checkoutSessionItem from "@/app/api/payments/checkout-session/[sessionId]/route";
import * as checkoutSession from "@/app/api/payments/checkout-session/route";
import * as billingConfigRoute from "@/app/api/payments/config/route";
import * as customerPortal from "@/app/api/payments/customer-portal/route";
import * as webhook from "@/app/api/payments/webhook/route";
import type { Config } from "@/modules/config/config";
import { setServices } from "@/modules/server/services";
import { type FakeStripe, type FakeStripeEvent, startFakeStripe } from "@/tests/support/fake-stripe";
import { type RouteTestApp, startRouteTestApp, type TestUser } from "@/tests/support/route-test-app";
import { toStripeAddress } from "./stripe-client";

const WEBHOOK_SECRET = "whsec_route_test_secret";
const PRO_PRICE_ID = "price_pro_monthly";

let fake: FakeStripe;
let app: RouteTestApp;

/** Makes the process's services answer with `config` (the app's services otherwise). */
const setProcessConfig = (config: Config) => setServices({ ...app.services, config });

beforeAll(async () => {
  fake = await startFakeStripe({ defaultPriceId: PRO_PRICE_ID });
  app = await startRouteTestApp({
    BASE_URL: "https://hookmail.example.com",
    STRIPE_SECRET_KEY: "sk_test_fake",
    STRIPE_PRO_PRICE_ID: PRO_PRICE_ID,
    STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
    STRIPE_API_URL: fake.url,
  });
});
afterAll(async () => {
  await app.close();
  await fake.close();
});

const startCheckout = (user: TestUser, body: unknown = { planId: "pro" }) =>
  app.call(checkoutSession.POST, { path: "/api/payments/checkout-session", method: "POST", body, headers: user.headers });

const getSessionStatus = (user: TestUser, sessionId: string) =>
  app.call(checkoutSessionItem.GET, {
    path: `/api/payments/checkout-session/${sessionId}`,
    headers: user.headers,
    params: { sessionId },
  });

const openPortal = (user: TestUser) =>
  app.call(customerPortal.GET, { path: "/api/payments/customer-portal", headers: user.headers });

const postWebhook = (payload: string, headers: Record<string, string>) =>
  app.call(webhook.POST, {
    path: "/api/payments/webhook",
    method: "POST",
    body: payload,
    headers: { "Content-Type": "application/json", ...headers },
  });

const sendEvent = (event: FakeStripeEvent) => {
  const { payload, signature } = fake.signEvent(event, WEBHOOK_SECRET);
  return postWebhook(payload, { "Stripe-Signature": signature });
};

const createAddress = (user: TestUser) =>
  app.call(emailCallbacks.POST, {
    path: "/api/email-callbacks",
    method: "POST",
    headers: user.headers,
    body: {
      domain: "hookmail.test",
      username: `user-${Math.random().toString(36).slice(2, 10)}`,
      webhookUrl: "https://hooks.example.com/incoming",
      allowedOrigins: [],
    },
  });

const readUser = (user: TestUser) =>
  app.database.prisma.user.findUniqueOrThrow({
    where: { id: user.userId },
    select: { planId: true, stripeCustomerId: true },
  });

const sessionIdOf = (checkoutUrl: string) => checkoutUrl.split("/").at(-1)!;

/** A user with a completed checkout whose events the webhook has handled. */
async function signUpProUser(label: string) {
  const user = await app.signUp(label);
  const { body } = await startCheckout(user);
  const { session, events } = fake.completeSession(sessionIdOf(body!.checkoutUrl));
  for (const event of events) expect((await sendEvent(event)).status).toBe(200);
  return { user, session, customerId: session.customer! };
}

describe("STRIPE_API_URL", () => {
  it("becomes the SDK's host, port and protocol", () => {
    expect(toStripeAddress("http://127.0.0.1:12111")).toEqual({ host: "127.0.0.1", port: 12111, protocol: "http" });
    expect(toStripeAddress("https://stripe.internal")).toEqual({ host: "stripe.internal", port: 443, protocol: "https" });
    expect(toStripeAddress("http://[::1]:8080/")).toEqual({ host: "::1", port: 8080, protocol: "http" });
  });
});

describe("GET /api/payments/config", () => {
  it("gives the plans with their limits, retention and prices", async () => {
    const response = await app.call(billingConfigRoute.GET, { path: "/api/payments/config" });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      isEnabled: true,
      plans: {
        free: { maxEmails: 10, retentionDays: 30, priceUsdMonthly: 0 },
        pro: { maxEmails: 100, retentionDays: 90, priceUsdMonthly: 12 },
      },
    });
  });
});

describe("POST /api/payments/checkout-session", () => {
  it("opens a subscription checkout for the pro price, for a customer created once and kept", async () => {
    const user = await app.signUp("buyer");
    const customersBefore = fake.requestsTo("POST /v1/customers").length;

    const first = await startCheckout(user);
    expect(first.status).toBe(200);
    expect(first.body!.checkoutUrl).toMatch(new RegExp(`^${fake.url}/checkout/cs_test_`));
    const second = await startCheckout(user);
    expect(second.status).toBe(200);
    expect(second.body!.checkoutUrl).not.toBe(first.body!.checkoutUrl);

    const customerRequests = fake.requestsTo("POST /v1/customers").slice(customersBefore);
    expect(customerRequests).toHaveLength(1);
    expect(customerRequests[0]!.body).toMatchObject({ email: user.email, metadata: { userId: user.userId } });
    const { stripeCustomerId, planId } = await readUser(user);
    expect(stripeCustomerId).toMatch(/^cus_test_/);
    expect(planId).toBe("free");

    const session = fake.sessions.get(sessionIdOf(first.body!.checkoutUrl))!;
    expect(session).toMatchObject({
      mode: "subscription",
      customer: stripeCustomerId,
      client_reference_id: user.userId,
      line_items_price: PRO_PRICE_ID,
      success_url: "https://hookmail.example.com/checkout-success?sessionId={CHECKOUT_SESSION_ID}",
      cancel_url: "https://hookmail.example.com/checkout-cancel",
    });
  });

  it("refuses a plan other than pro with 400", async () => {
    const user = await app.signUp("chooser");
    const response = await startCheckout(user, { planId: "free" });
    expect(response.status).toBe(400);
    expect(response.body?.error.code).toBe("request.invalid_body");
  });

  it("answers 401 without a session", async () => {
    const response = await app.call(checkoutSession.POST, {
      path: "/api/payments/checkout-session",
      method: "POST",
      body: { planId: "pro" },
    });
    expect(response.status).toBe(401);
  });

  it("answers 409 billing.already_pro to a pro user", async () => {
    const { user } = await signUpProUser("already-pro");
    const response = await startCheckout(user);
    expect(response.status).toBe(409);
    expect(response.body?.error.code).toBe("billing.already_pro");
  });

  it("answers 409 when the subscription is paid but its webhook has not arrived yet", async () => {
    const user = await app.signUp("early");
    const { body } = await startCheckout(user);
    fake.completeSession(sessionIdOf(body!.checkoutUrl));
    const response = await startCheckout(user);
    expect(response.status).toBe(409);
    expect(response.body?.error.code).toBe("billing.already_pro");
    expect((await readUser(user)).planId).toBe("pro");
  });
});

describe("checkout → webhook → plan", () => {
  it("makes the user pro and lets them create the 11th address", async () => {
    const user = await app.signUp("upgrader");
    for (let index = 0; index < 10; index += 1) expect((await createAddress(user)).status).toBe(201);
    const refused = await createAddress(user);
    expect(refused.status).toBe(403);
    expect(refused.body?.error.code).toBe("email_callbacks.limit_reached");

    const { body } = await startCheckout(user);
    const sessionId = sessionIdOf(body!.checkoutUrl);
    expect((await getSessionStatus(user, sessionId)).body).toEqual({ isPaid: false, status: "open" });

    const { events } = fake.completeSession(sessionId);
    const completed = events.find((event) => event.type === "checkout.session.completed")!;
    const response = await sendEvent(completed);
    expect({ status: response.status, body: response.body }).toEqual({ status: 200, body: { received: true } });
    expect((await readUser(user)).planId).toBe("pro");
    expect((await createAddress(user)).status).toBe(201);
    expect((await getSessionStatus(user, sessionId)).body).toEqual({ isPaid: true, status: "complete" });
  });

  it("applies a replayed event with no further effect", async () => {
    const { user, customerId } = await signUpProUser("replayed");
    const created = fake.buildEvent(
      "customer.subscription.created",
      [...fake.subscriptions.values()].find((s) => s.customer === customerId)!,
    );
    const { payload, signature } = fake.signEvent(created, WEBHOOK_SECRET);
    for (let attempt = 0; attempt < 3; attempt += 1) {
      expect((await postWebhook(payload, { "Stripe-Signature": signature })).status).toBe(200);
    }
    expect(await readUser(user)).toEqual({ planId: "pro", stripeCustomerId: customerId });
    expect(await app.database.prisma.user.count({ where: { stripeCustomerId: customerId } })).toBe(1);
  });

  it("makes the user free again when the subscription is deleted, even if an older event arrives after", async () => {
    const { user, customerId, session } = await signUpProUser("canceller");
    for (let index = 0; index < 11; index += 1) expect((await createAddress(user)).status).toBe(201);

    const { events } = fake.setSubscriptionStatus(customerId, "canceled");
    expect(events[0]!.type).toBe("customer.subscription.deleted");
    expect((await sendEvent(events[0]!)).status).toBe(200);
    expect((await readUser(user)).planId).toBe("free");
    expect((await createAddress(user)).body?.error.code).toBe("email_callbacks.limit_reached");

    // The checkout's own completion event, delivered late, re-reads Stripe: still free.
    expect((await sendEvent(fake.buildEvent("checkout.session.completed", session))).status).toBe(200);
    expect((await readUser(user)).planId).toBe("free");
  });

  it("keeps a past-due subscription's user free and an updated-to-active one pro", async () => {
    const { user, customerId } = await signUpProUser("past-due");
    const pastDue = fake.setSubscriptionStatus(customerId, "past_due");
    await sendEvent(pastDue.events[0]!);
    expect((await readUser(user)).planId).toBe("free");
    const active = fake.setSubscriptionStatus(customerId, "active");
    await sendEvent(active.events[0]!);
    expect((await readUser(user)).planId).toBe("pro");
  });

  it("acknowledges an event it does not handle and changes nothing", async () => {
    const user = await app.signUp("bystander");
    const listsBefore = fake.requestsTo("GET /v1/subscriptions").length;
    const response = await sendEvent(fake.buildEvent("invoice.paid", { id: "in_test_1", object: "invoice", customer: "cus_x" }));
    expect({ status: response.status, body: response.body }).toEqual({ status: 200, body: { received: true } });
    expect(fake.requestsTo("GET /v1/subscriptions")).toHaveLength(listsBefore);
    expect((await readUser(user)).planId).toBe("free");
  });
});

describe("POST /api/payments/webhook signature", () => {
  it.each([
    [
      "a wrong secret",
      (payload: string) => ({ "Stripe-Signature": fake.signEvent(JSON.parse(payload), "whsec_wrong").signature }),
    ],
    ["no signature", () => ({})],
    ["a malformed signature", () => ({ "Stripe-Signature": "t=1,v1=deadbeef" })],
  ])("refuses an event with %s with 400 billing.invalid_signature and changes nothing", async (_case, headersFor) => {
    const user = await app.signUp("unsigned");
    const { body } = await startCheckout(user);
    const { events } = fake.completeSession(sessionIdOf(body!.checkoutUrl));
    const payload = JSON.stringify(events[1]);
    const response = await postWebhook(payload, headersFor(payload));
    expect(response.status).toBe(400);
    expect(response.body?.error.code).toBe("billing.invalid_signature");
    expect((await readUser(user)).planId).toBe("free");
  });

  it("refuses a validly signed body that was altered", async () => {
    const user = await app.signUp("tampered");
    const { body } = await startCheckout(user);
    const { events } = fake.completeSession(sessionIdOf(body!.checkoutUrl));
    const { payload, signature } = fake.signEvent(events[1]!, WEBHOOK_SECRET);
    const response = await postWebhook(payload.replace("complete", "completf"), { "Stripe-Signature": signature });
    expect(response.status).toBe(400);
    expect((await readUser(user)).planId).toBe("free");
  });
});

describe("POST /api/payments/webhook without STRIPE_WEBHOOK_SECRET", () => {
  it("answers 503 billing.webhook_not_configured, so Stripe retries, and changes nothing", async () => {
    const user = await app.signUp("no-secret");
    const { body } = await startCheckout(user);
    const { events } = fake.completeSession(sessionIdOf(body!.checkoutUrl));
    setProcessConfig({ ...app.config, billing: { ...app.config.billing, webhookSecret: undefined } });
    try {
      const response = await sendEvent(events[1]!);
      expect(response.status).toBe(503);
      expect(response.body?.error.code).toBe("billing.webhook_not_configured");
      expect((await readUser(user)).planId).toBe("free");
    } finally {
      setProcessConfig(app.config);
    }
  });
});

describe("GET /api/payments/checkout-session/{sessionId}", () => {
  it("answers 404 for another user's session and for an unknown one", async () => {
    const owner = await app.signUp("session-owner");
    const stranger = await app.signUp("stranger");
    const { body } = await startCheckout(owner);
    const sessionId = sessionIdOf(body!.checkoutUrl);
    fake.completeSession(sessionId);

    for (const id of [sessionId, "cs_test_unknown", "not-a-session"]) {
      const response = await getSessionStatus(stranger, id);
      expect(response.status).toBe(404);
      expect(response.body?.error.code).toBe("billing.checkout_session_not_found");
    }
    expect((await readUser(stranger)).planId).toBe("free");
    expect((await getSessionStatus(owner, sessionId)).body).toEqual({ isPaid: true, status: "complete" });
  });
});

describe("GET /api/payments/customer-portal", () => {
  it("opens the portal of the caller's customer, returning to the settings", async () => {
    const { user, customerId } = await signUpProUser("portal");
    const response = await openPortal(user);
    expect(response.status).toBe(200);
    expect(response.body!.portalUrl).toMatch(new RegExp(`^${fake.url}/portal/`));
    expect(fake.requestsTo("POST /v1/billing_portal/sessions").at(-1)!.body).toEqual({
      customer: customerId,
      return_url: "https://hookmail.example.com/settings",
    });
  });

  it("answers 404 billing.no_customer to a user who never checked out", async () => {
    const response = await openPortal(await app.signUp("no-customer"));
    expect(response.status).toBe(404);
    expect(response.body?.error.code).toBe("billing.no_customer");
  });
});

describe("with billing not configured", () => {
  it("answers 404 billing.not_configured on every payments route, the webhook included", async () => {
    const user = await app.signUp("unconfigured");
    const requestsBefore = fake.requests.length;
    setProcessConfig({ ...app.config, billing: { ...app.config.billing, isEnabled: false } });
    try {
      const responses = [
        await startCheckout(user),
        await getSessionStatus(user, "cs_test_000001"),
        await openPortal(user),
        await app.call(billingConfigRoute.GET, { path: "/api/payments/config" }),
        await sendEvent(
          fake.buildEvent("checkout.session.completed", { id: "cs_test_x", object: "checkout.session", customer: "cus_x" }),
        ),
      ];
      for (const response of responses) {
        expect(response.status).toBe(404);
        expect(response.body?.error.code).toBe("billing.not_configured");
      }
      expect(fake.requests).toHaveLength(requestsBefore);
    } finally {
      setProcessConfig(app.config);
    }
  });
});
