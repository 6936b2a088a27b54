// Browser journeys of plans, checkout, the billing portal and product analytics.
// The payments API is answered in the browser with page.route as the server
// contract describes it; analytics go to a loopback host the e2e server is configured with.
import { expect, type Page, test } from "@playwright/test";
import { signUpThroughApi } from "./support/auth";
import {
  ANALYTICS_HOST,
  FAKE_CHECKOUT_URL,
  FAKE_PORTAL_URL,
  ORDINARY_CHROME_USER_AGENT,
  presentAsOrdinaryBrowser,
  routeAnalyticsHost,
  routeBillingDisabled,
  routeBillingEnabled,
  routeSessionAsPro,
} from "./support/billing";
import { DEFAULT_SERVER, VERIFYING_SERVER } from "./support/servers";

/** The stand-in Stripe pages a new tab lands on. */
async function routeStripePages(page: Page) {
  await page
    .context()
    .route(/^https:\/\/(checkout|billing)\.stripe\.test\//, (route) =>
      route.fulfill({ contentType: "text/html", body: "<title>Stripe</title><h1>Stripe</h1>" }),
    );
}

test("a free user sees the Upgrade to pro button and the dialog comparing free and pro", async ({ page }) => {
  await routeBillingEnabled(page);
  await signUpThroughApi(page.request);
  await page.goto("/email-callbacks");
  await page.getByRole("button", { name: "Upgrade to pro" }).click();

  const dialog = page.getByRole("dialog", { name: "Upgrade to pro" });
  await expect(dialog).toBeVisible();
  const table = dialog.getByRole("table", { name: "Free and pro plans compared" });
  const expectRow = (label: string, free: string, pro: string) =>
    expect(table.getByRole("row", { name: label })).toHaveText(`${label}${free}${pro}`);
  await expectRow("Max emails", "10", "100");
  await expectRow("Ingestion limit", "Unlimited", "Unlimited");
  await expectRow("Invocation retention", "30 days", "90 days");
  await expectRow("Support", "Community", "Email");
  await expectRow("Price", "0 USD / month", "12 USD / month");
  await expect(dialog.getByRole("link", { name: "Sponsor the project" })).toHaveAttribute(
    "href",
    "https://github.com/sponsors/hookmail",
  );
  await expect(dialog.getByRole("link", { name: "contact us" })).toHaveAttribute("href", "mailto:hello@hookmail.dev");

  await dialog.getByRole("button", { name: "Cancel" }).click();
  await expect(dialog).toBeHidden();
});

test("checkout asks for the pro plan and opens the returned URL in a new tab", async ({ page, context }) => {
  const { checkoutRequests } = await routeBillingEnabled(page);
  await routeStripePages(page);
  await signUpThroughApi(page.request);
  await page.goto("/email-callbacks");
  await page.getByRole("button", { name: "Upgrade to pro" }).click();

  const newTab = context.waitForEvent("page");
  await page.getByRole("dialog").getByRole("button", { name: "Upgrade now" }).click();
  const checkoutTab = await newTab;
  await checkoutTab.waitForLoadState();
  expect(checkoutTab.url()).toBe(FAKE_CHECKOUT_URL);
  expect(checkoutRequests).toEqual([{ planId: "pro" }]);
  await expect(page).toHaveURL(/\/email-callbacks$/);
});

test("a pro user sees no Upgrade to pro button but can manage the subscription in a new tab", async ({ page, context }) => {
  await routeBillingEnabled(page);
  await routeSessionAsPro(page);
  await routeStripePages(page);
  await signUpThroughApi(page.request);
  await page.goto("/settings");
  await expect(page.getByRole("heading", { name: "Account settings" })).toBeVisible();
  await expect(page.getByText("Manage subscription", { exact: true }).first()).toBeVisible();
  await expect(page.getByRole("button", { name: "Upgrade to pro" })).toBeHidden();

  const newTab = context.waitForEvent("page");
  await page.getByRole("button", { name: "Manage subscription" }).click();
  const portalTab = await newTab;
  await portalTab.waitForLoadState();
  expect(portalTab.url()).toBe(FAKE_PORTAL_URL);
});

test("a portal failure shows Failed to get customer portal URL and the button is usable again after 1 s", async ({ page }) => {
  await routeBillingEnabled(page);
  await routeSessionAsPro(page);
  await page.route("**/api/payments/customer-portal", (route) =>
    route.fulfill({ status: 500, json: { error: { code: "internal.error", message: "Internal error" } } }),
  );
  await signUpThroughApi(page.request);
  await page.goto("/settings");
  const button = page.getByRole("button", { name: "Manage subscription" });
  await button.click();
  await expect(page.getByText("Failed to get customer portal URL")).toBeVisible();
  await expect(button).toBeEnabled({ timeout: 3000 });
});

test("a free user, who has no subscription, is offered no Manage subscription card", async ({ page }) => {
  await routeBillingEnabled(page);
  await signUpThroughApi(page.request);
  await page.goto("/settings");
  await expect(page.getByRole("heading", { name: "Account settings" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Upgrade to pro" })).toBeVisible();
  await expect(page.getByText("Manage subscription")).toBeHidden();
});

test("with billing not configured no billing control appears", async ({ page }) => {
  await routeBillingDisabled(page);
  await signUpThroughApi(page.request);
  const configAnswered = page.waitForResponse("**/api/payments/config");
  await page.goto("/settings");
  await configAnswered;
  await expect(page.getByRole("heading", { name: "Account settings" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Log out" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Upgrade to pro" })).toBeHidden();
  await expect(page.getByText("Manage subscription")).toBeHidden();
});

test("/checkout-success confirms a paid session, then goes home after 2 s", async ({ page }) => {
  await routeBillingEnabled(page, { isPaid: true });
  await signUpThroughApi(page.request);
  await page.goto("/checkout-success?sessionId=cs_test_paid");
  await expect(page.getByText("Payment successful")).toBeVisible();
  await expect(page.getByText("Redirecting to your dashboard...")).toBeVisible();
  await expect(page).toHaveURL(/\/email-callbacks$/, { timeout: 5000 });
});

test("/checkout-success shows the error text when the session cannot be confirmed", async ({ page }) => {
  await page.route("**/api/payments/checkout-session/*", (route) =>
    route.fulfill({ status: 404, json: { error: { code: "billing.checkout_session_not_found", message: "Not found" } } }),
  );
  await signUpThroughApi(page.request);
  await page.goto("/checkout-success?sessionId=cs_test_unknown");
  await expect(page.getByText("An error occurred, please try again later")).toBeVisible();
  await expect(page.getByRole("link", { name: "Back to dashboard" })).toHaveAttribute("href", "/");
  await page.waitForTimeout(2500);
  await expect(page).toHaveURL(/\/checkout-success\?sessionId=cs_test_unknown$/);
});

test("/checkout-success without a sessionId says so, with a button to the dashboard", async ({ page }) => {
  await signUpThroughApi(page.request);
  await page.goto("/checkout-success");
  await expect(page.getByRole("heading", { name: "No checkout session" })).toBeVisible();
  await expect(page.getByText("Payment successful")).toBeHidden();
  await expect(page.getByText("Processing payment...")).toBeHidden();
  await page.getByRole("link", { name: "Back to dashboard" }).click();
  await expect(page).toHaveURL(/\/email-callbacks$/);
});

test("/checkout-cancel says the payment was canceled, then goes home", async ({ page }) => {
  await signUpThroughApi(page.request);
  await page.goto("/checkout-cancel");
  await expect(page.getByText("Payment canceled")).toBeVisible();
  await expect(page.getByRole("link", { name: "Back to dashboard" })).toHaveAttribute("href", "/");
  await expect(page).toHaveURL(/\/email-callbacks$/, { timeout: 5000 });
});

test.describe("analytics", () => {
  test.use({ userAgent: ORDINARY_CHROME_USER_AGENT });

  test("with analytics configured the browser sends a page view per route and identifies the user", async ({ page }) => {
    const html = await (await page.request.get(`${DEFAULT_SERVER.url}/login`)).text();
    test.skip(
      !html.includes(ANALYTICS_HOST),
      `the default e2e server needs NEXT_PUBLIC_POSTHOG_KEY (any value) and NEXT_PUBLIC_POSTHOG_HOST=${ANALYTICS_HOST}`,
    );
    await presentAsOrdinaryBrowser(page);
    const { events } = await routeAnalyticsHost(page);
    const { email } = await signUpThroughApi(page.request);
    const session = (await (await page.request.get(`${DEFAULT_SERVER.url}/api/auth/get-session`)).json()) as {
      user: { id: string };
    };
    await page.goto("/email-callbacks");
    await page.getByRole("button", { name: "Account menu" }).click();
    await page.getByRole("menuitem", { name: "API keys" }).click();
    await expect(page).toHaveURL(/\/api-keys$/);

    const pageViews = () =>
      events
        .filter((event) => event.event === "$pageview")
        .map((event) => new URL(String(event.properties?.$current_url)).pathname);
    await expect.poll(pageViews, { timeout: 15_000 }).toEqual(expect.arrayContaining(["/email-callbacks", "/api-keys"]));
    await expect
      .poll(() => events.find((event) => event.event === "$identify"), { timeout: 15_000 })
      .toMatchObject({ $set: { email }, properties: { distinct_id: session.user.id } });
  });

  test("the logout event is sent and the identity reset", async ({ page }) => {
    const html = await (await page.request.get(`${DEFAULT_SERVER.url}/login`)).text();
    test.skip(!html.includes(ANALYTICS_HOST), "needs the analytics env on the e2e server");
    await presentAsOrdinaryBrowser(page);
    const { events } = await routeAnalyticsHost(page);
    await signUpThroughApi(page.request);
    await page.goto("/settings");
    await expect.poll(() => events.some((event) => event.event === "$identify"), { timeout: 15_000 }).toBe(true);
    await page.getByRole("button", { name: "Log out" }).click();
    await expect(page).toHaveURL(/\/login$/);
    await expect.poll(() => events.some((event) => event.event === "user_logged_out"), { timeout: 15_000 }).toBe(true);
    // After the reset the next page view belongs to a new anonymous identity, not the user.
    const userId = events.find((event) => event.event === "$identify")?.properties?.distinct_id;
    await expect
      .poll(() => events.filter((event) => event.event === "$pageview").at(-1)?.properties?.$current_url, { timeout: 15_000 })
      .toContain("/login");
    expect(events.filter((event) => event.event === "$pageview").at(-1)?.properties?.distinct_id).not.toBe(userId);
  });

  test("without analytics configured nothing is sent to an analytics host", async ({ page }) => {
    // The second e2e server has no NEXT_PUBLIC_POSTHOG_* variables.
    await presentAsOrdinaryBrowser(page);
    const { requests } = await routeAnalyticsHost(page);
    const outsideRequests: string[] = [];
    page.on("request", (request) => {
      const { hostname } = new URL(request.url());
      if (hostname !== "localhost" && hostname !== "127.0.0.1") outsideRequests.push(request.url());
    });
    await page.goto(`${VERIFYING_SERVER.url}/login`);
    await page.getByRole("link", { name: "Sign up" }).first().click();
    await expect(page).toHaveURL(/\/register$/);
    await page.waitForTimeout(3000);
    expect(requests.map((request) => request.url())).toEqual([]);
    expect(outsideRequests).toEqual([]);
  });
});
