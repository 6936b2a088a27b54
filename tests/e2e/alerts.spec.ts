// The delivery alerts card of the account settings (docs/webhooks.md: Delivery alerts): it shows the
// account's setting, saves a change at once, and the API answers the new value.
import { expect, test } from "@playwright/test";
import fr from "../../messages/fr.json" with { type: "json" };
import { signUpThroughApi } from "./support/auth";

const SHOTS_DIR = "/tmp/alerts-shots";

test("settings: delivery alerts are on by default, and the checkbox turns them off and on again", async ({ page }) => {
  await signUpThroughApi(page.request);
  await page.goto("/settings");
  const checkbox = page.getByRole("checkbox", { name: "Email me about failing deliveries" });
  await expect(checkbox).toBeChecked();
  await page.screenshot({ path: `${SHOTS_DIR}/settings-en.png`, fullPage: true });

  await checkbox.click();
  await expect(page.getByText("Delivery alerts are off")).toBeVisible();
  await expect(checkbox).not.toBeChecked();
  expect((await (await page.request.get("/api/users/me")).json()).user.deliveryAlerts).toBe(false);

  await page.reload();
  await expect(checkbox).not.toBeChecked();
  await checkbox.click();
  await expect(page.getByText("Delivery alerts are on")).toBeVisible();
  expect((await (await page.request.get("/api/users/me")).json()).user.deliveryAlerts).toBe(true);
});

test("settings: the delivery alerts card speaks French", async ({ page, context }) => {
  await signUpThroughApi(page.request);
  await page.goto("/settings");
  await context.addCookies([{ name: "hookmail-locale", value: "fr", url: page.url() }]);
  await page.reload();
  await expect(page.getByText(fr.settings.deliveryAlerts.title, { exact: true })).toBeVisible();
  const checkbox = page.getByRole("checkbox", { name: fr.settings.deliveryAlerts.label });
  await expect(checkbox).toBeChecked();
  await checkbox.click();
  await expect(page.getByText(fr.settings.deliveryAlerts.disabled)).toBeVisible();
  await page.screenshot({ path: `${SHOTS_DIR}/settings-fr.png`, fullPage: true });
});
