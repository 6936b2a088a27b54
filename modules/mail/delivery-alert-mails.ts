// The delivery alert mails (docs/webhooks.md: Delivery alerts), in the owner's language: the alert
// when an address's mail gave up (the address, the last status code and error, a link to its
// inbox), and the recovery mail when a delivery to it succeeded again.
import type { Locale } from "@/modules/i18n/i18n.constants";
import type { RenderedMail } from "./auth-mails";
import { type MailDetail, renderMailHtml, renderMailText } from "./mail-layout";
import { getMailTranslator } from "./mail-translator";

/** How much of the webhook's answer an alert quotes. */
export const ALERT_RESPONSE_EXCERPT_LENGTH = 200;

type AlertMailBase = { locale: Locale; name: string; address: string; inboxUrl: string };

export type DeliveryAlertMailInput = AlertMailBase & {
  /** The last attempt's HTTP status code, null when no answer came. */
  statusCode: number | null;
  /** What went wrong: the last attempt's error, else the processing's error code. */
  error: string;
  /** The start of the webhook's last answer, when it said something. */
  responseExcerpt: string | null;
};

export function renderDeliveryAlertMail({
  locale,
  name,
  address,
  inboxUrl,
  statusCode,
  error,
  responseExcerpt,
}: DeliveryAlertMailInput): RenderedMail {
  const t = getMailTranslator(locale);
  const excerpt = responseExcerpt?.replace(/\s+/g, " ").trim().slice(0, ALERT_RESPONSE_EXCERPT_LENGTH);
  const details: MailDetail[] = [
    {
      label: t("mail.deliveryAlert.statusCode"),
      value: statusCode === null ? t("mail.deliveryAlert.noStatusCode") : String(statusCode),
    },
    { label: t("mail.deliveryAlert.error"), value: error },
    ...(excerpt ? [{ label: t("mail.deliveryAlert.response"), value: excerpt }] : []),
  ];
  const layout = {
    locale,
    subject: t("mail.deliveryAlert.subject", { address }),
    paragraphs: [t("mail.deliveryAlert.greeting", { name }), t("mail.deliveryAlert.body", { address })],
    details,
    action: { label: t("mail.deliveryAlert.action"), url: inboxUrl },
    linkFallback: t("mail.linkFallback"),
    footer: t("mail.deliveryAlert.footer"),
  };
  return { subject: layout.subject, text: renderMailText(layout), html: renderMailHtml(layout) };
}

export function renderDeliveryRecoveryMail({ locale, name, address, inboxUrl }: AlertMailBase): RenderedMail {
  const t = getMailTranslator(locale);
  const layout = {
    locale,
    subject: t("mail.deliveryRecovery.subject", { address }),
    paragraphs: [t("mail.deliveryRecovery.greeting", { name }), t("mail.deliveryRecovery.body", { address })],
    action: { label: t("mail.deliveryRecovery.action"), url: inboxUrl },
    linkFallback: t("mail.linkFallback"),
    footer: t("mail.deliveryRecovery.footer"),
  };
  return { subject: layout.subject, text: renderMailText(layout), html: renderMailHtml(layout) };
}
