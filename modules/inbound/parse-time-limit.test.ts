import { Worker } from "node:worker_threads";
import { describe, expect, it } from "vitest";
import { watchParseTime } from "./parse-time-limit";
import { readThreadCpuMs } from "./parsing/thread-clock";

/**
 * A thread that tells its kernel id, then either spins on the processor until it has run `ms` (by
 * its own clock), or sleeps `ms` (Atomics.wait: no processor time), then tells it is done.
 */
function startThread(work: "spin" | "sleep", ms: number) {
  const code = `
    const { parentPort, workerData } = require("node:worker_threads");
    const threadId = Number(require("node:fs").readlinkSync("/proc/thread-self").split("/").pop());
    const ranMs = () => Number(require("node:fs").readFileSync("/proc/thread-self/schedstat", "utf8").split(" ")[0]) / 1e6;
    parentPort.postMessage({ threadId, cpuMs: ranMs() });
    if (workerData.work === "sleep") Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, workerData.ms);
    else for (const start = ranMs(); ranMs() - start < workerData.ms; ) {}
    parentPort.postMessage({ done: true, ranMs: ranMs() });
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0);`;
  const worker = new Worker(code, { eval: true, workerData: { work, ms } });
  const started = new Promise<{ threadId: number; cpuMs: number }>((resolve) => worker.once("message", resolve));
  const threadId = started.then((message) => message.threadId);
  const done = new Promise<number>((resolve) => worker.on("message", (message) => message.done && resolve(message.ranMs)));
  return { worker, threadId, started, done };
}

/** Watches a thread; answers when the limit was exceeded (ms after it started), or null if its work ended first. */
async function watch(
  thread: ReturnType<typeof startThread>,
  limits: { timeLimitMs: number; wallLimitMs: number },
  threadId?: number | null,
) {
  const id = threadId === undefined ? await thread.threadId : threadId;
  const startedAt = performance.now();
  let stop = () => {};
  const exceeded = new Promise<number>((resolve) => {
    stop = watchParseTime({ threadId: id, ...limits, onExceeded: () => resolve(performance.now() - startedAt) });
  });
  const outcome = await Promise.race([exceeded, thread.done.then(() => null)]);
  stop();
  const cpuMs = id === null ? null : await readThreadCpuMs(id);
  await thread.worker.terminate();
  return { exceededAfterMs: outcome, cpuMs };
}

describe.runIf(process.platform === "linux")(
  "the parse time limit counts the thread's processor time (docs/architecture.md: The parse time limit)",
  () => {
    it("reads a thread's processor time from outside as the thread reads it, and adds nothing while it sleeps", async () => {
      const spinning = startThread("spin", 300);
      const sleeping = startThread("sleep", 300);
      const sleepId = await sleeping.threadId;
      const sleepStart = await readThreadCpuMs(sleepId);
      const [spinOwnMs, spinId] = await Promise.all([spinning.done, spinning.threadId]);
      await sleeping.done;
      const [spinEnd, sleepEnd] = await Promise.all([readThreadCpuMs(spinId), readThreadCpuMs(sleepId)]);
      await Promise.all([spinning.worker.terminate(), sleeping.worker.terminate()]);
      // The spinning thread now sleeps: read from here, its clock is where it last read it itself.
      expect(spinEnd).toBeGreaterThanOrEqual(spinOwnMs - 0.001);
      expect(spinEnd! - spinOwnMs).toBeLessThan(50);
      expect(spinOwnMs).toBeGreaterThanOrEqual(300);
      expect(sleepEnd! - sleepStart!).toBeLessThan(50);
    });

    it("stops a thread that keeps the processor busy once it has run the limit", async () => {
      const { exceededAfterMs, cpuMs } = await watch(startThread("spin", 10_000), { timeLimitMs: 200, wallLimitMs: 8_000 });
      expect(exceededAfterMs).not.toBeNull();
      expect(exceededAfterMs).toBeGreaterThanOrEqual(200);
      expect(cpuMs).toBeGreaterThanOrEqual(200);
    });

    it("counts from the processor time the thread told at its start, without reading it again", async () => {
      const thread = startThread("spin", 10_000);
      const { threadId, cpuMs } = await thread.started;
      let reads = 0;
      const readCpuMs = (id: number) => {
        reads += 1;
        return readThreadCpuMs(id);
      };
      const exceededAfterMs = await new Promise<number>((resolve) => {
        const startedAt = performance.now();
        watchParseTime({
          threadId,
          startCpuMs: cpuMs,
          timeLimitMs: 200,
          wallLimitMs: 8_000,
          onExceeded: () => resolve(performance.now() - startedAt),
          readCpuMs,
        });
      });
      const ranMs = (await readThreadCpuMs(threadId))! - cpuMs;
      await thread.worker.terminate();
      expect(ranMs).toBeGreaterThanOrEqual(200);
      expect(exceededAfterMs).toBeGreaterThanOrEqual(200);
      // No read at the start: the first is made when the limit could first be reached.
      expect(reads).toBeGreaterThanOrEqual(1);
      expect(reads).toBeLessThan(20);
    });

    it("does not count the time a thread waits: one that sleeps three times the limit finishes", async () => {
      const { exceededAfterMs } = await watch(startThread("sleep", 600), { timeLimitMs: 200, wallLimitMs: 8_000 });
      expect(exceededAfterMs).toBeNull();
    });

    it("ends a thread that waits past the wall-clock bound", async () => {
      const { exceededAfterMs } = await watch(startThread("sleep", 10_000), { timeLimitMs: 100, wallLimitMs: 400 });
      expect(exceededAfterMs).toBeGreaterThanOrEqual(400);
      expect(exceededAfterMs).toBeLessThan(5_000);
    });

    it("counts the time that passes for a thread whose clock cannot be read", async () => {
      const { exceededAfterMs } = await watch(startThread("sleep", 10_000), { timeLimitMs: 200, wallLimitMs: 8_000 }, null);
      expect(exceededAfterMs).toBeGreaterThanOrEqual(200);
      expect(exceededAfterMs).toBeLessThan(5_000);
    });
  },
);
