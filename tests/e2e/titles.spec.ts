// Every route names itself in the document title, in the user's language: a tab, a bookmark and
// the browser history tell the pages apart.
import { expect, test } from "@playwright/test";
import { createEmailCallbackThroughApi } from "./support/api";
import { signUpThroughApi } from "./support/auth";
import { DEFAULT_SERVER } from "./support/servers";

const PUBLIC_TITLES = {
  en: [
    ["/login", "Log in"],
    ["/register", "Sign up"],
    ["/request-password-reset", "Forgot your password"],
    ["/reset-password?token=example", "Choose a new password"],
    ["/no-such-page", "Page not found"],
  ],
  fr: [
    ["/login", "Connexion"],
    ["/register", "Inscription"],
    ["/request-password-reset", "Mot de passe oublié"],
    ["/reset-password?token=example", "Choisir un nouveau mot de passe"],
    ["/no-such-page", "Page introuvable"],
  ],
} as const;

const SIGNED_IN_TITLES = {
  en: [
    ["/email-callbacks", "Your emails"],
    ["/email-callbacks/create", "New email"],
    ["{inbox}", "Inbox"],
    ["{settings}", "Email settings"],
    ["/api-keys", "API keys"],
    ["/api-keys/create", "Create API key"],
    ["/domains", "Domains"],
    ["/settings", "Account settings"],
    ["/webhooks", "Webhook format"],
  ],
  fr: [
    ["/email-callbacks", "Vos adresses"],
    ["/email-callbacks/create", "Nouvelle adresse"],
    ["{inbox}", "Boîte de réception"],
    ["{settings}", "Paramètres de l'adresse"],
    ["/api-keys", "Clés d'API"],
    ["/api-keys/create", "Créer une clé d'API"],
    ["/domains", "Domaines"],
    ["/settings", "Paramètres du compte"],
    ["/webhooks", "Format des webhooks"],
  ],
} as const;

const NOT_FOUND_TITLES = {
  en: { email: "Email not found", mail: "Mail not found", mailText: "This mail is not in this inbox." },
  fr: {
    email: "Adresse introuvable",
    mail: "E-mail introuvable",
    mailText: "Cet e-mail n'est pas dans cette boîte de réception.",
  },
} as const;

for (const locale of ["en", "fr"] as const) {
  test(`every page has a title of its own in ${locale}`, async ({ page, context }) => {
    await context.addCookies([{ name: "hookmail-locale", value: locale, url: DEFAULT_SERVER.url }]);
    for (const [path, title] of PUBLIC_TITLES[locale]) {
      await page.goto(path);
      await expect(page).toHaveTitle(`${title} · Hookmail`);
    }
    await signUpThroughApi(page.request);
    const callback = await createEmailCallbackThroughApi(page.request, `titles-${locale}-${Date.now()}`);
    for (const [path, title] of SIGNED_IN_TITLES[locale]) {
      const target = path
        .replace("{inbox}", `/email-callbacks/${callback.id}/inbox`)
        .replace("{settings}", `/email-callbacks/${callback.id}/settings`);
      await page.goto(target);
      await expect(page).toHaveTitle(`${title} · Hookmail`);
    }
  });

  test(`an address or a mail that is not there is titled as not found in ${locale}`, async ({ page, context }) => {
    await context.addCookies([{ name: "hookmail-locale", value: locale, url: DEFAULT_SERVER.url }]);
    await signUpThroughApi(page.request);
    const callback = await createEmailCallbackThroughApi(page.request, `gone-${locale}-${Date.now()}`);
    const titles = NOT_FOUND_TITLES[locale];
    await page.goto("/email-callbacks/ecb_not_there/inbox");
    await expect(page.getByRole("heading", { name: titles.email })).toBeVisible();
    await expect(page).toHaveTitle(`${titles.email} · Hookmail`);
    await page.goto(`/email-callbacks/${callback.id}/inbox/ep_not_there`);
    await expect(page.getByText(titles.mailText)).toBeVisible();
    await expect(page).toHaveTitle(`${titles.mail} · Hookmail`);
  });
}
