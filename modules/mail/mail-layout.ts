// The one look of the product's own mails (account mails, delivery alerts): a plain text part, and
// a simple inline-styled HTML part with paragraphs, optional label/value details, a button and its
// link spelled out, then a small closing line. Every text is escaped here.
import type { Locale } from "@/modules/i18n/i18n.constants";

export type MailDetail = { label: string; value: string };

export type MailLayoutInput = {
  locale: Locale;
  subject: string;
  /** Shown before the button, in order (the greeting first). */
  paragraphs: string[];
  /** Label/value lines between the paragraphs and the button. */
  details?: MailDetail[];
  action: { label: string; url: string };
  linkFallback: string;
  /** The small closing line. */
  footer: string;
};

const FONT = "-apple-system,BlinkMacSystemFont,'Segoe UI',Roboto,Helvetica,Arial,sans-serif";

export function renderMailText({ paragraphs, details = [], action, footer }: MailLayoutInput): string {
  const detailLines = details.map(({ label, value }) => `${label} ${value}`).join("\n");
  return `${[...paragraphs, ...(detailLines ? [detailLines] : []), action.url, footer].join("\n\n")}\n`;
}

export function renderMailHtml({
  locale,
  subject,
  paragraphs,
  details = [],
  action,
  linkFallback,
  footer,
}: MailLayoutInput): string {
  const e = escapeHtml;
  const lastParagraph = paragraphs.length - 1;
  const paragraphRows = paragraphs
    .map((paragraph, index) => {
      const margin = index === lastParagraph && details.length === 0 ? "0 0 24px" : "0 0 16px";
      return `<p style="margin:${margin};">${e(paragraph)}</p>\n`;
    })
    .join("");
  const detailRows =
    details.length === 0
      ? ""
      : `<table role="presentation" cellpadding="0" cellspacing="0" border="0" style="margin:0 0 24px;font-size:14px;">
${details
  .map(
    ({ label, value }) =>
      `<tr><td style="padding:2px 12px 2px 0;color:#52525b;vertical-align:top;">${e(label)}</td><td style="padding:2px 0;word-break:break-all;">${e(value)}</td></tr>`,
  )
  .join("\n")}
</table>
`;
  return `<!doctype html>
<html lang="${e(locale)}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${e(subject)}</title>
</head>
<body style="margin:0;padding:0;background-color:#f4f4f5;">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="background-color:#f4f4f5;">
<tr><td align="center" style="padding:32px 16px;">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="max-width:560px;background-color:#ffffff;border:1px solid #e4e4e7;border-radius:8px;">
<tr><td style="padding:32px;font-family:${FONT};font-size:15px;line-height:1.6;color:#18181b;">
${paragraphRows}${detailRows}<p style="margin:0 0 24px;"><a href="${e(action.url)}" style="display:inline-block;padding:12px 20px;background-color:#18181b;border-radius:6px;color:#ffffff;font-weight:600;text-decoration:none;">${e(action.label)}</a></p>
<p style="margin:0 0 8px;font-size:13px;color:#52525b;">${e(linkFallback)}</p>
<p style="margin:0 0 24px;font-size:13px;word-break:break-all;"><a href="${e(action.url)}" style="color:#2563eb;">${e(action.url)}</a></p>
<p style="margin:0;font-size:13px;color:#71717a;">${e(footer)}</p>
</td></tr>
</table>
</td></tr>
</table>
</body>
</html>
`;
}

const HTML_ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (character) => HTML_ESCAPES[character] ?? character);
}
