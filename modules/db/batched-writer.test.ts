import { describe, expect, it } from "vitest";
import { createBatchedWriter } from "./batched-writer";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("createBatchedWriter", () => {
  it("writes an item alone at once, and the items that arrive meanwhile together, at most maxBatch at a time", async () => {
    const calls: number[][] = [];
    const writer = createBatchedWriter<number, string>({ maxBatch: 2 }, async (items) => {
      calls.push(items);
      await sleep(5);
      return items.map((item) => `done ${item}`);
    });
    const { write } = writer;
    const results = await Promise.all([1, 2, 3, 4, 5].map((item) => write(item)));
    expect(results).toEqual(["done 1", "done 2", "done 3", "done 4", "done 5"]);
    expect(calls).toEqual([[1], [2, 3], [4, 5]]);
    expect(writer.getStats()).toEqual({ writes: 3, items: 5 });
  });

  it("rejects the items of a failed write only, and goes on with the next", async () => {
    let call = 0;
    const writer = createBatchedWriter<number, number>({ maxBatch: 10 }, async (items) => {
      call += 1;
      if (call === 2) throw new Error("connection reset");
      return items;
    });
    const { write } = writer;
    const outcomes = await Promise.allSettled([1, 2, 3].map((item) => write(item)));
    expect(outcomes.map((outcome) => outcome.status)).toEqual(["fulfilled", "rejected", "rejected"]);
    expect(await write(4)).toBe(4);
  });

  it("with a window, holds the first item until the window ends and writes what arrived meanwhile with it", async () => {
    const calls: number[][] = [];
    const writer = createBatchedWriter<number, number>({ maxBatch: 10, windowMs: 30 }, async (items) => {
      calls.push(items);
      return items;
    });
    const { write } = writer;
    const first = write(1);
    await sleep(5);
    expect(calls).toEqual([]);
    const second = write(2);
    expect(await Promise.all([first, second])).toEqual([1, 2]);
    expect(calls).toEqual([[1, 2]]);
  });

  it("with a window, writes at once when maxBatch items are waiting", async () => {
    const calls: number[][] = [];
    const writer = createBatchedWriter<number, number>({ maxBatch: 3, windowMs: 10_000 }, async (items) => {
      calls.push(items);
      return items;
    });
    const { write } = writer;
    const startedAt = performance.now();
    expect(await Promise.all([1, 2, 3].map((item) => write(item)))).toEqual([1, 2, 3]);
    expect(performance.now() - startedAt).toBeLessThan(1000);
    expect(calls).toEqual([[1, 2, 3]]);
  });
});
