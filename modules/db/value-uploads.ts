// Large values staged in slices before the transaction that writes their row (docs/architecture.md:
// Large values). node-postgres copies every parameter of a statement into one protocol message: a
// 25 MiB value sent as a parameter is a second 25 MiB in the process until it is sent. So a large value
// goes to the unlogged table value_upload_slice one slice (VALUE_SLICE_BYTES at most) at a time,
// under an upload id, each slice with its place (part, then seq); the writing transaction joins the
// slices into the row with joinUploadSql and deletes them. Slices may come in any order. A slice goes
// by COPY in PostgreSQL's binary format: its bytes are written to the connection as they are, where
// a statement's parameter would be copied into a new buffer of the driver's for every slice (garbage
// the size of the value, left for the collector).
import { randomUUID } from "node:crypto";
import fs from "node:fs/promises";
import { VALUE_SLICE_BYTES } from "./sliced-values";
import type { SqlExecutor } from "./sql-executor";

/** A value whose bytes are staged under `uploadId`, `byteLength` in all. */
export type StagedValue = { uploadId: string; byteLength: number };

export const isStagedValue = (value: unknown): value is StagedValue =>
  typeof value === "object" && value !== null && typeof (value as StagedValue).uploadId === "string";

/** An id for a new upload. */
export const createUploadId = () => randomUUID();

/** One slice of an upload: its place in the value (part, then seq) and its bytes (one slice at most). */
export type UploadSlice = { uploadId: string; part: number; seq: number; bytes: Uint8Array };

const COPY_SLICE = "COPY value_upload_slice (upload_id, part, seq, bytes) FROM STDIN (FORMAT binary)";

/** The binary COPY format's signature, flags and header extension (none), then one row of 4 columns. */
const COPY_HEADER = Buffer.from([...Buffer.from("PGCOPY\n\xff\r\n\0", "latin1"), 0, 0, 0, 0, 0, 0, 0, 0]);
/** The end of the data: a row of -1 columns. */
const COPY_TRAILER = Buffer.from([0xff, 0xff]);

/** One row of value_upload_slice in the binary COPY format, up to the bytes (which follow it as they are). */
function encodeSliceRow({ uploadId, part, seq, bytes }: UploadSlice): Buffer {
  const id = Buffer.from(uploadId, "utf8");
  const row = Buffer.allocUnsafe(2 + 4 + id.length + 8 + 8 + 4);
  let offset = row.writeInt16BE(4, 0);
  offset = row.writeInt32BE(id.length, offset);
  offset += id.copy(row, offset);
  offset = row.writeInt32BE(4, offset);
  offset = row.writeInt32BE(part, offset);
  offset = row.writeInt32BE(4, offset);
  offset = row.writeInt32BE(seq, offset);
  row.writeInt32BE(bytes.byteLength, offset);
  return row;
}

/** Stages one slice; its bytes may be reused once it resolves. */
export async function stageSlice(executor: SqlExecutor, slice: UploadSlice): Promise<void> {
  if (slice.bytes.byteLength > VALUE_SLICE_BYTES) throw new Error(`a staged slice holds at most ${VALUE_SLICE_BYTES} bytes`);
  await executor.copyFrom(COPY_SLICE, [Buffer.concat([COPY_HEADER, encodeSliceRow(slice)]), slice.bytes, COPY_TRAILER]);
}

/** Stages a whole value, a slice per statement, as part 0 of the upload `uploadId`. */
export async function stageValue(executor: SqlExecutor, uploadId: string, value: Uint8Array): Promise<StagedValue> {
  const bytes = Buffer.from(value.buffer, value.byteOffset, value.byteLength);
  for (let offset = 0, seq = 0; offset < bytes.length; offset += VALUE_SLICE_BYTES, seq += 1) {
    await stageSlice(executor, { uploadId, part: 0, seq, bytes: bytes.subarray(offset, offset + VALUE_SLICE_BYTES) });
  }
  return { uploadId, byteLength: value.byteLength };
}

/**
 * Stages the bytes of a file, a slice per statement, as part 0 of the upload `uploadId`: each slice
 * is read into one Buffer, reused once the slice is written (the file is never held whole).
 */
export async function stageFile(executor: SqlExecutor, uploadId: string, filePath: string): Promise<StagedValue> {
  const file = await fs.open(filePath, "r");
  const slice = Buffer.allocUnsafe(VALUE_SLICE_BYTES);
  let byteLength = 0;
  try {
    for (let seq = 0; ; seq += 1) {
      const { bytesRead } = await file.read(slice, 0, slice.length, byteLength);
      if (bytesRead === 0) break;
      await stageSlice(executor, { uploadId, part: 0, seq, bytes: slice.subarray(0, bytesRead) });
      byteLength += bytesRead;
    }
  } finally {
    await file.close();
  }
  return { uploadId, byteLength };
}

/** SQL for the value staged under the upload id in parameter `parameter` (null when nothing is staged). */
export const joinUploadSql = (parameter: number) =>
  `(SELECT string_agg(bytes, ''::bytea ORDER BY part, seq) FROM value_upload_slice WHERE upload_id = $${parameter})`;

const DELETE_UPLOADS = `DELETE FROM value_upload_slice WHERE upload_id = ANY($1::text[])`;

/** Deletes what is staged under these uploads (written, or given up). */
export async function deleteUploads(executor: SqlExecutor, uploadIds: string[]): Promise<void> {
  if (uploadIds.length > 0) await executor.query(DELETE_UPLOADS, [uploadIds]);
}

const DELETE_STALE_SLICES = `
  DELETE FROM value_upload_slice WHERE created_at < $1::timestamptz - $2::int * interval '1 millisecond'
  RETURNING upload_id`;

/** Deletes the slices staged longer than `maxAgeMs` ago (left by a process that stopped); answers how many went. */
export async function deleteStaleUploadSlices(
  executor: SqlExecutor,
  { now, maxAgeMs }: { now: Date; maxAgeMs: number },
): Promise<number> {
  return (await executor.query(DELETE_STALE_SLICES, [now.toISOString(), maxAgeMs])).length;
}
