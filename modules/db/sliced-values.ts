// Large bytea values (raw messages, webhook bodies) read a slice at a time (docs/architecture.md:
// Large values). PostgreSQL sends bytea as hex text, two bytes per byte, which node-postgres turns
// into a string and then into bytes on the event loop, in one go for each result. A 25 MiB message
// read in one result holds the loop for 25–35 ms (quiet two-core machine; several times that under
// load), and every other request with it. In slices of VALUE_SLICE_BYTES the longest hold is 6–9 ms,
// the loop serves other work between two slices, and the whole read is faster too (200 ms against
// 270–360 ms).
import type { SqlExecutor } from "./sql-executor";

/** The size of one slice, read or written (modules/inbound writes large values in slices of it too). */
export const VALUE_SLICE_BYTES = 256 * 1024;

/**
 * A bytea column of one row. Table and column are written by the code (quoted where needed),
 * never taken from input; `match` adds conditions the row must meet (its owner, say).
 */
export type ByteaRef = { table: string; column: string; id: string; match?: Record<string, string> };

function toRowCondition({ id, match = {} }: ByteaRef): { condition: string; params: string[] } {
  const columns = Object.keys(match);
  const condition = ["id = $1", ...columns.map((column, index) => `${column} = $${index + 2}`)].join(" AND ");
  return { condition, params: [id, ...columns.map((column) => match[column]!)] };
}

/**
 * Reads a value whose length is known, slice by slice, into one Buffer; null when the row or its
 * value went (or changed length) while it was read.
 */
export async function readByteaSlices(executor: SqlExecutor, ref: ByteaRef, length: number): Promise<Buffer | null> {
  const { condition, params } = toRowCondition(ref);
  const next = params.length + 1;
  const sql = `SELECT substring(${ref.column} FROM $${next} FOR $${next + 1}) AS slice FROM ${ref.table} WHERE ${condition}`;
  const whole = Buffer.allocUnsafe(length);
  for (let offset = 0; offset < length; offset += VALUE_SLICE_BYTES) {
    const [row] = await executor.query<{ slice: Uint8Array | null }>(sql, [...params, offset + 1, VALUE_SLICE_BYTES]);
    const expected = Math.min(VALUE_SLICE_BYTES, length - offset);
    if (!row?.slice || row.slice.byteLength !== expected) return null;
    whole.set(row.slice, offset);
  }
  return whole;
}

/**
 * Reads a value: undefined without the row, null when its value is null (or went while it was read).
 * A value of one slice or less comes with its length, in one statement; a larger one in slices.
 */
export async function readBytea(executor: SqlExecutor, ref: ByteaRef): Promise<Buffer | null | undefined> {
  const { condition, params } = toRowCondition(ref);
  const limit = params.length + 1;
  const [row] = await executor.query<{ length: number | null; value: Uint8Array | null }>(
    `SELECT octet_length(${ref.column}) AS length,
       CASE WHEN octet_length(${ref.column}) <= $${limit} THEN ${ref.column} END AS value
     FROM ${ref.table} WHERE ${condition}`,
    [...params, VALUE_SLICE_BYTES],
  );
  if (!row) return undefined;
  if (row.length === null) return null;
  if (row.value) return Buffer.from(row.value.buffer, row.value.byteOffset, row.value.byteLength);
  return readByteaSlices(executor, ref, row.length);
}
