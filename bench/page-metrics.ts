// The figures of bench/page-experience.ts computed from what the browser reports: the median of the
// loads, and Total Blocking Time from the main thread's long tasks. It imports nothing, so it is
// unit-tested as it is (page-metrics.test.ts).

/** Tasks up to this long block nothing: TBT counts what a task lasts beyond it. */
export const BLOCKING_THRESHOLD_MS = 50;

/** The median of the values: the middle one, or the mean of the two middle ones; NaN for none. */
export function median(values: readonly number[]): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** A main-thread task, in the page's own clock (ms since navigation start). */
export type Task = { startTime: number; duration: number };

/**
 * Total Blocking Time as Lighthouse computes it: each task clipped to the window [from, to] (from:
 * First Contentful Paint; to: Time to Interactive in Lighthouse, the end of the measured window here)
 * counts what its clipped part lasts beyond 50 ms; a task whose clipped part is 50 ms or less counts
 * nothing.
 */
export function totalBlockingTime(tasks: readonly Task[], window: { from: number; to: number }): number {
  let sum = 0;
  for (const task of tasks) {
    const start = Math.max(task.startTime, window.from);
    const end = Math.min(task.startTime + task.duration, window.to);
    const clipped = end - start;
    if (clipped > BLOCKING_THRESHOLD_MS) sum += clipped - BLOCKING_THRESHOLD_MS;
  }
  return sum;
}

/**
 * The end of the main thread's busy time: the end of the last task before the first gap of `quietMs`
 * without a task that starts at or after `after` (Lighthouse's Time to Interactive looks for such a
 * gap of 5 s after FCP, also asking the network to be quiet). `after` when no task ends later.
 */
export function endOfBusyTime(tasks: readonly Task[], after: number, quietMs: number): number {
  const sorted = [...tasks].sort((a, b) => a.startTime - b.startTime);
  let busyUntil = after;
  for (const task of sorted) {
    const end = task.startTime + task.duration;
    if (end <= busyUntil) continue;
    if (task.startTime - busyUntil >= quietMs) break;
    busyUntil = end;
  }
  return busyUntil;
}
