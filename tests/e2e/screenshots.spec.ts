// Every public page in both languages, against committed baselines (look at them when they change).
import { type BrowserContext, expect, type Page, test } from "@playwright/test";
import { signUpThroughApi } from "./support/auth";
import { DEFAULT_SERVER } from "./support/servers";

const PAGES = [
  { name: "login", path: "/login" },
  { name: "register", path: "/register" },
  { name: "request-password-reset", path: "/request-password-reset" },
  { name: "reset-password", path: "/reset-password?token=example" },
  { name: "email-validation-required", path: "/email-validation-required" },
] as const;

/** The page in `locale`, at a desktop width or a phone's. */
async function viewIn(
  { page, context }: { page: Page; context: BrowserContext },
  locale: "en" | "fr",
  viewport = { width: 1280, height: 800 },
) {
  await context.addCookies([{ name: "hookmail-locale", value: locale, url: DEFAULT_SERVER.url }]);
  await page.setViewportSize(viewport);
}

for (const locale of ["en", "fr"] as const) {
  for (const { name, path } of PAGES) {
    test(`the ${name} page looks right in ${locale}`, async ({ page, context }) => {
      await viewIn({ page, context }, locale);
      await page.goto(path);
      await expect(page.locator("html")).toHaveAttribute("lang", locale);
      await expect(page.getByRole("heading").or(page.locator("[data-slot=card-title]")).first()).toBeVisible();
      await expect(page).toHaveScreenshot(`${name}-${locale}.png`, { fullPage: true });
    });
  }
}

const DASHBOARD_PAGES = [
  { name: "email-list-empty", path: "/email-callbacks" },
  { name: "new-email", path: "/email-callbacks/create" },
  { name: "api-keys-empty", path: "/api-keys" },
  { name: "new-api-key", path: "/api-keys/create" },
  { name: "webhook-format", path: "/webhooks" },
] as const;

for (const locale of ["en", "fr"] as const) {
  test(`the signed-in pages of a new account look right in ${locale}`, async ({ page, context }) => {
    await viewIn({ page, context }, locale);
    await signUpThroughApi(page.request);
    for (const { name, path } of DASHBOARD_PAGES) {
      await page.goto(path);
      await expect(page.getByRole("heading").first()).toBeVisible();
      // The default test server has billing: the top bar settles once the Upgrade button shows.
      await expect(page.getByRole("button", { name: locale === "en" ? "Upgrade to pro" : "Passer à pro" })).toBeVisible();
      await expect(page).toHaveScreenshot(`${name}-${locale}.png`, { fullPage: true });
    }
  });
}

for (const locale of ["en", "fr"] as const) {
  test(`the new email form with its Advanced options open fits a phone in ${locale}`, async ({ page, context }) => {
    await viewIn({ page, context }, locale, { width: 390, height: 844 });
    await signUpThroughApi(page.request);
    await page.goto("/email-callbacks/create");
    await page.getByText(locale === "en" ? "Advanced" : "Avancé", { exact: true }).click();
    await expect(page.getByRole("radio").first()).toBeVisible();
    await expect(page.getByRole("button", { name: locale === "en" ? "Upgrade to pro" : "Passer à pro" })).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await expect(page).toHaveScreenshot(`new-email-advanced-phone-${locale}.png`, { fullPage: true });
  });
}
