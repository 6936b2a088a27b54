// Every public page in both languages, against committed baselines (look at them when they change).
import path from "node:path";
import { type BrowserContext, expect, type Page, test } from "@playwright/test";
import { signUpThroughApi } from "./support/auth";
import { publishDnsRecords, removeDnsRecords } from "./support/dns";
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

// A verified domain, then the same one failing once its records are gone (docs/domains.md), on a
// desktop in en and a phone in fr. The token changes (masked), and so does the time of the last check
// (a blank box of a fixed width: support/fixed-times.css).
const DOMAIN_STATE_VIEWS = [
  { locale: "en", name: "shop.example", viewport: { width: 1280, height: 800 }, suffix: "en" },
  { locale: "fr", name: "boutique.example", viewport: { width: 390, height: 844 }, suffix: "phone-fr" },
] as const;

for (const { locale, name, viewport, suffix } of DOMAIN_STATE_VIEWS) {
  test(`a verified domain, then failing, looks right (${suffix})`, async ({ page, context }) => {
    test.setTimeout(120_000);
    const isEnglish = locale === "en";
    await viewIn({ page, context }, locale, viewport);
    await signUpThroughApi(page.request);
    const added = await page.request.post(`${DEFAULT_SERVER.url}/api/domains`, {
      headers: { Origin: DEFAULT_SERVER.url },
      data: { name },
    });
    const { domain } = (await added.json()) as { domain: { records: { type: string; name: string; value: string }[] } };
    const token = domain.records.find((record) => record.type === "TXT")?.value ?? "";
    await publishDnsRecords(`_hookmail.${name}`, { TXT: [token] });
    await publishDnsRecords(name, { MX: [{ exchange: "localhost", priority: 10 }] });
    await page.goto("/domains");
    await expect(page.getByRole("button", { name: isEnglish ? "Upgrade to pro" : "Passer à pro" })).toBeVisible();
    const card = page.getByRole("region", { name });
    const mask = [card.getByText(token, { exact: true })];
    const stylePath = path.join(test.info().project.testDir, "support/fixed-times.css");
    const toasts = page.locator("[data-sonner-toast]");

    await card.getByRole("button", { name: isEnglish ? "Verify now" : "Vérifier maintenant" }).click();
    await expect(card.getByText(isEnglish ? "Verified" : "Vérifié", { exact: true })).toBeVisible();
    // The check's toast shows after its badge: seen, then gone.
    await expect(toasts).toHaveCount(1);
    await expect(toasts).toHaveCount(0, { timeout: 15_000 });
    await page.mouse.move(0, 0);
    await expect(page).toHaveScreenshot(`domain-verified-${suffix}.png`, { fullPage: true, mask, stylePath });

    await removeDnsRecords(`_hookmail.${name}`);
    await removeDnsRecords(name);
    await card.getByRole("button", { name: isEnglish ? "Verify now" : "Vérifier maintenant" }).click();
    await expect(card.getByText(isEnglish ? "Failing" : "En échec", { exact: true })).toBeVisible();
    // The check's toast shows after its badge: seen, then gone.
    await expect(toasts).toHaveCount(1);
    await expect(toasts).toHaveCount(0, { timeout: 15_000 });
    await page.mouse.move(0, 0);
    await expect(page).toHaveScreenshot(`domain-failing-${suffix}.png`, { fullPage: true, mask, stylePath });
  });
}
