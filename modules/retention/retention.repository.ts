// The retention sweep's storage: each statement does one batch of the daily clean-up (role
// worker, retention.usecases.ts). Plain SQL through the executor: the deletions join the owner's
// plan and use SKIP LOCKED, which Prisma cannot express.
import type { SqlExecutor } from "@/modules/db/sql-executor";
import { deleteStaleUploadSlices } from "@/modules/db/value-uploads";
import { DEFAULT_PLAN_ID, PLAN_IDS, PLAN_RETENTION_DAYS } from "@/modules/plans/plans.constants";
import { PROCESSING_STATUS } from "@/modules/processings/processings.constants";

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

const DELETE_STALE_RATE_LIMIT_COUNTS = `
  DELETE FROM action_rate_limit
  WHERE "windowStart" < ($1::timestamptz AT TIME ZONE 'UTC') - $2::int * interval '1 millisecond'
  RETURNING key`;

export function createRetentionRepository(executor: SqlExecutor) {
  return {
    /** Deletes up to `batchSize` processings past their owner's plan retention (never a pending one); answers how many. */
    deleteExpiredProcessingsBatch: async ({ now, batchSize }: { now: Date; batchSize: number }): Promise<number> => {
      const deleted = await executor.query<{ id: string }>(DELETE_EXPIRED_BATCH, [
        now.toISOString(),
        PLAN_IDS,
        PLAN_IDS.map((planId) => PLAN_RETENTION_DAYS[planId]),
        batchSize,
        PROCESSING_STATUS.PENDING,
        PLAN_RETENTION_DAYS[DEFAULT_PLAN_ID],
      ]);
      return deleted.length;
    },

    /** Folds the counts of up to `batchSize` addresses; answers how many addresses were folded. */
    foldInboxCountsBatch: async (batchSize: number): Promise<number> => {
      const [row] = await executor.query<{ folded: number }>(FOLD_COUNTS_BATCH, [batchSize]);
      return row?.folded ?? 0;
    },

    /** Deletes the rate-limit counters whose window started over `windowMs` before `now`; answers how many. */
    deleteRateLimitCountsOlderThan: async ({ now, windowMs }: { now: Date; windowMs: number }): Promise<number> => {
      const deleted = await executor.query<{ key: string }>(DELETE_STALE_RATE_LIMIT_COUNTS, [now.toISOString(), windowMs]);
      return deleted.length;
    },

    /** Deletes the large-value slices staged over `maxAgeMs` ago and never written (modules/db/value-uploads.ts). */
    deleteStaleUploadSlices: (input: { now: Date; maxAgeMs: number }) => deleteStaleUploadSlices(executor, input),
  };
}

export type RetentionRepository = ReturnType<typeof createRetentionRepository>;
