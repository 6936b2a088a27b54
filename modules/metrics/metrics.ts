// One-line calls that count what the product does (README: Monitoring) in the process's metrics
// they are handed: the SMTP listener, the HTTP ingest and the delivery worker call these; nothing
// here can fail the work it counts.
import { isAppError } from "@/modules/shared/errors/app-error";
import {
  ATTEMPTED_DELIVERY_OUTCOMES,
  DELIVERY_OUTCOME_BY_KIND,
  MAIL_REFUSAL_REASON,
  type MailRefusalReason,
  type MailRoute,
  REFUSAL_REASON_BY_ERROR_CODE,
} from "./metrics.constants";
import type { ProcessMetrics } from "./metrics.registry";

export function countAcceptedMail(metrics: ProcessMetrics, route: MailRoute) {
  metrics.mailsAccepted.inc({ route });
}

export function countRefusedMail(metrics: ProcessMetrics, route: MailRoute, reason: MailRefusalReason) {
  metrics.mailsRefused.inc({ route, reason });
}

/** The refusal reason of an error the ingest or the pipeline threw: its code's, else internal_error. */
export function findRefusalReason(error: unknown): MailRefusalReason {
  return (isAppError(error) && REFUSAL_REASON_BY_ERROR_CODE[error.code]) || MAIL_REFUSAL_REASON.INTERNAL_ERROR;
}

/** Counts the answer to one mail of `route`: accepted when `receiving` resolves, refused (with the error's reason) when it throws. */
export async function countMailAnswer<T>(metrics: ProcessMetrics, route: MailRoute, receiving: Promise<T>): Promise<T> {
  try {
    const result = await receiving;
    countAcceptedMail(metrics, route);
    return result;
  } catch (error) {
    countRefusedMail(metrics, route, findRefusalReason(error));
    throw error;
  }
}

/**
 * Runs one delivery attempt and counts its outcome (the `kind` it answers); the duration of an
 * attempt that sent (or tried to send) a webhook request goes to the histogram.
 */
export async function measureDeliveryAttempt<T extends { kind: string }>(
  metrics: ProcessMetrics,
  attempt: () => Promise<T>,
): Promise<T> {
  const startedAt = performance.now();
  const outcome = await attempt();
  const label = DELIVERY_OUTCOME_BY_KIND[outcome.kind] ?? outcome.kind.replaceAll("-", "_");
  metrics.deliveries.inc({ outcome: label });
  if (ATTEMPTED_DELIVERY_OUTCOMES.includes(label)) metrics.attemptDuration.observe((performance.now() - startedAt) / 1000);
  return outcome;
}
