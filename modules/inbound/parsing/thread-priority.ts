// A thread's own scheduling priority (docs/architecture.md: The main thread answers). On Linux a
// nice value belongs to each thread, and setpriority(2) given a thread's id changes that thread
// alone: the id is read from /proc/thread-self, a link to /proc/<pid>/task/<tid>. Elsewhere the
// thread keeps its priority.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

/**
 * Lowers the calling thread's priority to `nice` (raising a nice value needs no privilege).
 * Answers whether it was done.
 */
export function lowerThreadPriority(nice: number, procDir = "/proc"): boolean {
  if (process.platform !== "linux") return false;
  try {
    const threadId = Number(path.basename(fs.readlinkSync(`${procDir}/thread-self`)));
    if (!Number.isInteger(threadId) || threadId <= 0) return false;
    os.setPriority(threadId, Math.max(os.getPriority(threadId), nice));
    return true;
  } catch {
    return false;
  }
}
