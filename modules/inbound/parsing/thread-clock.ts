// A thread's own CPU clock, read from outside it (docs/architecture.md: The parse time limit). The
// parse time limit counts the processor time a parsing thread spends on a message, not the time
// that passes: a thread at a lower priority (thread-priority.ts) on a loaded machine, or one waiting
// for its slices to be written or for a DNS answer, is not spending the time the limit guards. On
// Linux each thread's time on a processor is in /proc/self/task/<id>/schedstat (nanoseconds), or,
// where scheduler statistics are off, in its stat line (clock ticks). Elsewhere there is no clock.
import fs from "node:fs";
import path from "node:path";

/** Linux reports a thread's user and system time in /proc in ticks of 1/100 s on every architecture. */
const TICKS_PER_SECOND = 100;

/**
 * The calling thread's own processor-time clock, in milliseconds: its schedstat file opened once and
 * read again in place (a microsecond, against several for opening it each time), so that a parsing
 * thread can tell it at the start of every message; null where there is none.
 */
export function openOwnCpuClock(procDir = "/proc"): (() => number | null) | null {
  if (process.platform !== "linux") return null;
  let fd: number;
  try {
    fd = fs.openSync(`${procDir}/thread-self/schedstat`, "r");
  } catch {
    return null;
  }
  const text = Buffer.alloc(128);
  return () => {
    try {
      const length = fs.readSync(fd, text, 0, text.length, 0);
      const runNs = Number(text.toString("latin1", 0, length).split(" ")[0]);
      return Number.isFinite(runNs) && runNs >= 0 ? runNs / 1e6 : null;
    } catch {
      return null;
    }
  };
}

/** The calling thread's id in the kernel (its entry under /proc/self/task); null where it has none. */
export function currentThreadId(procDir = "/proc"): number | null {
  if (process.platform !== "linux") return null;
  try {
    const threadId = Number(path.basename(fs.readlinkSync(`${procDir}/thread-self`)));
    return Number.isInteger(threadId) && threadId > 0 ? threadId : null;
  } catch {
    return null;
  }
}

/**
 * The processor time, in milliseconds, that a thread of this process has run so far; null when it
 * cannot be read (the thread has ended, or the system has no such clock).
 */
export async function readThreadCpuMs(threadId: number, procDir = "/proc"): Promise<number | null> {
  const taskDir = `${procDir}/self/task/${threadId}`;
  try {
    const runNs = Number((await fs.promises.readFile(`${taskDir}/schedstat`, "utf8")).split(" ")[0]);
    if (Number.isFinite(runNs) && runNs >= 0) return runNs / 1e6;
  } catch {
    // No scheduler statistics: the stat line below.
  }
  try {
    const stat = await fs.promises.readFile(`${taskDir}/stat`, "utf8");
    // Fields 14 and 15 (utime, stime) counted from the one after the command, which may hold spaces.
    const [userTicks, systemTicks] = stat
      .slice(stat.lastIndexOf(")") + 2)
      .split(" ")
      .slice(11, 13)
      .map(Number);
    if (!Number.isFinite(userTicks) || !Number.isFinite(systemTicks)) return null;
    return ((userTicks! + systemTicks!) * 1000) / TICKS_PER_SECOND;
  } catch {
    return null;
  }
}
