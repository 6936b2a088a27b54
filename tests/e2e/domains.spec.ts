// The Domains page in both languages: reached from the account menu, a domain added, shown pending
// with its two records, "where would this address go?" answering that its domain is not verified,
// and the domain deleted. Screenshots of the page with a pending domain, at a desktop width and a
// phone's, go to the test's output folder (test-results/) to be looked at.
import { randomBytes } from "node:crypto";
import { type BrowserContext, expect, type Page, test } from "@playwright/test";
import { signUpThroughApi } from "./support/auth";
import { DEFAULT_SERVER } from "./support/servers";

test.use({ permissions: ["clipboard-read", "clipboard-write"] });

const TEXTS = {
  en: {
    accountMenu: "Account menu",
    domains: "Domains",
    emptyTitle: "No domains yet",
    nameLabel: "Domain name",
    add: "Add domain",
    pending: "Pending",
    copyTxtValue: "Copy the value of the TXT record",
    routeLabel: "Address",
    check: "Check",
    unverified: (recipient: string) =>
      `Mail to ${recipient} is refused: its domain is not verified yet. Set its DNS records and verify it.`,
    deleteLabel: (name: string) => `Delete domain ${name}`,
    confirmDelete: "Delete domain",
    deleted: "Domain deleted successfully",
  },
  fr: {
    accountMenu: "Menu du compte",
    domains: "Domaines",
    emptyTitle: "Aucun domaine pour le moment",
    nameLabel: "Nom de domaine",
    add: "Ajouter le domaine",
    pending: "En attente",
    copyTxtValue: "Copier la valeur de l'enregistrement TXT",
    routeLabel: "Adresse",
    check: "Vérifier",
    unverified: (recipient: string) =>
      `Les e-mails envoyés à ${recipient} sont refusés : ce domaine n'est pas encore vérifié. Créez ses enregistrements DNS et vérifiez-le.`,
    deleteLabel: (name: string) => `Supprimer le domaine ${name}`,
    confirmDelete: "Supprimer le domaine",
    deleted: "Domaine supprimé avec succès",
  },
} as const;

async function useLocale(context: BrowserContext, locale: "en" | "fr") {
  await context.addCookies([{ name: "hookmail-locale", value: locale, url: DEFAULT_SERVER.url }]);
}

/** The whole page from its top, for a person to look at (not compared: the token and the times change). */
async function saveScreenshot(page: Page, path: string) {
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path, fullPage: true, animations: "disabled" });
}

for (const locale of ["en", "fr"] as const) {
  test(`a domain from adding to deleting, pending with its records, in ${locale}`, async ({ page, context }, testInfo) => {
    // It waits for the "added" toast to close (up to 15 s): more than the default 30 s in all.
    test.setTimeout(60_000);
    const texts = TEXTS[locale];
    await useLocale(context, locale);
    await signUpThroughApi(page.request);
    await page.goto("/email-callbacks");
    await page.getByRole("button", { name: texts.accountMenu }).click();
    await page.getByRole("menuitem", { name: texts.domains }).click();
    await expect(page).toHaveURL(/\/domains$/);
    await expect(page.getByRole("heading", { level: 1, name: texts.domains })).toBeVisible();
    await expect(page.getByRole("heading", { name: texts.emptyTitle })).toBeVisible();

    // Typed with capitals: it is stored and shown as DNS writes it.
    const name = `shop-${randomBytes(3).toString("hex")}.example.org`;
    await page.getByLabel(texts.nameLabel).fill(name.replace("shop", "Shop"));
    await page.getByRole("button", { name: texts.add }).click();
    const card = page.getByRole("region", { name });
    await expect(card).toBeVisible();
    await expect(card.getByText(texts.pending, { exact: true })).toBeVisible();
    await expect(card.getByText(`_hookmail.${name}`, { exact: true })).toBeVisible();
    const txtValue = card.getByText(/^hookmail-verification=[A-Za-z0-9]{32}$/);
    await expect(txtValue).toBeVisible();
    await expect(card.getByRole("row", { name: /MX/ }).getByRole("cell", { name: "10", exact: true })).toBeVisible();
    await expect(card.getByText("localhost", { exact: true })).toBeVisible();
    await card.getByRole("button", { name: texts.copyTxtValue }).click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(await txtValue.textContent());

    const recipient = `orders+eu@${name}`;
    await page.getByLabel(texts.routeLabel, { exact: true }).fill(recipient);
    await page.getByRole("button", { name: texts.check, exact: true }).click();
    await expect(page.getByText(texts.unverified(recipient))).toBeVisible();

    // The "added" toast closes by itself: the screenshots show the page alone.
    await expect(page.locator("[data-sonner-toast]")).toHaveCount(0, { timeout: 15_000 });
    await saveScreenshot(page, testInfo.outputPath(`domains-pending-${locale}-desktop.png`));
    await page.setViewportSize({ width: 390, height: 844 });
    await expect(card).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await saveScreenshot(page, testInfo.outputPath(`domains-pending-${locale}-phone.png`));

    await card.getByRole("button", { name: texts.deleteLabel(name) }).click();
    await page.getByRole("alertdialog").getByRole("button", { name: texts.confirmDelete }).click();
    await expect(page.getByText(texts.deleted)).toBeVisible();
    await expect(page.getByRole("heading", { name: texts.emptyTitle })).toBeVisible();
    const listed = await page.request.get(`${DEFAULT_SERVER.url}/api/domains`);
    expect(((await listed.json()) as { domains: unknown[] }).domains).toEqual([]);
  });
}
