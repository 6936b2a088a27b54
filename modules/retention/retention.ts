// Inbox retention (role worker): once a day, processings older than their owner's plan retention
// (30 days free, 90 pro) are deleted in batches, their delivery attempts with them. Deliveries
// still pending are never deleted. The same sweep folds the inbox counts' deltas (one row per
// insert or delete statement, see the inbox_counts migration) into one row per address and hour,
// so that the counts of inboxes nobody opens stay small too, and drops the rate-limit counters
// whose window is long over (docs/security.md: anyone may make one per email they try).
import type { SqlExecutor } from "@/modules/db/sql-executor";
import { DEFAULT_PLAN_ID, PLAN_IDS, PLAN_RETENTION_DAYS } from "@/modules/plans/plans.constants";
import { PROCESSING_STATUS } from "@/modules/processings/processings.constants";
import { RATE_LIMITS } from "@/modules/rate-limit/rate-limit.constants";
import {
  COUNT_FOLD_BATCH_SIZE,
  RETENTION_BATCH_SIZE,
  RETENTION_FIRST_RUN_DELAY_MS,
  RETENTION_INTERVAL_MS,
} from "./retention.constants";

const DELETE_EXPIRED_BATCH = `
  DELETE FROM email_processing
  WHERE id IN (
    SELECT processing.id
    FROM email_processing processing
    JOIN email_callback callback ON callback.id = processing."emailCallbackId"
    JOIN "user" owner ON owner.id = callback."userId"
    LEFT JOIN unnest($2::text[], $3::int[]) AS plan(id, days) ON plan.id = owner."planId"
    WHERE processing.status <> $5
      AND processing."createdAt" < ($1::timestamptz AT TIME ZONE 'UTC') - make_interval(days => COALESCE(plan.days, $6::int))
    LIMIT $4
  )
  RETURNING id`;

/** Deletes expired processings batch by batch; answers how many were deleted. */
export async function deleteExpiredProcessings({
  executor,
  now = new Date(),
  batchSize = RETENTION_BATCH_SIZE,
}: {
  executor: SqlExecutor;
  now?: Date;
  batchSize?: number;
}): Promise<number> {
  let total = 0;
  for (;;) {
    const deleted = await executor.query<{ id: string }>(DELETE_EXPIRED_BATCH, [
      now.toISOString(),
      PLAN_IDS,
      PLAN_IDS.map((planId) => PLAN_RETENTION_DAYS[planId]),
      batchSize,
      PROCESSING_STATUS.PENDING,
      PLAN_RETENTION_DAYS[DEFAULT_PLAN_ID],
    ]);
    total += deleted.length;
    if (deleted.length < batchSize) return total;
  }
}

/**
 * Up to $1 addresses with more than one count row for some hour: each of their hours folded into
 * one row (an hour netting to zero goes). Rows another fold holds are skipped, so this never waits;
 * deltas written meanwhile are new rows, untouched.
 */
const FOLD_COUNTS_BATCH = `
  WITH targets AS (
    SELECT "emailCallbackId" FROM email_processing_count
    GROUP BY "emailCallbackId" HAVING count(*) > count(DISTINCT hour)
    LIMIT $1
  ), folded AS (
    DELETE FROM email_processing_count
    WHERE id IN (
      SELECT id FROM email_processing_count WHERE "emailCallbackId" IN (SELECT "emailCallbackId" FROM targets)
      FOR UPDATE SKIP LOCKED
    )
    RETURNING "emailCallbackId", hour, delta
  ), written AS (
    INSERT INTO email_processing_count ("emailCallbackId", hour, delta)
    SELECT "emailCallbackId", hour, sum(delta) FROM folded GROUP BY "emailCallbackId", hour HAVING sum(delta) <> 0
  )
  SELECT count(DISTINCT "emailCallbackId")::int AS folded FROM folded`;

/** Folds the inbox counts of every address, batch by batch; answers how many addresses were folded. */
export async function foldInboxCounts({
  executor,
  batchSize = COUNT_FOLD_BATCH_SIZE,
}: {
  executor: SqlExecutor;
  batchSize?: number;
}): Promise<number> {
  let total = 0;
  for (;;) {
    const [row] = await executor.query<{ folded: number }>(FOLD_COUNTS_BATCH, [batchSize]);
    const folded = row?.folded ?? 0;
    total += folded;
    // Fewer than a batch: done (or the rest is being folded by a page read right now).
    if (folded < batchSize) return total;
  }
}

/** The longest window of any rate limit: a counter whose window started before that is over. */
const LONGEST_RATE_LIMIT_WINDOW_MS = Math.max(...Object.values(RATE_LIMITS).map((rule) => rule.windowMs));

const DELETE_STALE_RATE_LIMIT_COUNTS = `
  DELETE FROM action_rate_limit
  WHERE "windowStart" < ($1::timestamptz AT TIME ZONE 'UTC') - $2::int * interval '1 millisecond'
  RETURNING key`;

/**
 * Deletes the rate-limit counters whose window ended (a counter past its window counts as absent:
 * its next use starts a new one); answers how many went.
 */
export async function deleteStaleRateLimitCounts({
  executor,
  now = new Date(),
}: {
  executor: SqlExecutor;
  now?: Date;
}): Promise<number> {
  const deleted = await executor.query<{ key: string }>(DELETE_STALE_RATE_LIMIT_COUNTS, [
    now.toISOString(),
    LONGEST_RATE_LIMIT_WINDOW_MS,
  ]);
  return deleted.length;
}

export function startRetentionSweeps({
  executor,
  log,
}: {
  executor: SqlExecutor;
  log: (line: string, cause?: unknown) => void;
}): { stop: () => Promise<void> } {
  let current: Promise<unknown> | undefined;
  const sweep = () => {
    current = deleteExpiredProcessings({ executor })
      .then(async (deleted) => {
        if (deleted > 0) log(`Retention: deleted ${deleted} processing(s) past their plan's retention`);
        await foldInboxCounts({ executor });
        await deleteStaleRateLimitCounts({ executor });
      })
      .catch((error: unknown) => log("Retention sweep failed", error));
  };
  const first = setTimeout(sweep, RETENTION_FIRST_RUN_DELAY_MS);
  const daily = setInterval(sweep, RETENTION_INTERVAL_MS);
  first.unref();
  daily.unref();
  return {
    stop: async () => {
      clearTimeout(first);
      clearInterval(daily);
      await current;
    },
  };
}
