// The pages of one address, as a user reads them: the tab that is current, the inbox's columns and
// their names while a long inbox scrolls, a mail's count of attempts, the created address's fields,
// and the Settings form's place on the page.
import { expect, test } from "@playwright/test";
import { createEmailCallbackThroughApi, seedProcessings } from "./support/api";
import { signUpThroughApi } from "./support/auth";

test("on a mail's page, the address's Inbox tab is the current one", async ({ page }) => {
  await signUpThroughApi(page.request);
  const callback = await createEmailCallbackThroughApi(page.request, `tab-${Date.now()}`);
  await seedProcessings(callback.id, 1);
  await page.goto(`/email-callbacks/${callback.id}/inbox`);
  await page.getByRole("link", { name: "Seeded message 1" }).click();
  await expect(page.getByRole("heading", { name: "Seeded message 1" })).toBeVisible();
  const tabs = page.getByRole("navigation", { name: "Email sections" });
  await expect(tabs.getByRole("link", { name: "Inbox" })).toHaveAttribute("aria-current", "page");
  await expect(tabs.getByRole("link", { name: "Settings" })).not.toHaveAttribute("aria-current", "page");
});
