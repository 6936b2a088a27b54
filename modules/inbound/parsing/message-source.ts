// A received message as a parsing thread reads it: its bytes, moved from the main thread, or the
// file a large SMTP message was spooled to as it arrived, read as a Blob (docs/architecture.md: Large
// values). A spooled message is never whole in memory: the checks and the parse each read the file
// a slice at a time.
import fs from "node:fs";
import { Readable } from "node:stream";
import { readBlob } from "@/modules/shared/bytes/read-blob";

/** A message in a file of the spool: where it is, and how long it is. */
export type SpooledMessage = { spoolPath: string; byteLength: number };

/** The message's bytes in memory, or its spooled file. */
export type MessageSource = Buffer | Blob;

export const isSpooledMessage = (value: unknown): value is SpooledMessage =>
  typeof value === "object" && value !== null && typeof (value as SpooledMessage).spoolPath === "string";

/** The spooled file as a Blob, read only when it is read; refused when the file is not the message it was. */
export async function openSpooledMessage({ spoolPath, byteLength }: SpooledMessage): Promise<Blob> {
  const blob = await fs.openAsBlob(spoolPath);
  if (blob.size !== byteLength) throw new Error(`the spooled message holds ${blob.size} bytes, not ${byteLength}`);
  return blob;
}

/**
 * The message as a stream of slices: views of the bytes in memory (no copy), or the file's chunks
 * as they are read. Fed in slices with backpressure, a parser holds about a slice in flight.
 */
export function readInSlices(source: MessageSource, sliceBytes: number): Readable {
  if (!Buffer.isBuffer(source)) return readBlob(source);
  let offset = 0;
  return new Readable({
    read() {
      if (offset >= source.length) return void this.push(null);
      const end = Math.min(offset + sliceBytes, source.length);
      this.push(source.subarray(offset, end));
      offset = end;
    },
  });
}
