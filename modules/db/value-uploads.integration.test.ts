// Staging large values by COPY (docs/architecture.md: Large values), on a fresh test database.
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase } from "@/tests/support/test-database";
import type { Database } from "./db";
import { VALUE_SLICE_BYTES } from "./sliced-values";
import { createUploadId, deleteUploads, joinUploadSql, stageSlice, stageValue } from "./value-uploads";

let database: Database;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database?.close();
});

const readUpload = async (uploadId: string) => {
  const [row] = await database.executor.query<{ value: Buffer | null }>(`SELECT ${joinUploadSql(1)} AS value`, [uploadId]);
  return row?.value ?? null;
};

describe("staging a value in slices by COPY", () => {
  it("joins the slices of an upload into the value byte for byte, by part then seq, whatever order they came in", async () => {
    const uploadId = createUploadId();
    const slices = [randomBytes(VALUE_SLICE_BYTES), randomBytes(17), randomBytes(VALUE_SLICE_BYTES), randomBytes(1)];
    const places = [
      { part: 0, seq: 0 },
      { part: 0, seq: 1 },
      { part: 2, seq: 0 },
      { part: 1, seq: 7 },
    ];
    for (const index of [2, 0, 3, 1]) await stageSlice(database.executor, { uploadId, ...places[index]!, bytes: slices[index]! });
    expect((await readUpload(uploadId))?.equals(Buffer.concat([slices[0]!, slices[1]!, slices[3]!, slices[2]!]))).toBe(true);
    await deleteUploads(database.executor, [uploadId]);
    expect(await readUpload(uploadId)).toBeNull();
  });

  it("stages a whole value a slice at a time, a view into larger memory included", async () => {
    const memory = randomBytes(3 * VALUE_SLICE_BYTES + 100);
    const value = new Uint8Array(memory.buffer, memory.byteOffset + 50, 3 * VALUE_SLICE_BYTES);
    const uploadId = createUploadId();
    expect(await stageValue(database.executor, uploadId, value)).toEqual({ uploadId, byteLength: value.byteLength });
    expect((await readUpload(uploadId))?.equals(value)).toBe(true);
  });

  it("rejects a slice staged twice at one place, and the connection it used serves the next statement", async () => {
    const uploadId = createUploadId();
    await stageSlice(database.executor, { uploadId, part: 0, seq: 0, bytes: Buffer.from("first") });
    await expect(stageSlice(database.executor, { uploadId, part: 0, seq: 0, bytes: Buffer.from("again") })).rejects.toMatchObject(
      {
        code: "23505",
      },
    );
    expect(await database.executor.query("SELECT 1 AS one")).toEqual([{ one: 1 }]);
    expect((await readUpload(uploadId))?.toString()).toBe("first");
  });

  it("refuses a slice over VALUE_SLICE_BYTES before sending anything", async () => {
    const uploadId = createUploadId();
    await expect(
      stageSlice(database.executor, { uploadId, part: 0, seq: 0, bytes: Buffer.alloc(VALUE_SLICE_BYTES + 1) }),
    ).rejects.toThrow(/at most/);
    expect(await readUpload(uploadId)).toBeNull();
  });
});
