// Browser-side stand-ins for the billing API and an analytics host: page.route answers
// /api/payments/* as the server would, and records what the browser sends to PostHog.
import { gunzipSync } from "node:zlib";
import type { Page, Request } from "@playwright/test";
import { E2E_ANALYTICS_HOST } from "./servers";

export const TEST_PLANS = {
  free: { maxEmails: 10, retentionDays: 30, priceUsdMonthly: 0 },
  pro: { maxEmails: 100, retentionDays: 90, priceUsdMonthly: 12 },
} as const;

export const FAKE_CHECKOUT_URL = "https://checkout.stripe.test/c/pay/cs_test_fake";
export const FAKE_PORTAL_URL = "https://billing.stripe.test/p/session/bps_test_fake";

/** The analytics host the e2e server is configured with (NEXT_PUBLIC_POSTHOG_HOST). */
export const ANALYTICS_HOST = E2E_ANALYTICS_HOST;

/** Billing on: the plans, a checkout session, its payment state and the portal. */
export async function routeBillingEnabled(page: Page, { isPaid = true }: { isPaid?: boolean } = {}) {
  const checkoutRequests: unknown[] = [];
  await page.route("**/api/payments/config", (route) => route.fulfill({ json: { isEnabled: true, plans: TEST_PLANS } }));
  await page.route("**/api/payments/checkout-session", async (route) => {
    checkoutRequests.push(route.request().postDataJSON());
    await route.fulfill({ json: { checkoutUrl: FAKE_CHECKOUT_URL } });
  });
  await page.route("**/api/payments/checkout-session/*", (route) =>
    route.fulfill({ json: { isPaid, status: isPaid ? "complete" : "open" } }),
  );
  await page.route("**/api/payments/customer-portal", (route) => route.fulfill({ json: { portalUrl: FAKE_PORTAL_URL } }));
  return { checkoutRequests };
}

/** Billing off: every payments route answers 404 billing.not_configured. */
export async function routeBillingDisabled(page: Page) {
  await page.route("**/api/payments/**", (route) =>
    route.fulfill({
      status: 404,
      json: { error: { code: "billing.not_configured", message: "Billing is not configured" } },
    }),
  );
}

/** Makes the signed-in user look pro to the browser (the session as better-auth returns it). */
export async function routeSessionAsPro(page: Page) {
  await page.route("**/api/auth/get-session*", async (route) => {
    const response = await route.fetch();
    const session = (await response.json()) as { user?: { planId?: string } } | null;
    if (session?.user) session.user.planId = "pro";
    await route.fulfill({ response, json: session });
  });
}

/**
 * posthog-js drops events from browsers that look automated, so the analytics journeys present the browser as an ordinary Chrome.
 */
export async function presentAsOrdinaryBrowser(page: Page) {
  await page.context().addInitScript(() => {
    Object.defineProperty(Navigator.prototype, "webdriver", { get: () => false });
    Object.defineProperty(Navigator.prototype, "userAgentData", { get: () => undefined });
  });
}

export const ORDINARY_CHROME_USER_AGENT =
  "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0 Safari/537.36";

export type CapturedEvent = { event: string; properties?: Record<string, unknown>; $set?: Record<string, unknown> };

/** Answers every request to the analytics host and decodes the events the browser sends. */
export async function routeAnalyticsHost(page: Page) {
  const requests: Request[] = [];
  const events: CapturedEvent[] = [];
  await page.context().route(`${ANALYTICS_HOST}/**`, async (route) => {
    const request = route.request();
    requests.push(request);
    events.push(...decodeEvents(request));
    await route.fulfill({ status: 200, json: { status: 1 }, headers: { "Access-Control-Allow-Origin": "*" } });
  });
  return { requests, events };
}

function decodeEvents(request: Request): CapturedEvent[] {
  const body = request.postDataBuffer();
  if (!body || body.length === 0) return [];
  const isGzip = body[0] === 0x1f && body[1] === 0x8b;
  let text: string;
  try {
    text = isGzip ? gunzipSync(body).toString("utf8") : body.toString("utf8");
  } catch {
    return [];
  }
  if (text.startsWith("data=")) {
    text = Buffer.from(decodeURIComponent(text.slice("data=".length)), "base64").toString("utf8");
  }
  try {
    const parsed: unknown = JSON.parse(text);
    const list = Array.isArray(parsed) ? parsed : ((parsed as { batch?: unknown[] }).batch ?? [parsed]);
    return list.filter((item): item is CapturedEvent => typeof (item as CapturedEvent)?.event === "string");
  } catch {
    return [];
  }
}
