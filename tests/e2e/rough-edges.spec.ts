// Rough edges a new user found walking every screen, each held by a test.
import { expect, test } from "@playwright/test";
import { createEmailCallbackThroughApi, seedProcessings } from "./support/api";
import { signUpThroughApi } from "./support/auth";
import { DEFAULT_SERVER, VERIFYING_SERVER } from "./support/servers";

test("the API key form cannot be sent with a blank or a 129-character name, and says why as it is typed", async ({ page }) => {
  await signUpThroughApi(page.request);
  await page.goto("/api-keys/create");
  const submit = page.getByRole("button", { name: "Create API key" });
  await expect(submit).toBeDisabled();
  await page.getByLabel("Name").fill("a".repeat(129));
  await expect(submit).toBeDisabled();
  await expect(page.getByText("at most 128", { exact: false })).toBeVisible();
  await page.getByLabel("Name").fill("   ");
  await expect(submit).toBeDisabled();
  await page.getByLabel("Name").fill("CI deploys");
  await expect(submit).toBeEnabled();
});

test("account settings show the email address read-only, as text one can select, not as a disabled field", async ({ page }) => {
  const { email } = await signUpThroughApi(page.request);
  await page.goto("/settings");
  const field = page.getByRole("textbox", { name: "Email address" });
  await expect(field).toHaveValue(email);
  await expect(field).toBeEnabled();
  await expect(field).not.toBeEditable();
});

test("the new email form's address label leads to the username field and turns red with its error", async ({ page }) => {
  await signUpThroughApi(page.request);
  await page.goto("/email-callbacks/create");
  await page.getByText("Email address", { exact: true }).click();
  await expect(page.getByLabel("Username", { exact: true })).toBeFocused();
  await page.getByRole("button", { name: "Create email" }).click();
  const label = page.locator("label", { hasText: "Email address" });
  await expect(label).toHaveAttribute("data-error", "true");
  await expect(label).toHaveClass(/data-\[error=true\]:text-destructive/);
});

for (const locale of ["en", "fr"] as const) {
  test(`the upgrade dialog fits a 390 px phone in ${locale}: every cell whole, a translated close button, the free plan per month`, async ({
    page,
    context,
  }) => {
    await context.addCookies([{ name: "hookmail-locale", value: locale, url: DEFAULT_SERVER.url }]);
    await signUpThroughApi(page.request);
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto("/email-callbacks");
    await page.getByRole("button", { name: locale === "en" ? "Upgrade to pro" : "Passer à pro" }).click();
    const dialog = page.getByRole("dialog");
    await expect(dialog.getByRole("table")).toBeVisible();
    await expect(dialog).toContainText(locale === "en" ? "10 emails per month" : "10 adresses par mois");
    await expect(dialog.getByRole("button", { name: locale === "en" ? "Close" : "Fermer", exact: true })).toBeVisible();
    const clipped = await dialog
      .locator("th, td")
      .evaluateAll((cells) => cells.filter((cell) => cell.scrollWidth > cell.clientWidth + 1).map((cell) => cell.textContent));
    expect(clipped).toEqual([]);
    const box = await dialog.boundingBox();
    expect(box!.x).toBeGreaterThanOrEqual(0);
    expect(box!.x + box!.width).toBeLessThanOrEqual(390);
    await expect(page).toHaveScreenshot(`upgrade-dialog-phone-${locale}.png`);
  });
}

test("with billing off, no page asks for the plans (no 404 in the console)", async ({ page }) => {
  const asked: string[] = [];
  const consoleErrors: string[] = [];
  page.on("request", (request) => {
    if (request.url().includes("/api/payments/")) asked.push(request.url());
  });
  page.on("console", (message) => {
    if (message.type() === "error") consoleErrors.push(message.text());
  });
  for (const path of ["/login", "/register", "/request-password-reset"]) {
    await page.goto(`${VERIFYING_SERVER.url}${path}`);
    await expect(page.getByRole("heading").or(page.locator("[data-slot=card-title]")).first()).toBeVisible();
  }
  await page.waitForLoadState("networkidle");
  expect(asked).toEqual([]);
  expect(consoleErrors).toEqual([]);
});

test("Esc on a dialog opened from a menu gives focus back to the menu's button", async ({ page }) => {
  await signUpThroughApi(page.request);
  const callback = await createEmailCallbackThroughApi(page.request, `focus-${Date.now()}`);
  await seedProcessings(callback.id, 1);

  await page.goto(`/email-callbacks/${callback.id}/inbox`);
  const rowMenu = page.getByRole("button", { name: "Actions for this mail" }).first();
  await rowMenu.click();
  await page.getByRole("menuitem", { name: "Delivery attempts" }).click();
  await expect(page.getByRole("dialog")).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(page.getByRole("dialog")).toBeHidden();
  await expect(rowMenu).toBeFocused();

  await page.goto("/email-callbacks");
  const cardMenu = page.getByRole("button", { name: `Actions for ${callback.address}` });
  await cardMenu.click();
  await page.getByRole("menuitem", { name: "Delete" }).click();
  await expect(page.getByRole("alertdialog")).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(page.getByRole("alertdialog")).toBeHidden();
  await expect(cardMenu).toBeFocused();
});

test("the account menu logs out; deleting an address says so; the 404 page keeps the logo and a way home", async ({ page }) => {
  await signUpThroughApi(page.request);
  const callback = await createEmailCallbackThroughApi(page.request, `bye-${Date.now()}`);
  await page.goto("/email-callbacks");
  await page.getByRole("button", { name: `Actions for ${callback.address}` }).click();
  await page.getByRole("menuitem", { name: "Delete" }).click();
  await page.getByRole("button", { name: "Delete email" }).click();
  await expect(page.getByText("Email deleted", { exact: true })).toBeVisible();

  await page.goto("/no-such-page");
  await expect(page.getByRole("link", { name: "Hookmail home" })).toBeVisible();
  await page.getByRole("link", { name: "Hookmail home" }).click();
  await expect(page).toHaveURL(/\/email-callbacks$/);

  await page.getByRole("button", { name: "Account menu" }).click();
  await page.getByRole("menuitem", { name: "Log out" }).click();
  await expect(page).toHaveURL(/\/login$/);
  await page.goto("/email-callbacks");
  await expect(page).toHaveURL(/\/login/);
});

test("a network failure says so: on enabling or disabling an address", async ({ page }) => {
  await signUpThroughApi(page.request);
  const callback = await createEmailCallbackThroughApi(page.request, `offline-${Date.now()}`);
  await page.goto("/email-callbacks");
  const menu = page.getByRole("button", { name: `Actions for ${callback.address}` });
  await expect(menu).toBeVisible();
  await menu.click();
  await expect(page.getByRole("menuitem", { name: "Disable" })).toBeVisible();

  // The network goes away for the address's update.
  await page.route(`**/api/email-callbacks/${callback.id}`, (route) =>
    route.request().method() === "PUT" ? route.abort("internetdisconnected") : route.continue(),
  );
  await page.getByRole("menuitem", { name: "Disable" }).click();
  await expect(page.getByText("Hookmail could not be reached: check your connection and try again.")).toBeVisible();
});
