import { expect, type Page, test } from "@playwright/test";
import { signUpThroughApi } from "./support/auth";
import { findLink, waitForMail } from "./support/mail-sink";
import { DEFAULT_SERVER, VERIFYING_SERVER } from "./support/servers";

const uniqueEmail = (label: string) => `${label}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`;

async function logIn(page: Page, email: string, password: string) {
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Log in", exact: true }).click();
}

test.describe("with email verification required", () => {
  test.use({ baseURL: VERIFYING_SERVER.url });

  test("register, verify through the mailed link, land on the email list, and log in again later", async ({ page }) => {
    const email = uniqueEmail("verify");
    await page.goto("/register");
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Full name").fill("Vera Verify");
    await page.getByLabel("Password").fill("correct-horse-battery");
    await page.getByRole("button", { name: "Create account" }).click();
    await expect(page).toHaveURL(/\/email-validation-required$/);
    await expect(page.getByText("Verify your email address", { exact: true })).toBeVisible();

    const mail = await waitForMail(VERIFYING_SERVER.sinkUrl, email);
    expect(mail.subject).toBe("Verify your email address for Hookmail");
    await page.goto(findLink(mail, "/api/auth/verify-email"));
    await expect(page).toHaveURL(/\/email-callbacks$/);

    // Off the signed-in page first: its background session check would otherwise send it to
    // /login on its own once the cookies are gone, racing the navigation below.
    await page.goto("about:blank");
    await page.context().clearCookies();
    await page.goto("/login");
    await logIn(page, email, "correct-horse-battery");
    await expect(page).toHaveURL(/\/email-callbacks$/);
  });

  test("logging in before verifying leads to the verification page", async ({ page }) => {
    const email = uniqueEmail("unverified");
    const response = await page.request.post("/api/auth/sign-up/email", {
      headers: { Origin: VERIFYING_SERVER.url },
      data: { email, password: "correct-horse-battery", name: "Una Verified" },
    });
    expect(response.ok()).toBe(true);
    await page.goto("/login");
    await logIn(page, email, "correct-horse-battery");
    await expect(page).toHaveURL(/\/email-validation-required$/);
  });
});

test.describe("without email verification", () => {
  test("register signs in at once and lands on the email list", async ({ page }) => {
    await page.goto("/register");
    await page.getByLabel("Email").fill(uniqueEmail("direct"));
    await page.getByLabel("Full name").fill("Dana Direct");
    await page.getByLabel("Password").fill("correct-horse-battery");
    await page.getByRole("button", { name: "Create account" }).click();
    await expect(page).toHaveURL(/\/email-callbacks$/);
  });

  test("a wrong password shows the server's message", async ({ page }) => {
    const { email } = await signUpThroughApi(page.request);
    await page.context().clearCookies();
    await page.goto("/login");
    await logIn(page, email, "not-the-password");
    await expect(page.getByText("Invalid email or password")).toBeVisible();
    await expect(page).toHaveURL(/\/login$/);
  });

  test("password reset end to end: mail, new password, log in with it", async ({ page }) => {
    const { email } = await signUpThroughApi(page.request);
    await page.context().clearCookies();
    await page.goto("/login");
    await page.getByRole("link", { name: "Forgot password?" }).click();
    await expect(page).toHaveURL(/\/request-password-reset$/);
    await page.getByLabel("Email").fill(email);
    await page.getByRole("button", { name: "Send reset link" }).click();
    await expect(
      page.getByText("If an account exists for this email, we've sent you an email to reset your password."),
    ).toBeVisible();

    const mail = await waitForMail(DEFAULT_SERVER.sinkUrl, email);
    expect(mail.subject).toBe("Reset your Hookmail password");
    await page.goto(findLink(mail, "/api/auth/reset-password/"));
    await expect(page).toHaveURL(/\/reset-password\?token=/);
    await page.getByLabel("New password").fill("a-brand-new-secret");
    await page.getByRole("button", { name: "Reset password" }).click();
    await expect(page.getByText("Your password has been reset.")).toBeVisible();
    await page.getByRole("link", { name: "Go to login" }).click();

    await logIn(page, email, "correct-horse-battery");
    await expect(page.getByText("Invalid email or password")).toBeVisible();
    await logIn(page, email, "a-brand-new-secret");
    await expect(page).toHaveURL(/\/email-callbacks$/);
  });

  test("the reset confirmation offers to open the user's mail provider", async ({ page }) => {
    await page.goto("/request-password-reset");
    await page.getByLabel("Email").fill("someone.unknown@gmail.com");
    await page.getByRole("button", { name: "Send reset link" }).click();
    await expect(page.getByRole("link", { name: "Open Gmail" })).toHaveAttribute("href", /mail\.google\.com/);
    await page.getByRole("link", { name: "Back to login" }).click();
    await expect(page).toHaveURL(/\/login$/);
  });

  test("/reset-password without a token goes to /login", async ({ page }) => {
    await page.goto("/reset-password");
    await expect(page).toHaveURL(/\/login$/);
  });

  test("settings: Update name stays disabled until the name changes, then saves it", async ({ page }) => {
    await signUpThroughApi(page.request);
    await page.goto("/settings");
    const name = page.getByLabel("Full name");
    const update = page.getByRole("button", { name: "Update name" });
    await expect(name).toHaveValue("Test User");
    await expect(update).toBeDisabled();
    await name.fill("  Test User ");
    await expect(update).toBeDisabled();
    await name.fill("Grace Hopper");
    await expect(update).toBeEnabled();
    await update.click();
    await expect(page.getByText("Your name has been updated")).toBeVisible();
    await expect(update).toBeDisabled();
    await page.reload();
    await expect(page.getByLabel("Full name")).toHaveValue("Grace Hopper");
  });

  test("one name rule everywhere: a name of 64 characters is taken at sign-up and in the settings, 65 by neither, with the same message", async ({
    page,
  }) => {
    await page.goto("/register");
    await page.getByLabel("Email").fill(`long-name-${Date.now()}@example.com`);
    await page.getByLabel("Full name").fill("n".repeat(65));
    await page.getByLabel("Password").fill("correct-horse-battery");
    await page.getByRole("button", { name: "Create account" }).click();
    await expect(page.getByText("Name must be at most 64 characters", { exact: true })).toBeVisible();
    await page.getByLabel("Full name").fill("n".repeat(64));
    await page.getByRole("button", { name: "Create account" }).click();
    await expect(page).toHaveURL(/\/email-callbacks$/);

    await page.goto("/settings");
    const name = page.getByLabel("Full name");
    await expect(name).toHaveValue("n".repeat(64));
    await name.fill("m".repeat(65));
    await page.getByRole("button", { name: "Update name" }).click();
    await expect(page.getByText("Name must be at most 64 characters", { exact: true })).toBeVisible();
    await name.fill("m".repeat(64));
    await page.getByRole("button", { name: "Update name" }).click();
    await expect(page.getByText("Your name has been updated")).toBeVisible();
    await page.reload();
    await expect(page.getByLabel("Full name")).toHaveValue("m".repeat(64));
  });

  test("a signed-out visitor on /settings goes to /login, naming /settings to come back to", async ({ page }) => {
    await page.goto("/settings");
    await expect(page).toHaveURL(/\/login\?returnTo=%2Fsettings$/);
  });
});

const VALIDATION = {
  en: {
    register: ["Please enter an email address", "Please enter a name", "Password must be at least 8 characters"],
    registerInvalid: [
      "This is not a valid email address",
      "Name must be at most 64 characters",
      "Password must be at most 128 characters",
    ],
    reset: "Password must be at least 8 characters long",
    resetTooLong: "Password must be at most 128 characters long",
    requestReset: "Please enter your email address",
    fullName: ["Please enter a name", "Name must be at most 64 characters"],
    buttons: { register: "Create account", reset: "Reset password", requestReset: "Send reset link", updateName: "Update name" },
    labels: { email: "Email", name: "Full name", password: "Password", newPassword: "New password", settingsName: "Full name" },
  },
};

test.describe("validation messages", () => {
  for (const locale of ["en", "fr"] as const) {
    test(`register, reset, request-reset and full name show the translated validation messages in ${locale}`, async ({
      page,
      context,
    }) => {
      await context.addCookies([{ name: "hookmail-locale", value: locale, url: DEFAULT_SERVER.url }]);
      const texts = locale === "en" ? VALIDATION.en : await loadFrenchTexts(page);

      await page.goto("/register");
      await page.getByRole("button", { name: texts.buttons.register }).click();
      for (const message of texts.register) await expect(page.getByText(message, { exact: true })).toBeVisible();
      await page.getByLabel(texts.labels.email).fill("not-an-email");
      await page.getByLabel(texts.labels.name).fill("n".repeat(65));
      await page.getByLabel(texts.labels.password).fill("p".repeat(129));
      await page.getByRole("button", { name: texts.buttons.register }).click();
      for (const message of texts.registerInvalid) await expect(page.getByText(message, { exact: true })).toBeVisible();

      await page.goto("/request-password-reset");
      await page.getByRole("button", { name: texts.buttons.requestReset }).click();
      await expect(page.getByText(texts.requestReset, { exact: true })).toBeVisible();

      await page.goto("/reset-password?token=some-token");
      await page.getByLabel(texts.labels.newPassword).fill("short");
      await page.getByRole("button", { name: texts.buttons.reset }).click();
      await expect(page.getByText(texts.reset, { exact: true })).toBeVisible();
      await page.getByLabel(texts.labels.newPassword).fill("p".repeat(129));
      await page.getByRole("button", { name: texts.buttons.reset }).click();
      await expect(page.getByText(texts.resetTooLong, { exact: true })).toBeVisible();

      await signUpThroughApi(page.request);
      await page.goto("/settings");
      await page.getByLabel(texts.labels.settingsName).fill("   ");
      await page.getByRole("button", { name: texts.buttons.updateName }).click();
      await expect(page.getByText(texts.fullName[0] ?? "", { exact: true })).toBeVisible();
      await page.getByLabel(texts.labels.settingsName).fill("n".repeat(65));
      await page.getByRole("button", { name: texts.buttons.updateName }).click();
      await expect(page.getByText(texts.fullName[1] ?? "", { exact: true })).toBeVisible();
    });
  }
});

/** The French texts, read from the catalogue the app ships (so this test checks the wiring, not a copy). */
async function loadFrenchTexts(_page: Page): Promise<typeof VALIDATION.en> {
  const fr = (await import("../../messages/fr.json", { with: { type: "json" } })).default;
  return {
    register: [fr.register.validation.emailRequired, fr.accountName.validation.required, fr.register.validation.passwordTooShort],
    registerInvalid: [
      fr.register.validation.emailInvalid,
      fr.accountName.validation.tooLong,
      fr.register.validation.passwordTooLong,
    ],
    reset: fr.resetPassword.validation.passwordTooShort,
    resetTooLong: fr.resetPassword.validation.passwordTooLong,
    requestReset: fr.requestPasswordReset.validation.emailRequired,
    fullName: [fr.accountName.validation.required, fr.accountName.validation.tooLong],
    buttons: {
      register: fr.register.submit,
      reset: fr.resetPassword.submit,
      requestReset: fr.requestPasswordReset.submit,
      updateName: fr.settings.fullName.submit,
    },
    labels: {
      email: fr.register.email,
      name: fr.register.name,
      password: fr.register.password,
      newPassword: fr.resetPassword.newPassword,
      settingsName: fr.settings.fullName.title,
    },
  };
}

test("with password reset disabled, both reset pages send the visitor to /login", async ({ page }) => {
  await page.route("**/api/config", async (route) => {
    const response = await route.fetch();
    const config = await response.json();
    await route.fulfill({ response, json: { ...config, auth: { ...config.auth, isPasswordResetEnabled: false } } });
  });
  for (const path of ["/request-password-reset", "/reset-password?token=some-token"]) {
    await page.goto(path);
    await expect(page).toHaveURL(/\/login$/);
  }
  await expect(page.getByRole("link", { name: "Forgot password?" })).toBeHidden();
});
