// Every state of a domain on the Domains page (docs/domains.md: Verification), in en and fr: pending
// as added, pending with the last check naming the record to fix (in the page's language), verified,
// and failing once its records are gone. Each is saved at a desktop width and a phone's to the test's output folder
// (test-results/) to be looked at; the phone's page never scrolls sideways.
import { randomBytes } from "node:crypto";
import { type BrowserContext, expect, type Locator, type Page, test } from "@playwright/test";
import { signUpThroughApi } from "./support/auth";
import { publishDnsRecords, removeDnsRecords } from "./support/dns";
import { DEFAULT_SERVER } from "./support/servers";

const TEXTS = {
  en: {
    nameLabel: "Domain name",
    add: "Add domain",
    verify: "Verify now",
    pending: "Pending",
    verified: "Verified",
    failing: "Failing",
    neverChecked: "Not checked yet",
    lastCheck: "Last check:",
    wrongMx: (name: string, host: string, expected: string) => `MX ${name} points to ${host}, not ${expected}`,
    notFound: (record: string, name: string) => `${record} ${name} not found`,
  },
  fr: {
    nameLabel: "Nom de domaine",
    add: "Ajouter le domaine",
    verify: "Vérifier maintenant",
    pending: "En attente",
    verified: "Vérifié",
    failing: "En échec",
    neverChecked: "Pas encore vérifié",
    lastCheck: "Dernière vérification :",
    wrongMx: (name: string, host: string, expected: string) => `MX ${name} pointe vers ${host} et non vers ${expected}`,
    notFound: (record: string, name: string) => `${record} ${name} introuvable`,
  },
} as const;

async function useLocale(context: BrowserContext, locale: "en" | "fr") {
  await context.addCookies([{ name: "hookmail-locale", value: locale, url: DEFAULT_SERVER.url }]);
}

/** The whole page from its top at both widths, without the toasts (each state's toast is checked by the specs that verify). */
async function saveScreenshots(page: Page, card: Locator, name: string) {
  for (const { width, height, label } of [
    { width: 1280, height: 800, label: "desktop" },
    { width: 390, height: 844, label: "phone" },
  ]) {
    await page.setViewportSize({ width, height });
    await expect.poll(() => page.evaluate(() => window.innerWidth)).toBe(width);
    await expect(card).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({
      path: test.info().outputPath(`${name}-${label}.png`),
      fullPage: true,
      animations: "disabled",
      style: "[data-sonner-toaster] { display: none !important; }",
    });
  }
  await page.setViewportSize({ width: 1280, height: 800 });
}

for (const locale of ["en", "fr"] as const) {
  test(`a domain pending, pending with a check error, verified, then failing, in ${locale}`, async ({ page, context }) => {
    test.setTimeout(120_000);
    const texts = TEXTS[locale];
    await useLocale(context, locale);
    await signUpThroughApi(page.request);
    await page.goto("/domains");
    // A long name: its records must wrap, not widen the page.
    const name = `mail-${randomBytes(3).toString("hex")}.customer-notifications.example.org`;
    await page.getByLabel(texts.nameLabel).fill(name);
    await page.getByRole("button", { name: texts.add }).click();
    const card = page.getByRole("region", { name });
    const badge = (status: string) => card.getByText(status, { exact: true });
    await expect(badge(texts.pending)).toBeVisible();
    await expect(card.getByText(texts.neverChecked)).toBeVisible();
    await saveScreenshots(page, card, `domain-pending-${locale}`);

    // The right TXT, an MX elsewhere: still pending, and the last check names the MX to fix.
    const token = await card.getByText(/^hookmail-verification=[A-Za-z0-9]{32}$/).textContent();
    await publishDnsRecords(`_hookmail.${name}`, { TXT: [token ?? ""] });
    await publishDnsRecords(name, { MX: [{ exchange: "mx.other-provider.example", priority: 10 }] });
    await card.getByRole("button", { name: texts.verify }).click();
    await expect(card.getByRole("listitem")).toHaveText([texts.wrongMx(name, "mx.other-provider.example", "localhost")]);
    await expect(badge(texts.pending)).toBeVisible();
    await expect(card.getByText(texts.lastCheck)).toBeVisible();
    await saveScreenshots(page, card, `domain-check-error-${locale}`);

    await publishDnsRecords(name, { MX: [{ exchange: "localhost", priority: 10 }] });
    await card.getByRole("button", { name: texts.verify }).click();
    await expect(badge(texts.verified)).toBeVisible();
    await expect(card.getByRole("listitem")).toHaveCount(0);
    await saveScreenshots(page, card, `domain-verified-${locale}`);

    // Its records removed: the next check finds both missing, and the domain is failing.
    await removeDnsRecords(`_hookmail.${name}`);
    await removeDnsRecords(name);
    await card.getByRole("button", { name: texts.verify }).click();
    await expect(badge(texts.failing)).toBeVisible();
    // One problem a line, in the page's language.
    await expect(card.getByRole("listitem")).toHaveText([texts.notFound("TXT", `_hookmail.${name}`), texts.notFound("MX", name)]);
    await saveScreenshots(page, card, `domain-failing-${locale}`);
  });
}
