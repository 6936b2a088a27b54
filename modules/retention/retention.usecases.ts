// Inbox retention (role worker): once a day, processings older than their owner's plan retention
// (30 days free, 90 pro) are deleted in batches, their delivery attempts with them. Deliveries
// still pending are never deleted. The same sweep folds the inbox counts' deltas (one row per
// insert or delete statement, see the inbox_counts migration) into one row per address and hour,
// so that the counts of inboxes nobody opens stay small too, and drops the rate-limit counters
// whose window is long over (docs/security.md: anyone may make one per email they try), and the
// slices of large values a stopped process staged and never wrote (docs/architecture.md: Large values).

import { RATE_LIMITS } from "@/modules/rate-limit/rate-limit.constants";
import type { Logger } from "@/modules/shared/logging/logger";
import {
  COUNT_FOLD_BATCH_SIZE,
  RETENTION_BATCH_SIZE,
  RETENTION_FIRST_RUN_DELAY_MS,
  RETENTION_INTERVAL_MS,
  STALE_UPLOAD_AGE_MS,
} from "./retention.constants";
import type { RetentionRepository } from "./retention.repository";

/** Deletes expired processings batch by batch; answers how many were deleted. */
export async function deleteExpiredProcessings({
  repository,
  now = new Date(),
  batchSize = RETENTION_BATCH_SIZE,
}: {
  repository: RetentionRepository;
  now?: Date;
  batchSize?: number;
}): Promise<number> {
  let total = 0;
  for (;;) {
    const deleted = await repository.deleteExpiredProcessingsBatch({ now, batchSize });
    total += deleted;
    if (deleted < batchSize) return total;
  }
}

/** Folds the inbox counts of every address, batch by batch; answers how many addresses were folded. */
export async function foldInboxCounts({
  repository,
  batchSize = COUNT_FOLD_BATCH_SIZE,
}: {
  repository: RetentionRepository;
  batchSize?: number;
}): Promise<number> {
  let total = 0;
  for (;;) {
    const folded = await repository.foldInboxCountsBatch(batchSize);
    total += folded;
    // Fewer than a batch: done (or the rest is being folded by a page read right now).
    if (folded < batchSize) return total;
  }
}

/** The longest window of any rate limit: a counter whose window started before that is over. */
const LONGEST_RATE_LIMIT_WINDOW_MS = Math.max(...Object.values(RATE_LIMITS).map((rule) => rule.windowMs));

/**
 * Deletes the rate-limit counters whose window ended (a counter past its window counts as absent:
 * its next use starts a new one); answers how many went.
 */
export async function deleteStaleRateLimitCounts({
  repository,
  now = new Date(),
}: {
  repository: RetentionRepository;
  now?: Date;
}): Promise<number> {
  return repository.deleteRateLimitCountsOlderThan({ now, windowMs: LONGEST_RATE_LIMIT_WINDOW_MS });
}

/** Deletes the staged slices of large values never written (their process stopped); answers how many. */
export async function deleteStaleUploads({
  repository,
  now = new Date(),
}: {
  repository: RetentionRepository;
  now?: Date;
}): Promise<number> {
  return repository.deleteStaleUploadSlices({ now, maxAgeMs: STALE_UPLOAD_AGE_MS });
}

/** The daily sweep of the worker role: a first run shortly after start, then every 24 h. */
export function startRetentionSweeps({ repository, logger }: { repository: RetentionRepository; logger: Logger }): {
  stop: () => Promise<void>;
} {
  let current: Promise<unknown> | undefined;
  const sweep = () => {
    current = deleteExpiredProcessings({ repository })
      .then(async (deleted) => {
        if (deleted > 0) logger.info({ processings: deleted }, "Retention: deleted processings past their plan's retention");
        await foldInboxCounts({ repository });
        await deleteStaleRateLimitCounts({ repository });
        await deleteStaleUploads({ repository });
      })
      .catch((error: unknown) => logger.error({ err: error }, "Retention sweep failed"));
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
