// The account mails (address verification, password reset) in the user's language: a plain text
// part with the link, and a simple inline-styled HTML part with a button and the link spelled out.
// Keys are written out in full (t("mail.verifyEmail.subject")) so the catalogue test sees them used.
import type { Locale } from "@/modules/i18n/i18n.constants";
import { renderMailHtml, renderMailText } from "./mail-layout";
import { getMailTranslator } from "./mail-translator";
import type { Mailer, OutgoingMail } from "./mailer";

export type RenderedMail = Omit<OutgoingMail, "to">;

type AuthMailInput = { locale: Locale; name: string; url: string };

/** An account mail of one kind (its texts under `mail.<kind>` in the catalogues), translated. */
function renderAccountMail(kind: "verifyEmail" | "resetPassword", { locale, name, url }: AuthMailInput): RenderedMail {
  const t = getMailTranslator(locale);
  const layout = {
    locale,
    subject: t(`mail.${kind}.subject`),
    paragraphs: [t(`mail.${kind}.greeting`, { name }), t(`mail.${kind}.body`)],
    action: { label: t(`mail.${kind}.action`), url },
    linkFallback: t("mail.linkFallback"),
    footer: t(`mail.${kind}.ignore`),
  };
  return { subject: layout.subject, text: renderMailText(layout), html: renderMailHtml(layout) };
}

export const renderVerificationMail = (input: AuthMailInput) => renderAccountMail("verifyEmail", input);

export const renderPasswordResetMail = (input: AuthMailInput) => renderAccountMail("resetPassword", input);

type SendInput = AuthMailInput & { mailer: Mailer; to: string };

export async function sendVerificationMail({ mailer, to, ...input }: SendInput) {
  await mailer.send({ to, ...renderVerificationMail(input) });
}

export async function sendPasswordResetMail({ mailer, to, ...input }: SendInput) {
  await mailer.send({ to, ...renderPasswordResetMail(input) });
}
