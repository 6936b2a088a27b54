// The inbox retention sweep (how long each plan keeps its history: modules/plans).
export const RETENTION_BATCH_SIZE = 1000;
export const RETENTION_INTERVAL_MS = 24 * 60 * 60 * 1000;
/** The first sweep waits a little after start so it never competes with start-up. */
export const RETENTION_FIRST_RUN_DELAY_MS = 60 * 1000;
/** Addresses whose inbox counts one statement of the daily sweep folds. */
export const COUNT_FOLD_BATCH_SIZE = 100;
/**
 * Slices of a large value staged this long ago belong to a message whose process stopped before
 * writing it (a message is written, or given up, within its parse time limit and one transaction).
 */
export const STALE_UPLOAD_AGE_MS = 60 * 60 * 1000;
