// The storage of delivery alerts (docs/webhooks.md: Delivery alerts): when its owner was last alerted
// on the address's row (`lastAlertAt`: one alert per address an hour), and whether an alert about an
// endpoint awaits its recovery on the endpoint's (`isAlerting`), so that the decision to send an
// alert is one conditional UPDATE that only one worker of any process can win. The end of an alert
// is decided where a delivery is recorded (attempt-outcomes.ts).
import type { Database } from "@/modules/db/db";
import { prepared, utcTimestampParameter } from "@/modules/db/sql-executor";
import { DELIVERY_STATUS, PROCESSING_ERROR } from "@/modules/processings/processings.constants";

const utc = utcTimestampParameter;

/** Who an alert goes to, and what it says of the address and of the endpoint it is about. */
export type AlertRecipient = {
  emailCallbackId: string;
  username: string;
  domain: string;
  email: string;
  name: string;
  locale: string | null;
  deliveryAlerts: boolean;
  /** The URL of the endpoint whose delivery gave up (or succeeded again). */
  endpointUrl: string;
};

/** The delivery's last attempt, as an alert names it, and the attempt series that gave up. */
export type AlertedFailure = AlertRecipient & {
  statusCode: number | null;
  attemptError: string | null;
  responseBody: string | null;
  /** Attempts of the current series (a redelivery starts a new one). */
  attemptCount: number;
  /** From the series' first recorded attempt to its last. */
  seriesDurationMs: number;
};

const RECIPIENT_COLUMNS = `c.id AS "emailCallbackId", c.username, c.domain, u.email, u.name, u.locale, u."deliveryAlerts"`;

export function createDeliveryAlertsRepository({ executor }: Pick<Database, "executor">) {
  return {
    /**
     * Takes the alert for the address of a delivery that ended in error / webhook-failed: only
     * when its owner wants alerts, the address is live and no alert went out for it since
     * `lastAlertBefore`; the delivery's endpoint then awaits its recovery. Answers what the alert
     * says, or null when there is none to send (another worker took it, or it is not due).
     */
    async claimFailureAlert({
      deliveryId,
      now,
      lastAlertBefore,
    }: {
      deliveryId: string;
      now: Date;
      lastAlertBefore: Date;
    }): Promise<AlertedFailure | null> {
      const rows = await executor.query<AlertedFailure>(
        prepared(
          "claim_delivery_alert",
          `WITH claimed AS (
             UPDATE email_callback c SET "lastAlertAt" = ${utc(2)}
             FROM delivery d, email_processing p, "user" u
             WHERE d.id = $1 AND d.status = $4 AND d.error = $5 AND p.id = d."emailProcessingId"
               AND c.id = p."emailCallbackId" AND c."deletedAt" IS NULL
               AND u.id = c."userId" AND u."deliveryAlerts"
               AND (c."lastAlertAt" IS NULL OR c."lastAlertAt" <= ${utc(3)})
             RETURNING ${RECIPIENT_COLUMNS}, d.id AS "deliveryId", d."endpointId",
               d."lastStatusCode" AS "webhookResponseStatusCode", d."attemptCount"
           ), alerting AS (
             UPDATE endpoint e SET "isAlerting" = true FROM claimed WHERE e.id = claimed."endpointId"
             RETURNING e.id, e.url
           )
           SELECT claimed."emailCallbackId", claimed.username, claimed.domain, claimed.email, claimed.name,
             claimed.locale, claimed."deliveryAlerts", alerting.url AS "endpointUrl",
             claimed."webhookResponseStatusCode" AS "statusCode", a.error AS "attemptError", a."responseBody",
             claimed."attemptCount",
             COALESCE(EXTRACT(EPOCH FROM series.duration) * 1000, 0)::float8 AS "seriesDurationMs"
           FROM claimed
           JOIN alerting ON alerting.id = claimed."endpointId"
           LEFT JOIN LATERAL (
             SELECT error, "responseBody" FROM delivery_attempt
             WHERE "deliveryId" = claimed."deliveryId"
             ORDER BY "attemptedAt" DESC LIMIT 1
           ) a ON true
           LEFT JOIN LATERAL (
             SELECT max("attemptedAt") - min("attemptedAt") AS duration FROM (
               SELECT "attemptedAt" FROM delivery_attempt
               WHERE "deliveryId" = claimed."deliveryId"
               ORDER BY "attemptedAt" DESC LIMIT claimed."attemptCount"
             ) latest
           ) series ON true`,
        ),
        [deliveryId, now.toISOString(), lastAlertBefore.toISOString(), DELIVERY_STATUS.ERROR, PROCESSING_ERROR.WEBHOOK_FAILED],
      );
      return rows[0] ?? null;
    },

    /** The owner, address and endpoint of a delivery that ended its endpoint's delivery alert. */
    async findRecoveryRecipient(deliveryId: string): Promise<AlertRecipient | null> {
      const rows = await executor.query<AlertRecipient>(
        `SELECT ${RECIPIENT_COLUMNS}, e.url AS "endpointUrl"
         FROM delivery d
         JOIN endpoint e ON e.id = d."endpointId"
         JOIN email_processing p ON p.id = d."emailProcessingId"
         JOIN email_callback c ON c.id = p."emailCallbackId"
         JOIN "user" u ON u.id = c."userId"
         WHERE d.id = $1 AND c."deletedAt" IS NULL`,
        [deliveryId],
      );
      return rows[0] ?? null;
    },
  };
}

export type DeliveryAlertsRepository = ReturnType<typeof createDeliveryAlertsRepository>;
