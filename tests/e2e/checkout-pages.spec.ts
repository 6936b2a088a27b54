// The pages Stripe sends a buyer back to: for signed-in users of an instance with billing only.
import { expect, test } from "@playwright/test";
import { findLink, waitForMail } from "./support/mail-sink";
import { VERIFYING_SERVER } from "./support/servers";

test("with billing on, a signed-out visitor of the checkout pages is sent to log in, naming the page to come back to", async ({
  page,
}) => {
  for (const path of ["/checkout-success?sessionId=cs_test_1", "/checkout-cancel"]) {
    await page.goto(path);
    await expect(page).toHaveURL(`/login?returnTo=${encodeURIComponent(path)}`);
    await expect(page.getByRole("button", { name: "Log in", exact: true })).toBeVisible();
  }
});

test.describe("on an instance without billing", () => {
  test.use({ baseURL: VERIFYING_SERVER.url });

  test("the checkout pages answer 404, titled as not found, to a visitor signed out or in", async ({ page }) => {
    for (const path of ["/checkout-success?sessionId=cs_test_1", "/checkout-cancel"]) {
      expect((await page.goto(path))?.status(), path).toBe(404);
      await expect(page).toHaveURL(path);
    }
    // The verifying server has no billing; a verified account signs in through its link.
    const email = `checkout-${Date.now()}@example.com`;
    const signUp = await page.request.post(`${VERIFYING_SERVER.url}/api/auth/sign-up/email`, {
      headers: { Origin: VERIFYING_SERVER.url },
      data: { email, password: "correct-horse-battery", name: "Cora Checkout" },
    });
    expect(signUp.ok()).toBe(true);
    await page.goto(findLink(await waitForMail(VERIFYING_SERVER.sinkUrl, email), "/api/auth/verify-email"));
    await expect(page).toHaveURL(/\/email-callbacks$/);

    for (const path of ["/checkout-success?sessionId=cs_test_1", "/checkout-cancel"]) {
      const response = await page.goto(path);
      expect(response?.status(), path).toBe(404);
      await expect(page.getByRole("heading", { name: "Not Found" })).toBeVisible();
      await expect(page).toHaveTitle("Page not found · Hookmail");
      // No redirect home after a while, as the checkout pages do.
      await page.waitForTimeout(2_500);
      await expect(page).toHaveURL(path);
    }
  });
});
