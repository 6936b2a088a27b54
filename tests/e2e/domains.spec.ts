// The Domains page in both languages: reached from the account menu, a domain added, shown pending
// with its two records, "where would this address go?" answering that its domain is not verified,
// and the domain deleted. Screenshots of the page with a pending domain, at a desktop width and a
// phone's, go to the test's output folder (test-results/) to be looked at. Then a verified domain
// (an IDN) offered by the address form, a catch-all made on it, and its inbox showing each mail's
// recipient, with screenshots of the form and the inbox.
import { randomBytes } from "node:crypto";
import { type BrowserContext, expect, type Page, test } from "@playwright/test";
import { addVerifiedDomainThroughApi, seedProcessings } from "./support/api";
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

const FORM_TEXTS = {
  en: {
    newEmail: "New email",
    domain: "Domain",
    username: "Username",
    webhookUrl: "Webhook URL",
    create: "Create email",
    ownGroup: "Your domains",
    operatorGroup: "Service domains",
    help: "alone takes every address of",
    refused: "Patterns and catch-alls exist only on your own domains",
    ready: "Your email is ready",
    to: "To",
  },
  fr: {
    newEmail: "Nouvelle adresse",
    domain: "Domaine",
    username: "Nom d'utilisateur",
    webhookUrl: "URL du webhook",
    create: "Créer l'adresse",
    ownGroup: "Vos domaines",
    operatorGroup: "Domaines du service",
    help: "seul reçoit toutes les adresses de",
    refused: "Les motifs et les adresses fourre-tout n'existent que sur vos propres domaines",
    ready: "Votre adresse est prête",
    to: "À",
  },
} as const;

for (const locale of ["en", "fr"] as const) {
  test(`a verified domain in the address form, a catch-all on it, its inbox showing each recipient, in ${locale}`, async ({
    page,
    context,
  }, testInfo) => {
    const texts = FORM_TEXTS[locale];
    await useLocale(context, locale);
    await signUpThroughApi(page.request);
    // Typed as a user types an IDN; the API holds its A-labels, the pages show it as typed.
    const name = `bücher-${randomBytes(3).toString("hex")}.example`;
    await addVerifiedDomainThroughApi(page.request, name);
    const aLabelName = new URL(`http://${name}`).hostname;
    expect(aLabelName).toMatch(/^xn--/);

    await page.goto("/email-callbacks/create");
    await expect(page.getByRole("heading", { level: 1, name: texts.newEmail })).toBeVisible();
    const select = page.getByRole("combobox", { name: texts.domain });
    // The browser's select: its groups are <optgroup>s, which the accessibility tree does not nest.
    await expect(select.locator(`optgroup[label="${texts.ownGroup}"] > option`, { hasText: name })).toHaveCount(1);
    await expect(select.locator(`optgroup[label="${texts.operatorGroup}"] > option`, { hasText: "hookmail.test" })).toHaveCount(
      1,
    );

    // `*` on the service's domain: refused in the API's words, before anything is sent.
    await page.getByLabel(texts.username, { exact: true }).fill("*");
    await page.getByLabel(texts.webhookUrl).fill("https://hooks.example.com/incoming");
    await page.getByRole("button", { name: texts.create }).click();
    await expect(page.getByText(texts.refused)).toBeVisible();

    await select.selectOption(aLabelName);
    await expect(page.getByText(texts.refused)).toHaveCount(0);
    await expect(page.getByText(new RegExp(`${texts.help} ${name.replace(".", "\\.")}`))).toBeVisible();
    await saveScreenshot(page, testInfo.outputPath(`address-form-own-domain-${locale}-desktop.png`));
    await page.setViewportSize({ width: 390, height: 844 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await saveScreenshot(page, testInfo.outputPath(`address-form-own-domain-${locale}-phone.png`));
    await page.setViewportSize({ width: 1280, height: 720 });

    await page.getByRole("button", { name: texts.create }).click();
    await expect(page.getByText(texts.ready)).toBeVisible();
    const listed = await page.request.get(`${DEFAULT_SERVER.url}/api/email-callbacks`);
    const { emailCallbacks } = (await listed.json()) as { emailCallbacks: { id: string; username: string; domain: string }[] };
    expect(emailCallbacks.map(({ username, domain }) => ({ username, domain }))).toEqual([{ username: "*", domain: aLabelName }]);
    const catchAllId = emailCallbacks[0]!.id;

    await seedProcessings(catchAllId, 3, { recipients: [`orders-42@${aLabelName}`, `Hello+news@${aLabelName}`] });
    await page.goto(`/email-callbacks/${catchAllId}/inbox`);
    await expect(page.getByRole("heading", { level: 1, name: `*@${name}` })).toBeVisible();
    const table = page.getByRole("table");
    await expect(table.getByRole("columnheader", { name: texts.to, exact: true })).toBeVisible();
    await expect(table.getByRole("cell", { name: `orders-42@${name}` })).toHaveCount(2);
    await expect(table.getByRole("cell", { name: `Hello+news@${name}` })).toHaveCount(1);
    await saveScreenshot(page, testInfo.outputPath(`catch-all-inbox-${locale}-desktop.png`));
    await page.setViewportSize({ width: 390, height: 844 });
    await expect(page.getByRole("listitem").filter({ hasText: `orders-42@${name}` })).toHaveCount(2);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await saveScreenshot(page, testInfo.outputPath(`catch-all-inbox-${locale}-phone.png`));

    // The mail's page says which address it was sent to.
    await page.getByRole("listitem").getByRole("link", { name: "Seeded message 1" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Seeded message 1" })).toBeVisible();
    await expect(page.getByRole("term").filter({ hasText: new RegExp(`^${texts.to}$`) })).toBeVisible();
    await expect(page.getByRole("definition").filter({ hasText: `orders-42@${name}` })).toBeVisible();
  });
}
