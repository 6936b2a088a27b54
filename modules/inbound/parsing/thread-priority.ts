// A thread's own scheduling priority (docs/architecture.md: The main thread answers). On Linux a
// nice value belongs to each thread, and setpriority(2) given a thread's id changes that thread
// alone (the id from thread-clock.ts). Elsewhere the thread keeps its priority.
import os from "node:os";
import { currentThreadId } from "./thread-clock";

/**
 * Lowers the calling thread's priority to `nice` (raising a nice value needs no privilege).
 * Answers whether it was done.
 */
export function lowerThreadPriority(nice: number, procDir = "/proc"): boolean {
  const threadId = currentThreadId(procDir);
  if (threadId === null) return false;
  try {
    os.setPriority(threadId, Math.max(os.getPriority(threadId), nice));
    return true;
  } catch {
    return false;
  }
}
