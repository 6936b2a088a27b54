import { expect, type Page, test } from "@playwright/test";
import { createEmailCallbackThroughApi } from "./support/api";
import { signUpThroughApi } from "./support/auth";
import { E2E_PORT, E2E_PRIVACY_URL, E2E_TERMS_URL, VERIFYING_SERVER } from "./support/servers";

test.describe("route guards", () => {
  test("send a signed-out visitor from /email-callbacks to /login, naming the page asked for", async ({ page }) => {
    await page.goto("/email-callbacks");
    await expect(page).toHaveURL(/\/login\?returnTo=%2Femail-callbacks$/);
    await expect(page.getByRole("button", { name: "Log in" })).toBeVisible();
  });

  test("send a signed-out visitor from / to /login", async ({ page }) => {
    await page.goto("/");
    await expect(page).toHaveURL(/\/login$/);
  });

  test("send a signed-in visitor from /login to / (which leads to the email list)", async ({ page }) => {
    await signUpThroughApi(page.request);
    await page.goto("/login");
    await expect(page).toHaveURL(/\/email-callbacks$/);
  });
});

test.describe("returning after signing in (docs/security.md: Signing in)", () => {
  async function logIn(page: Page, { email, password }: { email: string; password: string }) {
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password", { exact: true }).fill(password);
    await page.getByRole("button", { name: "Log in", exact: true }).click();
  }

  test("a deep link opened signed out leads back to it, query included, once logged in", async ({ page, context }) => {
    const account = await signUpThroughApi(page.request);
    const callback = await createEmailCallbackThroughApi(page.request, `deep-${Date.now()}`);
    await context.clearCookies();
    const deepLink = `/email-callbacks/${callback.id}/inbox?status=error`;

    await page.goto(deepLink);
    await expect(page).toHaveURL(`/login?returnTo=${encodeURIComponent(deepLink)}`);
    await logIn(page, account);
    await expect(page).toHaveURL(deepLink);
    await expect(page.getByRole("heading", { name: callback.address })).toBeVisible();
  });

  test("a signed-in visitor of /login?returnTo= goes straight to that page", async ({ page }) => {
    await signUpThroughApi(page.request);
    await page.goto(`/login?returnTo=${encodeURIComponent("/api-keys?from=login")}`);
    await expect(page).toHaveURL("/api-keys?from=login");
  });

  test("logging in never leaves the site for a returnTo of another site: //host, /\\host, an absolute URL, javascript:", async ({
    page,
    context,
  }) => {
    test.setTimeout(90_000);
    const account = await signUpThroughApi(page.request);
    for (const returnTo of [
      "//evil.example/x",
      "/\\evil.example/x",
      "https://evil.example/x",
      "javascript:alert(1)",
      "/\t/evil.example",
    ]) {
      // Off the signed-in page first, so that its background session check cannot race the navigation.
      await page.goto("about:blank");
      await context.clearCookies();
      await page.goto(`/login?returnTo=${encodeURIComponent(returnTo)}`);
      await logIn(page, account);
      await expect(page, returnTo).toHaveURL(/^http:\/\/localhost:\d+\/email-callbacks$/);
    }
  });

  test("social sign-in asks the provider to come back to the deep link, and never to another site", async ({ page }) => {
    // The instance offers GitHub (the test server has no client: the config is answered here, and
    // the sign-in call is caught before it leaves the browser).
    await page.route("**/api/config", async (route) => {
      const config = await (await route.fetch()).json();
      config.auth.providers.github.isEnabled = true;
      await route.fulfill({ json: config });
    });
    const callbackUrls: string[] = [];
    await page.route("**/api/auth/sign-in/social", async (route) => {
      callbackUrls.push(route.request().postDataJSON().callbackURL);
      await route.fulfill({ json: { error: { message: "stopped by the test" } }, status: 400 });
    });
    for (const [index, returnTo] of ["/email-callbacks/ecb_1/inbox?status=error", "//evil.example"].entries()) {
      await page.goto(`/login?returnTo=${encodeURIComponent(returnTo)}`);
      await page.getByRole("button", { name: "Login with GitHub" }).click();
      await expect.poll(() => callbackUrls.length).toBe(index + 1);
    }
    expect(callbackUrls).toEqual(["/email-callbacks/ecb_1/inbox?status=error", "/"]);
  });
});

test("the legal links lead to the instance's TERMS_URL and PRIVACY_URL, and are not shown where they are unset", async ({
  page,
}) => {
  await page.goto("/login");
  await expect(page.getByRole("link", { name: "Terms of Service" })).toHaveAttribute("href", E2E_TERMS_URL);
  await expect(page.getByRole("link", { name: "Privacy Policy" })).toHaveAttribute("href", E2E_PRIVACY_URL);
  // The second test server sets neither.
  await page.goto(`${VERIFYING_SERVER.url}/register`);
  await expect(page.getByRole("button", { name: "Create account" })).toBeVisible();
  await expect(page.getByText("By continuing")).toHaveCount(0);
  await expect(page.getByRole("link", { name: /Terms|Privacy/ })).toHaveCount(0);
});

test("the 404 page has the language switch of the public pages", async ({ page }) => {
  await page.goto("/this/does/not/exist");
  await page.getByRole("button", { name: "Language" }).click();
  await page.getByRole("menuitemradio", { name: /Français/ }).click();
  await expect(page.getByRole("heading", { name: "Page introuvable" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Langue" })).toBeVisible();
});

test("an unknown route shows the 404 page, whose button leads home", async ({ page }) => {
  const response = await page.goto("/this/does/not/exist");
  expect(response?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "Not Found" })).toBeVisible();
  await page.getByRole("link", { name: "Go back to home" }).click();
  await expect(page).toHaveURL(/\/login$/);
});

test("the server-unreachable screen retries, and a second failure shows a toast", async ({ page }) => {
  await page.route("**/api/config", (route) => route.abort("connectionrefused"));
  await page.goto("/login");
  await expect(page.getByRole("heading", { name: "Server unreachable" })).toBeVisible();
  await expect(
    page.getByText(
      "The server seems to be unreachable, if you are self-hosting, make sure the server is running and properly configured.",
    ),
  ).toBeVisible();

  await page.getByRole("button", { name: "Retry" }).click();
  await expect(page.getByText("Server still unreachable")).toBeVisible();
  await expect(page.getByText("The server remains unreachable, try again later")).toBeVisible();

  await page.unroute("**/api/config");
  await page.getByRole("button", { name: "Retry" }).click();
  await expect(page.getByRole("button", { name: "Log in" })).toBeVisible();
});

test("the API answers health and config", async ({ request }) => {
  const health = await request.get("/api/health");
  expect(health.status()).toBe(200);
  expect(await health.json()).toEqual({ status: "ok", database: "up" });

  const config = await request.get("/api/config");
  expect(await config.json()).toEqual({
    auth: {
      providers: { google: { isEnabled: false }, github: { isEnabled: false } },
      showLegalLinksOnAuthPage: true,
      legalLinks: { termsUrl: E2E_TERMS_URL, privacyUrl: E2E_PRIVACY_URL },
      isEmailVerificationRequired: false,
      isRegistrationEnabled: true,
      isPasswordResetEnabled: true,
    },
    baseUrl: `http://localhost:${E2E_PORT}`,
    emailCallbacks: { availableDomains: ["hookmail.test"] },
  });
});

test("an API route of signed-in users answers 401 with the error body to a signed-out caller", async ({ request }) => {
  const response = await request.get("/api/users/me");
  expect(response.status()).toBe(401);
  expect(await response.json()).toEqual({
    error: { code: "auth.unauthorized", message: "You must be signed in to do this." },
  });
});

test.describe("authenticated layout", () => {
  test("the top bar's account menu leads to the settings and switches the language", async ({ page }) => {
    const { email } = await signUpThroughApi(page.request);
    await page.goto("/settings");
    await expect(page.getByRole("heading", { name: "Account settings" })).toBeVisible();
    await expect(page.getByRole("textbox", { name: "Email address" })).toHaveValue(email);

    await page.getByRole("button", { name: "Account menu" }).click();
    await expect(page.getByRole("menuitem", { name: "API keys" })).toBeVisible();
    await page.getByRole("menuitem", { name: "Language" }).hover();
    await expect(page.getByRole("menuitemradio", { name: "English" })).toBeVisible();
    await page.getByRole("menuitemradio", { name: "Français (French)" }).click();

    await expect(page.getByRole("heading", { name: "Paramètres du compte" })).toBeVisible();
    await page.reload();
    await expect(page.getByRole("heading", { name: "Paramètres du compte" })).toBeVisible();
    // The page has settled once the top bar offers the upgrade; a free user has no subscription to manage.
    await expect(page.getByRole("button", { name: "Passer à pro" })).toBeVisible();
    await expect(page.getByRole("button", { name: "Gérer l'abonnement" })).toHaveCount(0);
    await expect(page).toHaveScreenshot("settings-fr.png", { fullPage: true, mask: [page.getByRole("textbox")] });
  });

  test("logging out goes to /login and the private pages are closed again", async ({ page }) => {
    await signUpThroughApi(page.request);
    await page.goto("/settings");
    await page.getByRole("button", { name: "Log out" }).last().click();
    await expect(page).toHaveURL(/\/login$/);
    await page.goto("/settings");
    await expect(page).toHaveURL(/\/login\?returnTo=%2Fsettings$/);
  });
});
