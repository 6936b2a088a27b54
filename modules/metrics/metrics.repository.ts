// The delivery queue's depth, read at scrape time from the delivery table (the queue, see
// docs/architecture.md): pending deliveries due now, leased by a worker, or scheduled for later, and
// how long the oldest due one has waited. One statement over the pending rows (the queue's partial index).
import type { Database } from "@/modules/db/db";
import { utcTimestampParameter } from "@/modules/db/sql-executor";
// A delivery takes the processing statuses (delivery.constants.ts), named where statuses live.
import { PROCESSING_STATUS } from "@/modules/processings/processings.constants";

export type DeliveryQueueDepth = { due: number; leased: number; scheduled: number; oldestDueAgeSeconds: number };

const now = utcTimestampParameter(1);
/** As the worker claims (delivery.repository.ts): not leased, and no retry time or one that has come. */
const IS_LEASED = `"lockedUntil" IS NOT NULL AND "lockedUntil" >= ${now}`;
const IS_DUE = `NOT (${IS_LEASED}) AND ("nextAttemptAt" IS NULL OR "nextAttemptAt" <= ${now})`;

export function createMetricsRepository({ executor }: Pick<Database, "executor">) {
  return {
    async readDeliveryQueueDepth(at: Date): Promise<DeliveryQueueDepth> {
      const [row] = await executor.query<{ due: number; leased: number; scheduled: number; oldest: number | null }>(
        `SELECT count(*) FILTER (WHERE ${IS_DUE})::int AS due,
                count(*) FILTER (WHERE ${IS_LEASED})::int AS leased,
                count(*) FILTER (WHERE NOT (${IS_LEASED}) AND NOT (${IS_DUE}))::int AS scheduled,
                extract(epoch FROM ${now} - min(COALESCE("nextAttemptAt", "createdAt")) FILTER (WHERE ${IS_DUE}))::float8 AS oldest
           FROM delivery
          WHERE status = $2`,
        [at.toISOString(), PROCESSING_STATUS.PENDING],
      );
      return {
        due: row?.due ?? 0,
        leased: row?.leased ?? 0,
        scheduled: row?.scheduled ?? 0,
        oldestDueAgeSeconds: Math.max(0, row?.oldest ?? 0),
      };
    },
  };
}

export type MetricsRepository = ReturnType<typeof createMetricsRepository>;
