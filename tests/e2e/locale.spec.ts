import { expect, test } from "@playwright/test";

test.describe("interface language", () => {
  test("follows the browser's language when nothing is stored", async ({ browser }) => {
    const french = await browser.newContext({ locale: "fr-FR" });
    const page = await french.newPage();
    await page.goto("/login");
    await expect(page.getByText("Connexion à Hookmail")).toBeVisible();
    await expect(page.locator("html")).toHaveAttribute("lang", "fr");
    await french.close();
  });

  test("falls back to English for a language we do not offer", async ({ browser }) => {
    const german = await browser.newContext({ locale: "de-DE" });
    const page = await german.newPage();
    await page.goto("/login");
    await expect(page.getByText("Log in to Hookmail")).toBeVisible();
    await german.close();
  });

  test("switching to French changes the texts, and the choice survives a reload", async ({ page }) => {
    await page.goto("/login");
    await expect(page.getByRole("button", { name: "Log in" })).toBeVisible();

    await page.getByRole("button", { name: "Language" }).click();
    await page.getByRole("menuitemradio", { name: /Français/ }).click();

    await expect(page.getByRole("button", { name: "Se connecter" })).toBeVisible();
    await expect(page.getByLabel("Mot de passe")).toBeVisible();
    await page.reload();
    await expect(page.getByRole("button", { name: "Se connecter" })).toBeVisible();

    await page.getByRole("button", { name: "Langue" }).click();
    await expect(page.getByRole("menuitemradio", { name: /English \(Anglais\)/ })).toBeVisible();
    await page.getByRole("menuitemradio", { name: /English/ }).click();
    await expect(page.getByRole("button", { name: "Log in" })).toBeVisible();
  });

  test("shows the login validation messages in the current language", async ({ page, context }) => {
    await page.goto("/login");
    await page.getByRole("button", { name: "Log in" }).click();
    await expect(page.getByText("Please enter your email address")).toBeVisible();
    await expect(page.getByText("Please enter your password")).toBeVisible();

    await context.addCookies([{ name: "hookmail-locale", value: "fr", url: page.url() }]);
    await page.reload();
    await page.getByLabel("E-mail").fill("not-an-address");
    await page.getByRole("button", { name: "Se connecter" }).click();
    await expect(page.getByText("Cette adresse e-mail n'est pas valide")).toBeVisible();
  });
});
