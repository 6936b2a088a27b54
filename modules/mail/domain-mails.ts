// The mails of the daily re-check of a user's domain (docs/domains.md: Daily re-check), in the
// owner's language: when 72 h of failed checks made the domain pending (it no longer receives mail:
// what was wrong and the two records to set), and when a failing domain is verified again.
import type { Locale } from "@/modules/i18n/i18n.constants";
import type { RenderedMail } from "./auth-mails";
import { renderMailHtml, renderMailText } from "./mail-layout";
import { getMailTranslator } from "./mail-translator";

type DomainMailBase = { locale: Locale; name: string; domain: string; domainsUrl: string };

export type DomainSuspendedMailInput = DomainMailBase & {
  /** What the last check found missing or wrong, each problem already said in the reader's language. */
  problems: string[];
  records: { txt: { name: string; value: string }; mx: { name: string; value: string } };
};

export function renderDomainSuspendedMail({
  locale,
  name,
  domain,
  domainsUrl,
  problems,
  records,
}: DomainSuspendedMailInput): RenderedMail {
  const t = getMailTranslator(locale);
  const layout = {
    locale,
    subject: t("mail.domainSuspended.subject", { domain }),
    paragraphs: [t("mail.domainSuspended.greeting", { name }), t("mail.domainSuspended.body", { domain })],
    details: [
      // On one line, as the dashboard's API says them (docs/domains.md: Verification).
      { label: t("mail.domainSuspended.problem"), value: problems.join("; ") },
      { label: t("mail.domainSuspended.txtRecord"), value: `${records.txt.name} ${records.txt.value}` },
      { label: t("mail.domainSuspended.mxRecord"), value: `${records.mx.name} ${records.mx.value}` },
    ],
    action: { label: t("mail.domainSuspended.action"), url: domainsUrl },
    linkFallback: t("mail.linkFallback"),
    footer: t("mail.domainSuspended.footer"),
  };
  return { subject: layout.subject, text: renderMailText(layout), html: renderMailHtml(layout) };
}

export function renderDomainRestoredMail({ locale, name, domain, domainsUrl }: DomainMailBase): RenderedMail {
  const t = getMailTranslator(locale);
  const layout = {
    locale,
    subject: t("mail.domainRestored.subject", { domain }),
    paragraphs: [t("mail.domainRestored.greeting", { name }), t("mail.domainRestored.body", { domain })],
    action: { label: t("mail.domainRestored.action"), url: domainsUrl },
    linkFallback: t("mail.linkFallback"),
    footer: t("mail.domainRestored.footer"),
  };
  return { subject: layout.subject, text: renderMailText(layout), html: renderMailHtml(layout) };
}
