// Large values staged in slices before the transaction that writes their row (docs/architecture.md:
// Large values). node-postgres copies every parameter of a statement into one protocol message: a
// 25 MiB value sent as a parameter is a second 25 MiB in the process until it is sent. So a large value
// goes to the unlogged table value_upload_slice one slice (VALUE_SLICE_BYTES at most) per statement,
// under an upload id, each slice with its place (part, then seq); the writing transaction joins the
// slices into the row with joinUploadSql and deletes them. Slices may come in any order.
import { randomUUID } from "node:crypto";
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

const INSERT_SLICE = `INSERT INTO value_upload_slice (upload_id, part, seq, bytes) VALUES ($1, $2, $3, $4)`;

export async function stageSlice(executor: SqlExecutor, { uploadId, part, seq, bytes }: UploadSlice): Promise<void> {
  if (bytes.byteLength > VALUE_SLICE_BYTES) throw new Error(`a staged slice holds at most ${VALUE_SLICE_BYTES} bytes`);
  await executor.query(INSERT_SLICE, [uploadId, part, seq, bytes]);
}

/** Stages a whole value, a slice per statement, as part 0 of the upload `uploadId`. */
export async function stageValue(executor: SqlExecutor, uploadId: string, value: Uint8Array): Promise<StagedValue> {
  const bytes = Buffer.from(value.buffer, value.byteOffset, value.byteLength);
  for (let offset = 0, seq = 0; offset < bytes.length; offset += VALUE_SLICE_BYTES, seq += 1) {
    await stageSlice(executor, { uploadId, part: 0, seq, bytes: bytes.subarray(offset, offset + VALUE_SLICE_BYTES) });
  }
  return { uploadId, byteLength: value.byteLength };
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
