import { expect, test } from "@playwright/test";

for (const locale of ["en", "fr"] as const) {
  test(`the login page looks right in ${locale}`, async ({ page, context }) => {
    await context.addCookies([{ name: "hookmail-locale", value: locale, url: "http://localhost:3210" }]);
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto("/login");
    await expect(page.getByRole("button", { name: locale === "en" ? "Log in" : "Se connecter" })).toBeVisible();
    await expect(page).toHaveScreenshot(`login-${locale}.png`, { fullPage: true });
  });
}
