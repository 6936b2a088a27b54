// Large bytea values (raw messages, webhook bodies) read a slice at a time (docs/architecture.md:
// Large values). PostgreSQL sends bytea as hex text, two bytes per byte, which node-postgres turns
// into a string and then into bytes on the event loop, in one go for each result (a slice is asked
// for as base64 instead: 4 bytes per 3). A 25 MiB message
// read in one result holds the loop for 25–35 ms (quiet two-core machine; several times that under
// load), and every other request with it. In slices of VALUE_SLICE_BYTES the longest hold is 6–9 ms,
// the loop serves other work between two slices, and the whole read is faster too (200 ms against
// 270–360 ms). Downloads go further and stream the slices (openBytea), so that the memory a download
// holds is one slice, not the whole value.
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

/** The slice at `offset` of a value `length` long; null when the row or its value went (or changed length). */
async function readSlice(executor: SqlExecutor, ref: ByteaRef, offset: number, length: number): Promise<Buffer | null> {
  const { condition, params } = toRowCondition(ref);
  const next = params.length + 1;
  // As base64 text, not bytea's hex: a third less text for the driver to make into a string on the
  // event loop, and decoding it takes less time than hex's.
  const [row] = await executor.query<{ slice: string | null }>(
    `SELECT encode(substring(${ref.column} FROM $${next} FOR $${next + 1}), 'base64') AS slice FROM ${ref.table} WHERE ${condition}`,
    [...params, offset + 1, VALUE_SLICE_BYTES],
  );
  const expected = Math.min(VALUE_SLICE_BYTES, length - offset);
  const slice = row?.slice == null ? null : Buffer.from(row.slice, "base64");
  return slice && slice.byteLength === expected ? slice : null;
}

/**
 * Reads a value whose length is known, slice by slice, into one Buffer; null when the row or its
 * value went (or changed length) while it was read.
 */
export async function readByteaSlices(executor: SqlExecutor, ref: ByteaRef, length: number): Promise<Buffer | null> {
  const whole = Buffer.allocUnsafe(length);
  for (let offset = 0; offset < length; offset += VALUE_SLICE_BYTES) {
    const slice = await readSlice(executor, ref, offset, length);
    if (!slice) return null;
    whole.set(slice, offset);
  }
  return whole;
}

/**
 * The value's length and, when it is one slice or less, the value itself, in one statement:
 * undefined without the row, null when its value is null.
 */
async function readFirstSlice(
  executor: SqlExecutor,
  ref: ByteaRef,
): Promise<{ length: number; value: Buffer | null } | null | undefined> {
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
  const { value } = row;
  return { length: row.length, value: value ? Buffer.from(value.buffer, value.byteOffset, value.byteLength) : null };
}

/**
 * Reads a value: undefined without the row, null when its value is null (or went while it was read).
 * A value of one slice or less comes with its length, in one statement; a larger one in slices.
 */
export async function readBytea(executor: SqlExecutor, ref: ByteaRef): Promise<Buffer | null | undefined> {
  const first = await readFirstSlice(executor, ref);
  if (first === undefined || first === null) return first;
  return first.value ?? readByteaSlices(executor, ref, first.length);
}

/** A value's size in bytes, without reading it: undefined without the row, null when its value is null. */
export async function measureBytea(executor: SqlExecutor, ref: ByteaRef): Promise<number | null | undefined> {
  const { condition, params } = toRowCondition(ref);
  const [row] = await executor.query<{ length: number | string | null }>(
    `SELECT octet_length(${ref.column}) AS length FROM ${ref.table} WHERE ${condition}`,
    params,
  );
  if (!row) return undefined;
  return row.length === null ? null : Number(row.length);
}

/** A value opened for a download: its size, and its bytes as a stream that reads a slice when the reader asks for one. */
export type OpenedBytea = { byteLength: number; stream: ReadableStream<Uint8Array> };

/**
 * Opens a value as a stream: undefined without the row, null when its value is null. A download of
 * 25 MiB then holds one slice in this process at a time, however many downloads run and however
 * slowly their clients read. The stream fails when the value goes or changes while it is read.
 */
export async function openBytea(executor: SqlExecutor, ref: ByteaRef): Promise<OpenedBytea | null | undefined> {
  const first = await readFirstSlice(executor, ref);
  if (first === undefined || first === null) return first;
  const { length, value } = first;
  let offset = 0;
  const stream = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        const slice = offset === 0 && value ? value : await readSlice(executor, ref, offset, length);
        if (!slice) return controller.error(new Error(`${ref.table}.${ref.column} of ${ref.id} changed while it was read`));
        if (slice.byteLength > 0) controller.enqueue(slice);
        offset += slice.byteLength;
        if (offset >= length) controller.close();
      },
    },
    { highWaterMark: 0 },
  );
  return { byteLength: length, stream };
}

/** The slices of an opened value, one at a time; leaving the loop early stops reading it. */
export async function* eachSlice(stream: ReadableStream<Uint8Array>): AsyncGenerator<Uint8Array> {
  const reader = stream.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      yield value;
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
}
