// Recording attempts: many outcomes in one statement (group commit, db/batched-writer.ts), each
// delivery's new state written only while its claim still holds (the claim's lockedUntil is the
// fencing token), every attempt's row, and the end of an endpoint's delivery alert when a mail is
// delivered to it again (docs/webhooks.md: Delivery alerts). The processings follow their deliveries by
// a trigger on the delivery table.
import { prepared, type SqlExecutor, utcTimestampParameter } from "@/modules/db/sql-executor";
import { DELIVERY_STATUS, PROCESSING_STATUS } from "@/modules/processings/processings.constants";
import { createId } from "@/modules/shared/ids";
import type { AttemptOutcome, DeliveryAttemptRecord, ProcessingChange } from "./delivery.models";

const utc = utcTimestampParameter;

/** Outcomes written per statement at most. */
export const MAX_OUTCOMES_PER_WRITE = 200;

/** What one statement of outcomes wrote. */
export type WrittenOutcomes = {
  /** The deliveries whose claim held (their new state is written). */
  held: Set<string>;
  /** Successful deliveries whose endpoint was alerting: one per endpoint, whose recovery mail is due. */
  endingAlerts: Set<string>;
};

/**
 * One statement for many outcomes: each delivery's new state where its claim still holds, and
 * every attempt's row; an endpoint that was alerting stops when a mail is delivered to it.
 * Columns an outcome does not set keep their value.
 */
export async function writeAttemptOutcomes(executor: SqlExecutor, outcomes: AttemptOutcome[]): Promise<WrittenOutcomes> {
  const columns = outcomes.map(({ change }) => toProcessingColumns(change));
  const iso = (value: Date | string | number | null | undefined) => (value instanceof Date ? value.toISOString() : null);
  const attempts = outcomes.filter(
    (outcome): outcome is AttemptOutcome & { attempt: DeliveryAttemptRecord } => outcome.attempt !== null,
  );
  const rows = await executor.query<{ id: string; endpointId: string; endsAlert: boolean }>(
    prepared(
      "write_attempt_outcomes",
      `WITH outcome AS (
       SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::boolean[], $6::integer[], $7::boolean[],
                            $8::text[], $9::text[], $10::boolean[])
         AS o(id, "lockedUntil", status, error, "setsError", "statusCode", "setsStatusCode", "deliveredAt", "nextAttemptAt", attempted)
     ), updated AS (
       UPDATE delivery d SET
         status = o.status,
         error = CASE WHEN o."setsError" THEN o.error ELSE d.error END,
         "lastStatusCode" = CASE WHEN o."setsStatusCode" THEN o."statusCode" ELSE d."lastStatusCode" END,
         "deliveredAt" = COALESCE(o."deliveredAt"::timestamptz AT TIME ZONE 'UTC', d."deliveredAt"),
         "nextAttemptAt" = o."nextAttemptAt"::timestamptz AT TIME ZONE 'UTC',
         "lockedUntil" = NULL,
         "attemptCount" = d."attemptCount" + CASE WHEN o.attempted THEN 1 ELSE 0 END,
         "updatedAt" = ${utc(11)}
       FROM outcome o
       WHERE d.id = o.id AND d.status = $19 AND d."lockedUntil" = o."lockedUntil"::timestamptz AT TIME ZONE 'UTC'
       RETURNING d.id, d."emailProcessingId", d."endpointId", d.status
     ), recovered AS (
       -- SKIP LOCKED: recording never waits on an endpoint row (nor deadlocks); one held elsewhere
       -- ends its alert at its next delivery.
       UPDATE endpoint SET "isAlerting" = false
       WHERE id IN (
         SELECT id FROM endpoint
         WHERE "isAlerting" AND id IN (SELECT "endpointId" FROM updated WHERE status = $20)
         FOR UPDATE SKIP LOCKED
       )
       RETURNING id
     ), attempt AS (
       INSERT INTO delivery_attempt (id, "emailProcessingId", "deliveryId", "attemptedAt", "statusCode", "durationMs", error, "responseBody")
       SELECT a.id, d."emailProcessingId", a."deliveryId", a."attemptedAt"::timestamptz AT TIME ZONE 'UTC', a."statusCode", a."durationMs",
              a.error, a."responseBody"
       FROM unnest($12::text[], $13::text[], $14::text[], $15::integer[], $16::integer[], $17::text[], $18::text[])
         AS a(id, "deliveryId", "attemptedAt", "statusCode", "durationMs", error, "responseBody")
       JOIN delivery d ON d.id = a."deliveryId"
     )
     SELECT u.id, u."endpointId", (u.status = $20 AND u."endpointId" IN (SELECT id FROM recovered)) AS "endsAlert"
     FROM updated u`,
    ),
    [
      outcomes.map(({ claim }) => claim.id),
      outcomes.map(({ claim }) => claim.lockedUntil.toISOString()),
      columns.map((column) => column.status),
      columns.map((column) => column.error ?? null),
      columns.map((column) => "error" in column),
      columns.map((column) => column.webhookResponseStatusCode ?? null),
      columns.map((column) => "webhookResponseStatusCode" in column),
      columns.map((column) => iso(column.deliveredAt)),
      columns.map((column) => iso(column.nextAttemptAt)),
      outcomes.map(({ attempt }) => attempt !== null),
      new Date().toISOString(),
      attempts.map(() => createId("deliveryAttempt")),
      attempts.map(({ claim }) => claim.id),
      attempts.map(({ attempt }) => attempt.attemptedAt.toISOString()),
      attempts.map(({ attempt }) => attempt.statusCode),
      attempts.map(({ attempt }) => Math.round(attempt.durationMs)),
      attempts.map(({ attempt }) => attempt.error),
      attempts.map(({ attempt }) => attempt.responseBody),
      DELIVERY_STATUS.PENDING,
      DELIVERY_STATUS.SUCCESS,
    ],
  );
  // One recovery mail per endpoint, even when several of its deliveries share the statement.
  const endingAlerts = new Map<string, string>();
  for (const { id, endpointId, endsAlert } of rows) {
    if (endsAlert && !endingAlerts.has(endpointId)) endingAlerts.set(endpointId, id);
  }
  return { held: new Set(rows.map(({ id }) => id)), endingAlerts: new Set(endingAlerts.values()) };
}

type ProcessingColumns = {
  status: string;
  error?: string | null;
  webhookResponseStatusCode?: number | null;
  deliveredAt?: Date;
  nextAttemptAt: Date | null;
};

/** The columns an outcome sets; the others keep their value. */
function toProcessingColumns(change: ProcessingChange): ProcessingColumns {
  switch (change.status) {
    case PROCESSING_STATUS.SUCCESS:
      return {
        status: change.status,
        error: null,
        webhookResponseStatusCode: change.webhookResponseStatusCode,
        deliveredAt: change.deliveredAt,
        nextAttemptAt: null,
      };
    case PROCESSING_STATUS.PENDING:
      return {
        status: change.status,
        webhookResponseStatusCode: change.webhookResponseStatusCode,
        nextAttemptAt: change.nextAttemptAt,
      };
    case PROCESSING_STATUS.ERROR:
      return {
        status: change.status,
        error: change.error,
        webhookResponseStatusCode: change.webhookResponseStatusCode,
        nextAttemptAt: null,
      };
    case PROCESSING_STATUS.NOT_PROCESSED:
      return { status: change.status, error: change.error, nextAttemptAt: null };
  }
}
