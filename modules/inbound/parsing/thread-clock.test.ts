import { describe, expect, it } from "vitest";
import { currentThreadId, openOwnCpuClock, readThreadCpuMs } from "./thread-clock";

describe.runIf(process.platform === "linux")(
  "a thread's processor-time clock (docs/architecture.md: The parse time limit)",
  () => {
    it("reads the calling thread's own clock, kept open, as others read it from outside, and it moves with the thread's work", async () => {
      const ownClock = openOwnCpuClock();
      const threadId = currentThreadId();
      expect(ownClock).not.toBeNull();
      expect(threadId).not.toBeNull();
      // Busy until the clock says 100 ms ran (at most 10 s, on a machine too loaded to give them).
      const before = ownClock!()!;
      const startedAt = performance.now();
      while (ownClock!()! - before < 100 && performance.now() - startedAt < 10_000) {}
      const wallMs = performance.now() - startedAt;
      const after = ownClock!()!;
      const outside = (await readThreadCpuMs(threadId!))!;
      expect(after - before).toBeGreaterThanOrEqual(100);
      // A thread cannot run longer than the time that passed.
      expect(wallMs).toBeGreaterThanOrEqual(after - before - 5);
      expect(outside).toBeGreaterThanOrEqual(after);
      expect(outside - after).toBeLessThan(50);
    });

    it("has no clock for a thread that does not exist", async () => {
      expect(await readThreadCpuMs(2 ** 30)).toBeNull();
    });
  },
);
