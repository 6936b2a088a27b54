// Account and billing edges: sending the verification mail again (and its per-account limit),
// verification and reset links that are invalid or already used, and coming back from checkout.
import { expect, type Page, test } from "@playwright/test";
import fr from "../../messages/fr.json" with { type: "json" };
import { signUpThroughApi } from "./support/auth";
import { findLink, waitForMail } from "./support/mail-sink";
import { DEFAULT_SERVER, VERIFYING_SERVER } from "./support/servers";

const PASSWORD = "correct-horse-battery";
const uniqueEmail = (label: string) => `${label}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`;

async function countMails(sinkUrl: string, to: string): Promise<number> {
  const response = await fetch(`${sinkUrl}/mails?to=${encodeURIComponent(to)}`);
  return ((await response.json()) as unknown[]).length;
}

/** The "send again" call as the page makes it: counted against the account (5 verification mails an hour). */
async function sendVerificationAgain(page: Page, email: string) {
  const response = await page.request.post(`${VERIFYING_SERVER.url}/api/auth/send-verification-email`, {
    headers: { Origin: VERIFYING_SERVER.url },
    data: { email, callbackURL: "/" },
  });
  expect(response.status()).toBe(200);
}

/** The page's own alert, not Next.js's route announcer (also role="alert", it reads out the new title). */
const formAlert = (page: Page) => page.locator('[role="alert"]:not(#__next-route-announcer__)').filter({ hasText: /\S/ });

async function signUpUnverified(page: Page, email: string) {
  const response = await page.request.post(`${VERIFYING_SERVER.url}/api/auth/sign-up/email`, {
    headers: { Origin: VERIFYING_SERVER.url },
    data: { email, password: PASSWORD, name: "Vera Verify" },
  });
  expect(response.ok()).toBe(true);
}

test.describe("with email verification required", () => {
  test.use({ baseURL: VERIFYING_SERVER.url });

  test("the verification page sends the mail again to the address that signed up, then says how long to wait once the account's 5 an hour are used", async ({
    page,
  }) => {
    const email = uniqueEmail("resend");
    await page.goto("/register");
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Full name").fill("Rene Resend");
    await page.getByLabel("Password").fill(PASSWORD);
    await page.getByRole("button", { name: "Create account" }).click();
    await expect(page).toHaveURL(/\/email-validation-required$/);
    await waitForMail(VERIFYING_SERVER.sinkUrl, email);
    await expect(page.getByText(`It was sent to ${email}.`)).toBeVisible();

    await page.getByRole("button", { name: "Resend verification email" }).click();
    await expect(page.getByRole("status")).toHaveText(`A new verification email is on its way to ${email}.`);
    await expect.poll(() => countMails(VERIFYING_SERVER.sinkUrl, email)).toBe(2);
    const resent = await waitForMail(VERIFYING_SERVER.sinkUrl, email);
    expect(resent.subject).toBe("Verify your email address for Hookmail");

    for (let sent = 2; sent < 5; sent += 1) await sendVerificationAgain(page, email);
    await expect.poll(() => countMails(VERIFYING_SERVER.sinkUrl, email)).toBe(5);
    await page.getByRole("button", { name: "Resend verification email" }).click();
    await expect(formAlert(page)).toHaveText(
      /^Too many verification emails were asked for this address\. Try again in (59|60) minutes\.$/,
    );
    await expect(page.getByRole("status")).toBeHidden();
    expect(await countMails(VERIFYING_SERVER.sinkUrl, email)).toBe(5);
  });

  test("a tampered verification link says it is invalid and sends a new one to a typed address; once used, the link says so and leads to log in", async ({
    page,
  }) => {
    const email = uniqueEmail("link");
    await signUpUnverified(page, email);
    const link = new URL(findLink(await waitForMail(VERIFYING_SERVER.sinkUrl, email), "/api/auth/verify-email"));

    const tampered = new URL(link);
    tampered.searchParams.set("token", `${link.searchParams.get("token")}x`);
    await page.goto(tampered.toString());
    await expect(page).toHaveURL(/\/verify-email\?(token=[^&]+&)?error=INVALID_TOKEN$/);
    await expect(page.getByText("Link invalid or expired")).toBeVisible();
    await expect(page.getByText("This verification link is invalid or has expired", { exact: false })).toBeVisible();
    await page.getByLabel("Email").fill(email);
    await page.getByRole("button", { name: "Resend verification email" }).click();
    await expect(page.getByRole("status")).toHaveText(
      `If ${email} is waiting for verification, a new verification email is on its way to it.`,
    );
    await expect.poll(() => countMails(VERIFYING_SERVER.sinkUrl, email)).toBe(2);

    await page.goto(link.toString());
    await expect(page).toHaveURL(/\/email-callbacks$/);

    // Off the signed-in page first, so that its background session check cannot race the navigation.
    await page.goto("about:blank");
    await page.context().clearCookies();
    await page.goto(link.toString());
    await expect(page).toHaveURL(/\/verify-email(\?token=[^&]+)?$/);
    await expect(page.getByText("Link already used")).toBeVisible();
    await expect(page.getByText("your email address is verified", { exact: false })).toBeVisible();
    await page.getByRole("link", { name: "Log in" }).click();
    await expect(page).toHaveURL(/\/login$/);
  });

  test("the verification page says verified only after a real verification: no token, a made-up one, or a genuine one never used says invalid or expired", async ({
    page,
  }) => {
    const email = uniqueEmail("unused");
    await signUpUnverified(page, email);
    const genuine = new URL(findLink(await waitForMail(VERIFYING_SERVER.sinkUrl, email), "/api/auth/verify-email"));
    const unusedToken = genuine.searchParams.get("token") ?? "";
    expect(unusedToken).not.toBe("");

    for (const path of ["/verify-email?token=bogus", "/verify-email", `/verify-email?token=${unusedToken}`]) {
      await page.goto(path);
      await expect(page.getByText("Link invalid or expired")).toBeVisible();
      await expect(page.getByText("This verification link is invalid or has expired", { exact: false })).toBeVisible();
      await expect(page.getByText("Link already used")).toBeHidden();
      await expect(page.getByText("your email address is verified", { exact: false })).toBeHidden();
    }
  });

  test("in French the invalid link page and the wait are translated", async ({ page, context }) => {
    await context.addCookies([{ name: "hookmail-locale", value: "fr", url: VERIFYING_SERVER.url }]);
    const email = uniqueEmail("attente");
    await signUpUnverified(page, email);
    await waitForMail(VERIFYING_SERVER.sinkUrl, email);
    for (let sent = 1; sent < 5; sent += 1) await sendVerificationAgain(page, email);

    await page.goto("/verify-email?error=TOKEN_EXPIRED");
    await expect(page).toHaveTitle(`${fr.pageTitles.verifyEmail} · Hookmail`);
    await expect(page.getByText(fr.verifyEmail.invalid.title)).toBeVisible();
    await page.getByLabel(fr.emailValidationRequired.resend.email).fill(email);
    await page.getByRole("button", { name: fr.emailValidationRequired.resend.submit }).click();
    await expect(formAlert(page)).toHaveText(
      /^Trop d'e-mails de vérification ont été demandés pour cette adresse\. Réessayez dans (59|60) minutes\.$/,
    );
    await page.getByRole("link", { name: fr.verifyEmail.invalid.backToLogin }).click();
    await expect(page).toHaveURL(/\/login$/);
  });
});

test.describe("password reset links", () => {
  test("a used reset link says the link is invalid or already used and offers a new one", async ({ page }) => {
    const { email } = await signUpThroughApi(page.request);
    await page.context().clearCookies();
    const requested = await page.request.post(`${DEFAULT_SERVER.url}/api/auth/request-password-reset`, {
      headers: { Origin: DEFAULT_SERVER.url },
      data: { email, redirectTo: `${DEFAULT_SERVER.url}/reset-password` },
    });
    expect(requested.ok()).toBe(true);
    const link = findLink(await waitForMail(DEFAULT_SERVER.sinkUrl, email), "/api/auth/reset-password/");
    await page.goto(link);
    await page.getByLabel("New password").fill("a-brand-new-secret");
    await page.getByRole("button", { name: "Reset password" }).click();
    await expect(page.getByText("Your password has been reset.")).toBeVisible();

    await page.goto(link);
    await expect(page).toHaveURL(/\/reset-password\?error=INVALID_TOKEN$/);
    await expect(page.getByText("Link invalid or already used")).toBeVisible();
    await expect(page.getByText("This password reset link is invalid, please request a new one")).toBeVisible();
    await expect(page.getByRole("link", { name: "Back to login" })).toHaveAttribute("href", "/login");
    await page.getByRole("link", { name: "Request a new link" }).click();
    await expect(page).toHaveURL(/\/request-password-reset$/);
  });

  test("a reset whose token the server refuses turns into the invalid-link notice", async ({ page }) => {
    await page.goto("/reset-password?token=not-a-token-we-issued");
    await page.getByLabel("New password").fill("a-brand-new-secret");
    await page.getByRole("button", { name: "Reset password" }).click();
    await expect(page.getByText("Link invalid or already used")).toBeVisible();
    await expect(page.getByRole("link", { name: "Request a new link" })).toHaveAttribute("href", "/request-password-reset");
  });

  test("in French the invalid reset link is translated", async ({ page, context }) => {
    await context.addCookies([{ name: "hookmail-locale", value: "fr", url: DEFAULT_SERVER.url }]);
    await page.goto("/reset-password?error=INVALID_TOKEN");
    await expect(page.getByText(fr.resetPassword.invalidLink.title)).toBeVisible();
    await expect(page.getByText(fr.authErrors.INVALID_TOKEN)).toBeVisible();
    await expect(page.getByRole("link", { name: fr.resetPassword.invalidLink.requestNewLink })).toBeVisible();
  });
});

// The default server's billing runs against a fake Stripe whose checkout page pays and sends the
// signed webhook back (tests/e2e/billing-stripe.spec.ts).
for (const returnEvent of ["focus", "visibilitychange"] as const) {
  test(`back in the app's tab after paying in the checkout tab (${returnEvent}), the upgrade dialog has closed and Upgrade to pro is gone`, async ({
    page,
    context,
  }) => {
    await signUpThroughApi(page.request);
    await page.goto("/email-callbacks");
    await page.getByRole("button", { name: "Upgrade to pro" }).click();
    const dialog = page.getByRole("dialog");
    const [checkout] = await Promise.all([
      context.waitForEvent("page"),
      dialog.getByRole("button", { name: "Upgrade now" }).click(),
    ]);
    await checkout.getByRole("button", { name: "Pay" }).click();
    await expect(checkout).toHaveURL(/\/email-callbacks$/, { timeout: 10_000 });
    await expect(checkout.getByRole("button", { name: "Upgrade to pro" })).toBeHidden();

    // The app's tab has not been looked at since: it still shows the dialog.
    await expect(dialog).toBeVisible();
    await page.bringToFront();
    await page.evaluate((event) => (event === "focus" ? window : document).dispatchEvent(new Event(event)), returnEvent);
    await expect(dialog).toBeHidden();
    await expect(page.getByRole("button", { name: "Upgrade to pro" })).toBeHidden();
  });
}
