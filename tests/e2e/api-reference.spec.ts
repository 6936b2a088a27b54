// The API reference page (README: REST API): opened from the account menu, it lists the calls of the
// public OpenAPI document by tag, in the user's language. Screenshots go to /tmp/api-ref-shots/ to be
// looked at, not compared.
import { type BrowserContext, expect, type Page, test } from "@playwright/test";
import { signUpThroughApi } from "./support/auth";
import { DEFAULT_SERVER } from "./support/servers";

const SHOTS_DIR = "/tmp/api-ref-shots";

async function openFromAccountMenu(page: Page, { menu, item, locale }: { menu: string; item: string; locale: string }) {
  await page.goto("/");
  await page.getByRole("button", { name: menu }).click();
  await page.getByRole("menuitem", { name: item }).click();
  await expect(page).toHaveURL(/\/api-reference$/);
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await page.screenshot({ path: `${SHOTS_DIR}/desktop-${locale}.png` });
}

async function takeShots(page: Page, locale: string) {
  await page
    .getByRole("article", { name: /Create an address/ })
    .screenshot({ path: `${SHOTS_DIR}/desktop-${locale}-operation.png` });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: `${SHOTS_DIR}/mobile-${locale}.png` });
  await page.getByRole("article", { name: /Stream the address's events/ }).scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${SHOTS_DIR}/mobile-${locale}-events.png` });
}

async function useLocale(context: BrowserContext, page: Page, locale: "en" | "fr") {
  await context.addCookies([{ name: "hookmail-locale", value: locale, url: DEFAULT_SERVER.url }]);
  await page.setViewportSize({ width: 1280, height: 900 });
}

test("the API reference in English: opened from the account menu, calls by tag, and the public document it shows", async ({
  page,
  context,
  playwright,
}) => {
  await useLocale(context, page, "en");
  await signUpThroughApi(page.request);
  await openFromAccountMenu(page, { menu: "Account menu", item: "API reference", locale: "en" });
  await expect(page).toHaveTitle(/^API reference · Hookmail$/);
  await expect(page.getByRole("heading", { name: "API reference", level: 1 })).toBeVisible();
  for (const tag of ["Authentication", "Addresses", "Inbox", "API keys"]) {
    await expect(page.getByRole("heading", { name: tag, level: 2 })).toBeVisible();
  }
  await expect(page.getByText('{"error": {"code", "message"}}', { exact: true })).toBeVisible();

  const create = page.getByRole("article", { name: "Create an address" });
  await expect(create.getByText("/api/email-callbacks", { exact: true })).toBeVisible();
  await expect(create.getByText("API key or session")).toBeVisible();
  const body = create.getByRole("definition").filter({ hasText: '"inline" | "url"' });
  await expect(body.first()).toBeVisible();
  await expect(create.getByText("email_callback.already_exists")).toBeVisible();
  await create.getByText("Show the JSON Schema").first().click();
  await expect(create.locator("pre").first()).toContainText('"webhookUrl"');

  const inbox = page.getByRole("article", { name: "List the inbox" });
  await expect(inbox.getByLabel("Parameters of “List the inbox”")).toContainText("in the query");
  await expect(page.getByRole("article", { name: "List your API keys" }).getByText("Session only")).toBeVisible();
  await expect(page.getByRole("article", { name: "Stream the address's events" })).toContainText("text/event-stream");

  await expect(page.getByRole("link", { name: "OpenAPI document" })).toHaveAttribute("href", "/api/openapi.json");
  const anonymous = await playwright.request.newContext({ baseURL: DEFAULT_SERVER.url });
  const response = await anonymous.get("/api/openapi.json");
  expect(response.status()).toBe(200);
  const document = (await response.json()) as { openapi: string; paths: Record<string, unknown> };
  expect(document.openapi).toMatch(/^3\.1\./);
  expect(Object.keys(document.paths)).toContain("/api/email-callbacks/{emailCallbackId}/events");
  await anonymous.dispose();

  await takeShots(page, "en");
});

test("the API reference in French: the page's own words translated, the calls' summaries as the document gives them", async ({
  page,
  context,
}) => {
  await useLocale(context, page, "fr");
  await signUpThroughApi(page.request);
  await openFromAccountMenu(page, { menu: "Menu du compte", item: "Référence de l'API", locale: "fr" });
  await expect(page).toHaveTitle(/^Référence de l'API · Hookmail$/);
  await expect(page.getByRole("heading", { name: "Référence de l'API", level: 1 })).toBeVisible();
  for (const tag of ["Authentification", "Adresses", "Boîte de réception", "Clés d'API"]) {
    await expect(page.getByRole("heading", { name: tag, level: 2 })).toBeVisible();
  }
  const create = page.getByRole("article", { name: "Create an address" });
  await expect(create.getByText("Clé d'API ou session")).toBeVisible();
  await expect(create.getByText("Corps de la requête", { exact: true })).toBeVisible();
  await expect(create.getByText("Erreurs", { exact: true })).toBeVisible();
  await expect(page.getByRole("article", { name: "List your API keys" }).getByText("Session uniquement")).toBeVisible();
  await takeShots(page, "fr");
});
