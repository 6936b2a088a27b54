// The parse time limit (docs/architecture.md: The parse time limit): what a parsing thread may spend
// on one message is processor time, read from the thread's own clock (parsing/thread-clock.ts). Time
// it spends waiting (for a DNS answer, the spam engine, its slices to be written) or ready to run
// while busier threads have the processors does not count: on a loaded machine a message of real
// mail is not refused because the machine is loaded, and a message built to be slow to parse is
// stopped after the same work on any machine. A wall-clock bound, a multiple of the limit, still
// ends a parse that waits without end. Where the thread's clock cannot be read, the limit counts
// the time that passes.
import { readThreadCpuMs } from "./parsing/thread-clock";

/** Never look at the clock more often than this while a parse runs. */
const MIN_CHECK_INTERVAL_MS = 10;

/**
 * Watches one parse from the moment its thread starts on it, and calls `onExceeded` once the thread
 * has run `timeLimitMs` on a processor, or `wallLimitMs` have passed. Answers the function that
 * stops watching (the parse ended).
 */
export function watchParseTime({
  threadId,
  startCpuMs: givenStartCpuMs = null,
  timeLimitMs,
  wallLimitMs,
  onExceeded,
  readCpuMs = readThreadCpuMs,
}: {
  /** The parsing thread's id in the kernel; null: it has no readable clock. */
  threadId: number | null;
  /** The thread's processor time when it started on the message, as it read it itself; else read here. */
  startCpuMs?: number | null;
  timeLimitMs: number;
  wallLimitMs: number;
  onExceeded: () => void;
  readCpuMs?: (threadId: number) => Promise<number | null>;
}): () => void {
  const startedAt = performance.now();
  const startCpuMs = threadId === null || givenStartCpuMs !== null ? Promise.resolve(givenStartCpuMs) : readCpuMs(threadId);
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;

  const check = async () => {
    const cpuMs = threadId === null ? null : await readCpuMs(threadId);
    const startMs = await startCpuMs;
    if (stopped) return;
    const wallMs = performance.now() - startedAt;
    const spentMs = cpuMs === null || startMs === null ? wallMs : cpuMs - startMs;
    const leftMs = Math.min(timeLimitMs - spentMs, wallLimitMs - wallMs);
    if (leftMs > 0) {
      // The thread cannot spend more processor time than passes: look again when it could have.
      timer = setTimeout(check, Math.max(leftMs, MIN_CHECK_INTERVAL_MS));
      return;
    }
    stopped = true;
    onExceeded();
  };

  timer = setTimeout(check, timeLimitMs);
  return () => {
    stopped = true;
    clearTimeout(timer);
  };
}
