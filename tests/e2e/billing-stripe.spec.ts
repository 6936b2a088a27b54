// Billing against the default test server's fake Stripe: the real routes, the real stripe SDK,
// a checkout page that pays and sends the signed webhook events back to the app.
import { expect, test } from "@playwright/test";
import { createEmailCallbackThroughApi } from "./support/api";
import { signUpThroughApi } from "./support/auth";

test("a free user upgrades: checkout in a new tab, payment, webhook, pro plan, 11th address allowed", async ({
  page,
  context,
}) => {
  await signUpThroughApi(page.request);
  for (let index = 0; index < 10; index += 1) await createEmailCallbackThroughApi(page.request, `stripe-${Date.now()}-${index}`);
  await page.goto("/email-callbacks");

  // At the limit the list's notice offers the upgrade too: this journey starts from the top bar's.
  await page.getByRole("banner").getByRole("button", { name: "Upgrade to pro" }).click();
  const dialog = page.getByRole("dialog");
  await expect(dialog.getByRole("heading", { name: "Upgrade to pro" })).toBeVisible();
  await expect(dialog.getByRole("row", { name: /Max emails/ })).toContainText("100");
  const [checkout] = await Promise.all([
    context.waitForEvent("page"),
    dialog.getByRole("button", { name: "Upgrade now" }).click(),
  ]);
  await checkout.waitForLoadState();
  await expect(checkout.getByText("Fake Stripe Checkout")).toBeVisible();

  await checkout.getByRole("button", { name: "Pay" }).click();
  await expect(checkout).toHaveURL(/\/checkout-success\?sessionId=cs_/);
  await expect(checkout.getByText("Payment successful")).toBeVisible();
  await expect(checkout).toHaveURL(/\/email-callbacks$/, { timeout: 10_000 });
  await expect(checkout.getByRole("button", { name: "Upgrade to pro" })).toHaveCount(0);

  const eleventh = await createEmailCallbackThroughApi(page.request, `stripe-${Date.now()}-eleven`);
  expect(eleventh.id).toMatch(/^ecb_/);
});
