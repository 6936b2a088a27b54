// Inbox retention (role worker): once a day, processings older than their owner's plan retention
// (30 days free, 90 pro) are deleted in batches, their delivery attempts with them. Deliveries
// still pending are never deleted.
import type { SqlExecutor } from "@/modules/db/sql-executor";
import { PLAN_RETENTION_DAYS, RETENTION_BATCH_SIZE, RETENTION_FIRST_RUN_DELAY_MS, RETENTION_INTERVAL_MS } from "./retention.constants";

const DELETE_EXPIRED_BATCH = `
  DELETE FROM email_processing
  WHERE id IN (
    SELECT processing.id
    FROM email_processing processing
    JOIN email_callback callback ON callback.id = processing."emailCallbackId"
    JOIN "user" owner ON owner.id = callback."userId"
    WHERE processing.status <> 'pending'
      AND processing."createdAt" < ($1::timestamptz AT TIME ZONE 'UTC')
        - make_interval(days => CASE WHEN owner."planId" = 'pro' THEN $2::int ELSE $3::int END)
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
      PLAN_RETENTION_DAYS.pro,
      PLAN_RETENTION_DAYS.free,
      batchSize,
    ]);
    total += deleted.length;
    if (deleted.length < batchSize) return total;
  }
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
      .then((deleted) => {
        if (deleted > 0) log(`Retention: deleted ${deleted} processing(s) past their plan's retention`);
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
