// The delivery alert mails (docs/webhooks.md: Delivery alerts), in the owner's language: the alert
// when an address's mail gave up at one of its endpoints (the address, the endpoint, what happened in
// words, the last status code and error, a link to its inbox), and the recovery mail when a delivery
// to that endpoint succeeded again.
import { STATUS_CODES } from "node:http";
import type { Locale } from "@/modules/i18n/i18n.constants";
import type { RenderedMail } from "./auth-mails";
import { type MailDetail, renderMailHtml, renderMailText } from "./mail-layout";
import { getMailTranslator } from "./mail-translator";

/** How much of the webhook's answer an alert quotes. */
export const ALERT_RESPONSE_EXCERPT_LENGTH = 200;

type AlertMailBase = {
  locale: Locale;
  name: string;
  address: string;
  inboxUrl: string;
  /** The URL of the endpoint the mail is about. */
  endpointUrl: string;
};

/**
 * Why a mail's delivery gave up, as the alert tells it in words: the webhook gave an answer that is
 * not retried, its URL leads where Hookmail may not call, or every retry failed (docs/webhooks.md).
 */
export type DeliveryFailure =
  | { kind: "not-retried"; statusCode: number }
  | { kind: "blocked-target" }
  | {
      kind: "retries-exhausted";
      /** Attempts of the series that gave up, and the time from its first to its last. */
      attempts: number;
      durationMs: number;
      /** The last attempt's answer: a status code, or none because it timed out or could not connect. */
      last: { statusCode: number } | "timeout" | "unreachable";
    };

export type DeliveryAlertMailInput = AlertMailBase & {
  failure: DeliveryFailure;
  /** The last attempt's error when no answer came (e.g. "connect ECONNREFUSED 192.0.2.1:443"). */
  error: string | null;
  /** The start of the webhook's last answer, when it said something. */
  responseExcerpt: string | null;
};

type MailTranslator = ReturnType<typeof getMailTranslator>;

const HOUR_MS = 3_600_000;

/** A status code with its reason phrase, as HTTP names it: "400 Bad Request". */
export function describeStatusCode(statusCode: number): string {
  const phrase = STATUS_CODES[statusCode];
  return phrase ? `${statusCode} ${phrase}` : String(statusCode);
}

/**
 * An endpoint's URL as a mail names it: scheme, host and path, without credentials, query or
 * fragment (they may hold a token, and a mail is read in more places than the dashboard).
 */
export function describeEndpointUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return url.split(/[?#]/)[0] ?? "";
  }
  return `${parsed.protocol}//${parsed.host}${parsed.pathname}${parsed.search ? "?…" : ""}`;
}

/** "31 hours", or minutes under an hour (at least one). */
function describeDuration(t: MailTranslator, durationMs: number): string {
  if (durationMs < HOUR_MS) return t("mail.deliveryAlert.minutes", { count: Math.max(1, Math.round(durationMs / 60_000)) });
  return t("mail.deliveryAlert.hours", { count: Math.round(durationMs / HOUR_MS) });
}

/** What happened, in words: the paragraphs between the greeting and the details. */
function describeFailure(t: MailTranslator, address: string, failure: DeliveryFailure): string[] {
  switch (failure.kind) {
    case "not-retried": {
      const { statusCode } = failure;
      const status = describeStatusCode(statusCode);
      if (statusCode >= 400 && statusCode < 500) return [t("mail.deliveryAlert.refusedClientError", { address, status })];
      if (statusCode >= 300 && statusCode < 400) return [t("mail.deliveryAlert.refusedRedirect", { address, status })];
      return [t("mail.deliveryAlert.refusedOther", { address, status })];
    }
    case "blocked-target":
      return [t("mail.deliveryAlert.blockedTarget", { address })];
    case "retries-exhausted": {
      const { attempts, durationMs, last } = failure;
      const lastTime =
        last === "timeout"
          ? t("mail.deliveryAlert.lastTimedOut")
          : last === "unreachable"
            ? t("mail.deliveryAlert.lastUnreachable")
            : t("mail.deliveryAlert.lastAnswered", { status: describeStatusCode(last.statusCode) });
      const duration = describeDuration(t, durationMs);
      return [`${t("mail.deliveryAlert.retriesExhausted", { address, attempts, duration })} ${lastTime}`];
    }
  }
}

const lastStatusCode = (failure: DeliveryFailure): number | null =>
  failure.kind === "not-retried"
    ? failure.statusCode
    : failure.kind === "retries-exhausted" && typeof failure.last === "object"
      ? failure.last.statusCode
      : null;

export function renderDeliveryAlertMail({
  locale,
  name,
  address,
  inboxUrl,
  endpointUrl,
  failure,
  error,
  responseExcerpt,
}: DeliveryAlertMailInput): RenderedMail {
  const t = getMailTranslator(locale);
  const excerpt = responseExcerpt?.replace(/\s+/g, " ").trim().slice(0, ALERT_RESPONSE_EXCERPT_LENGTH);
  const statusCode = lastStatusCode(failure);
  const details: MailDetail[] = [
    { label: t("mail.deliveryAlert.endpoint"), value: describeEndpointUrl(endpointUrl) },
    {
      label: t("mail.deliveryAlert.statusCode"),
      value: statusCode === null ? t("mail.deliveryAlert.noStatusCode") : describeStatusCode(statusCode),
    },
    ...(error ? [{ label: t("mail.deliveryAlert.error"), value: error }] : []),
    ...(excerpt ? [{ label: t("mail.deliveryAlert.response"), value: excerpt }] : []),
  ];
  const layout = {
    locale,
    subject: t("mail.deliveryAlert.subject", { address }),
    paragraphs: [
      t("mail.deliveryAlert.greeting", { name }),
      ...describeFailure(t, address, failure),
      t("mail.deliveryAlert.keptInInbox"),
    ],
    details,
    action: { label: t("mail.deliveryAlert.action"), url: inboxUrl },
    linkFallback: t("mail.linkFallback"),
    footer: t("mail.deliveryAlert.footer"),
  };
  return { subject: layout.subject, text: renderMailText(layout), html: renderMailHtml(layout) };
}

export function renderDeliveryRecoveryMail({ locale, name, address, inboxUrl, endpointUrl }: AlertMailBase): RenderedMail {
  const t = getMailTranslator(locale);
  const layout = {
    locale,
    subject: t("mail.deliveryRecovery.subject", { address }),
    paragraphs: [t("mail.deliveryRecovery.greeting", { name }), t("mail.deliveryRecovery.body", { address })],
    details: [{ label: t("mail.deliveryRecovery.endpoint"), value: describeEndpointUrl(endpointUrl) }],
    action: { label: t("mail.deliveryRecovery.action"), url: inboxUrl },
    linkFallback: t("mail.linkFallback"),
    footer: t("mail.deliveryRecovery.footer"),
  };
  return { subject: layout.subject, text: renderMailText(layout), html: renderMailHtml(layout) };
}
