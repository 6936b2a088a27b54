// The account mails (address verification, password reset) in the user's language: a plain text
// part with the link, and a simple inline-styled HTML part with a button and the link spelled out.
// Keys are written out in full (t("mail.verifyEmail.subject")) so the catalogue test sees them used.
import { createTranslator } from "use-intl/core";
import en from "@/messages/en.json";
import fr from "@/messages/fr.json";
import type { Locale } from "@/modules/i18n/i18n.constants";
import type { Messages } from "@/modules/i18n/messages";
import type { Mailer, OutgoingMail } from "./mailer";

export type RenderedMail = Omit<OutgoingMail, "to">;

type AuthMailInput = { locale: Locale; name: string; url: string };

/** What an account mail says, already translated; the layout is shared. */
type AuthMailTexts = {
  subject: string;
  greeting: string;
  body: string;
  action: string;
  ignore: string;
  linkFallback: string;
};

const CATALOGUES: Record<Locale, Messages> = { en, fr };

function getTranslator(locale: Locale) {
  return createTranslator({ locale, messages: CATALOGUES[locale] });
}

/** An account mail of one kind (its texts under `mail.<kind>` in the catalogues), translated. */
function renderAccountMail(kind: "verifyEmail" | "resetPassword", { locale, name, url }: AuthMailInput): RenderedMail {
  const t = getTranslator(locale);
  return renderAuthMail({
    locale,
    url,
    texts: {
      subject: t(`mail.${kind}.subject`),
      greeting: t(`mail.${kind}.greeting`, { name }),
      body: t(`mail.${kind}.body`),
      action: t(`mail.${kind}.action`),
      ignore: t(`mail.${kind}.ignore`),
      linkFallback: t("mail.linkFallback"),
    },
  });
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

function renderAuthMail({ locale, url, texts }: { locale: Locale; url: string; texts: AuthMailTexts }): RenderedMail {
  const text = `${[texts.greeting, texts.body, url, texts.ignore].join("\n\n")}\n`;
  const e = escapeHtml;
  const html = `<!doctype html>
<html lang="${e(locale)}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${e(texts.subject)}</title>
</head>
<body style="margin:0;padding:0;background-color:#f4f4f5;">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="background-color:#f4f4f5;">
<tr><td align="center" style="padding:32px 16px;">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="max-width:560px;background-color:#ffffff;border:1px solid #e4e4e7;border-radius:8px;">
<tr><td style="padding:32px;font-family:-apple-system,BlinkMacSystemFont,'Segoe UI',Roboto,Helvetica,Arial,sans-serif;font-size:15px;line-height:1.6;color:#18181b;">
<p style="margin:0 0 16px;">${e(texts.greeting)}</p>
<p style="margin:0 0 24px;">${e(texts.body)}</p>
<p style="margin:0 0 24px;"><a href="${e(url)}" style="display:inline-block;padding:12px 20px;background-color:#18181b;border-radius:6px;color:#ffffff;font-weight:600;text-decoration:none;">${e(texts.action)}</a></p>
<p style="margin:0 0 8px;font-size:13px;color:#52525b;">${e(texts.linkFallback)}</p>
<p style="margin:0 0 24px;font-size:13px;word-break:break-all;"><a href="${e(url)}" style="color:#2563eb;">${e(url)}</a></p>
<p style="margin:0;font-size:13px;color:#71717a;">${e(texts.ignore)}</p>
</td></tr>
</table>
</td></tr>
</table>
</body>
</html>
`;
  return { subject: texts.subject, text, html };
}

const HTML_ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (character) => HTML_ESCAPES[character] ?? character);
}
