// Joining received chunks into the one Buffer a message is handed on as, without holding the event
// loop (docs/architecture.md: The main thread answers). Buffer.concat copies every byte in one
// synchronous step: for a 25 MiB message that is one long stop of every other session and request
// (tens of milliseconds on an idle machine, over a hundred on a busy one, mostly the first touch of
// the new memory's pages). Here the copy goes a slice at a time, and the loop serves others between
// two slices.

/** Bytes copied between two turns of the event loop. */
export const JOIN_SLICE_BYTES = 1024 * 1024;

/**
 * The chunks joined into one new Buffer of `total` bytes, as Buffer.concat(chunks, total) makes it
 * (cut at `total`, zeros after the last chunk if they are shorter), yielding to the event loop
 * after every JOIN_SLICE_BYTES copied.
 */
export async function joinChunks(chunks: readonly Uint8Array[], total: number): Promise<Buffer> {
  if (total <= JOIN_SLICE_BYTES) return Buffer.concat(chunks, total);
  const whole = Buffer.allocUnsafe(total);
  let offset = 0;
  for (const chunk of chunks) {
    for (let start = 0; start < chunk.byteLength && offset < total; ) {
      const length = Math.min(chunk.byteLength - start, JOIN_SLICE_BYTES - (offset % JOIN_SLICE_BYTES), total - offset);
      whole.set(chunk.subarray(start, start + length), offset);
      start += length;
      offset += length;
      if (offset % JOIN_SLICE_BYTES === 0) await new Promise<void>((resolve) => setImmediate(resolve));
    }
  }
  whole.fill(0, offset);
  return whole;
}
