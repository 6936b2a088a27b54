import { describe, expect, it } from "vitest";
import { type AppError, isAppError } from "@/modules/shared/errors/app-error";
import { createConcurrencyGate } from "./attachment-gate";

const deferred = () => {
  let resolve!: () => void;
  const promise = new Promise<void>((done) => {
    resolve = done;
  });
  return { promise, resolve };
};

describe("the attachment gate (docs/security.md: Large stored content)", () => {
  it("runs at most its places at once, lets the next waiter in as one ends, and answers 503 with Retry-After past its queue", async () => {
    const gate = createConcurrencyGate({ running: 2, waiting: 1 });
    const blockers = [deferred(), deferred(), deferred()];
    const started: number[] = [];
    const runs = blockers.map((blocker, index) =>
      gate.run(async () => {
        started.push(index);
        await blocker.promise;
        return index;
      }),
    );
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(started).toEqual([0, 1]);
    expect(gate.counts()).toEqual({ running: 2, waiting: 1 });

    const refused = await gate.run(async () => "never").catch((error: unknown) => error);
    expect(isAppError(refused)).toBe(true);
    expect((refused as AppError).httpStatus).toBe(503);
    expect((refused as AppError).code).toBe("service.unavailable");
    expect((refused as AppError).retryAfterSeconds).toBeGreaterThan(0);

    blockers[0]!.resolve();
    expect(await runs[0]).toBe(0);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(started).toEqual([0, 1, 2]);
    expect(gate.counts()).toEqual({ running: 2, waiting: 0 });

    blockers[1]!.resolve();
    blockers[2]!.resolve();
    expect(await Promise.all(runs)).toEqual([0, 1, 2]);
    expect(gate.counts()).toEqual({ running: 0, waiting: 0 });
  });

  it("gives its place back when a task fails", async () => {
    const gate = createConcurrencyGate({ running: 1, waiting: 0 });
    await expect(gate.run(async () => Promise.reject(new Error("decoding failed")))).rejects.toThrow("decoding failed");
    expect(await gate.run(async () => "next")).toBe("next");
    expect(gate.counts()).toEqual({ running: 0, waiting: 0 });
  });
});
