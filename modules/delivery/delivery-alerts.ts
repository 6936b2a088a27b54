// Delivery alerts (docs/webhooks.md: Delivery alerts): after a worker has recorded an attempt, the
// owner of an address whose mail gave up (error / webhook-failed) at one of its endpoints gets an
// alert mail naming that endpoint, at most one per address an hour, and a recovery mail once a
// delivery to that endpoint succeeds again (another endpoint's success does not end its alert). Whether to send is
// decided in the database (delivery-alerts.repository.ts, attempt-outcomes.ts), so that two
// workers never send the same mail twice. An alert that cannot be sent is logged: it never changes
// the delivery.
import { resolveLocale } from "@/modules/i18n/locale.models";
import { type DeliveryFailure, renderDeliveryAlertMail, renderDeliveryRecoveryMail } from "@/modules/mail/delivery-alert-mails";
import type { Mailer } from "@/modules/mail/mailer";
import { emailCallbackPath } from "@/modules/shared/app-paths";
import type { Logger } from "@/modules/shared/logging/logger";
import { DELIVERY_ALERT_INTERVAL_MS } from "./delivery.constants";
import { classifyAttempt } from "./delivery.schedule";
import type { DeliveryOutcome } from "./delivery.usecases";
import type { AlertedFailure, AlertRecipient, DeliveryAlertsRepository } from "./delivery-alerts.repository";
import type { WebhookFailureResult } from "./webhook-result";

const FAILURE_KINDS: WebhookFailureResult["kind"][] = ["timeout", "network-error", "blocked-target"];

/** An attempt's recorded error ("timeout: …", "network-error: …") as its kind and its message. */
function readAttemptError(error: string | null): { kind: WebhookFailureResult["kind"]; message: string } | null {
  const kind = FAILURE_KINDS.find((candidate) => error?.startsWith(`${candidate}: `));
  return kind && error ? { kind, message: error.slice(kind.length + 2) } : null;
}

/**
 * Why the delivery gave up, from its last attempt: an answer that is not retried (a 4xx other than
 * 408 and 429, a redirect) or a webhook URL it may not call failed at once; anything else was
 * retried until no attempt was left.
 */
export function describeDeliveryFailure(failure: AlertedFailure): { failure: DeliveryFailure; error: string | null } {
  const attemptError = readAttemptError(failure.attemptError);
  if (attemptError?.kind === "blocked-target") return { failure: { kind: "blocked-target" }, error: null };
  const { statusCode } = failure;
  if (statusCode !== null && classifyAttempt({ kind: "response", statusCode, durationMs: 0, bodyExcerpt: "" }) === "fail") {
    return { failure: { kind: "not-retried", statusCode }, error: null };
  }
  return {
    failure: {
      kind: "retries-exhausted",
      attempts: failure.attemptCount,
      durationMs: failure.seriesDurationMs,
      last: statusCode !== null ? { statusCode } : attemptError?.kind === "timeout" ? "timeout" : "unreachable",
    },
    error: statusCode === null ? (attemptError?.message ?? null) : null,
  };
}

export type DeliveryAlerts = {
  /** Sends the alert or the recovery mail an attempt's outcome calls for, if any; never throws. */
  afterDelivery: (args: { deliveryId: string; outcome: DeliveryOutcome; now: Date }) => Promise<void>;
};

export function createDeliveryAlerts({
  repository,
  mailer,
  baseUrl,
  logger,
}: {
  repository: DeliveryAlertsRepository;
  mailer: Mailer;
  /** The app's public address (BASE_URL): the mails link to the address's inbox there. */
  baseUrl: string;
  logger: Logger;
}): DeliveryAlerts {
  const describeRecipient = (recipient: AlertRecipient) => ({
    locale: resolveLocale({ storedLocale: recipient.locale, acceptLanguage: null }),
    name: recipient.name,
    address: `${recipient.username}@${recipient.domain}`,
    inboxUrl: `${baseUrl}${emailCallbackPath(recipient.emailCallbackId, "inbox")}`,
    endpointUrl: recipient.endpointUrl,
  });

  const sendFailureAlert = async (deliveryId: string, now: Date) => {
    const lastAlertBefore = new Date(now.getTime() - DELIVERY_ALERT_INTERVAL_MS);
    const failure = await repository.claimFailureAlert({ deliveryId, now, lastAlertBefore });
    if (!failure) return;
    const mail = renderDeliveryAlertMail({
      ...describeRecipient(failure),
      ...describeDeliveryFailure(failure),
      responseExcerpt: failure.responseBody,
    });
    await mailer.send({ to: failure.email, ...mail });
    logger.info({ deliveryId, address: describeRecipient(failure).address }, "Delivery alert sent to its owner");
  };

  const sendRecovery = async (deliveryId: string) => {
    const recipient = await repository.findRecoveryRecipient(deliveryId);
    if (!recipient?.deliveryAlerts) return;
    await mailer.send({ to: recipient.email, ...renderDeliveryRecoveryMail(describeRecipient(recipient)) });
    logger.info({ deliveryId, address: describeRecipient(recipient).address }, "Delivery recovery mail sent to its owner");
  };

  return {
    async afterDelivery({ deliveryId, outcome, now }) {
      try {
        if (outcome.kind === "failed") await sendFailureAlert(deliveryId, now);
        else if (outcome.kind === "success" && outcome.endsAlert) await sendRecovery(deliveryId);
      } catch (error) {
        logger.error({ deliveryId, err: error }, "The delivery alert could not be sent");
      }
    },
  };
}
