import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { JOIN_SLICE_BYTES, joinChunks } from "./join-chunks";

const chunksOf = (bytes: Buffer, size: number) =>
  Array.from({ length: Math.ceil(bytes.length / size) }, (_, index) => bytes.subarray(index * size, (index + 1) * size));

describe("joinChunks (docs/architecture.md: The main thread answers)", () => {
  it("joins chunks byte for byte as Buffer.concat does, small and several slices long, chunks of any size", async () => {
    const bytes = randomBytes(3 * JOIN_SLICE_BYTES + 12_345);
    for (const size of [1000, 65_536, JOIN_SLICE_BYTES + 7, bytes.length]) {
      expect((await joinChunks(chunksOf(bytes, size), bytes.length)).equals(bytes)).toBe(true);
    }
    const small = bytes.subarray(0, 5000);
    expect((await joinChunks(chunksOf(small, 999), small.length)).equals(small)).toBe(true);
  });

  it("cuts at the total and fills with zeros past the chunks, as Buffer.concat(chunks, total)", async () => {
    const bytes = randomBytes(2 * JOIN_SLICE_BYTES);
    const chunks = chunksOf(bytes, 65_536);
    const cut = bytes.length - 100_000;
    expect((await joinChunks(chunks, cut)).equals(Buffer.concat(chunks, cut))).toBe(true);
    const longer = bytes.length + 10;
    expect((await joinChunks(chunks, longer)).equals(Buffer.concat(chunks, longer))).toBe(true);
  });

  it("lets the event loop run between slices: a timer due meanwhile fires before a 24 MiB join ends", async () => {
    const bytes = Buffer.alloc(24 * 1024 * 1024, 7);
    const order: string[] = [];
    setImmediate(() => order.push("other work"));
    const joined = joinChunks(chunksOf(bytes, 65_536), bytes.length).then(() => order.push("joined"));
    await joined;
    expect(order).toEqual(["other work", "joined"]);
  });
});
