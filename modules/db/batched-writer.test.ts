import { describe, expect, it } from "vitest";
import { createBatchedWriter } from "./batched-writer";

describe("createBatchedWriter", () => {
  it("writes an item alone at once, and the items that arrive meanwhile together, at most maxBatch at a time", async () => {
    const calls: number[][] = [];
    const write = createBatchedWriter<number, string>(2, async (items) => {
      calls.push(items);
      await new Promise((resolve) => setTimeout(resolve, 5));
      return items.map((item) => `done ${item}`);
    });
    const results = await Promise.all([1, 2, 3, 4, 5].map((item) => write(item)));
    expect(results).toEqual(["done 1", "done 2", "done 3", "done 4", "done 5"]);
    expect(calls).toEqual([[1], [2, 3], [4, 5]]);
  });

  it("rejects the items of a failed write only, and goes on with the next", async () => {
    let call = 0;
    const write = createBatchedWriter<number, number>(10, async (items) => {
      call += 1;
      if (call === 2) throw new Error("connection reset");
      return items;
    });
    const outcomes = await Promise.allSettled([1, 2, 3].map((item) => write(item)));
    expect(outcomes.map((outcome) => outcome.status)).toEqual(["fulfilled", "rejected", "rejected"]);
    expect(await write(4)).toBe(4);
  });
});
