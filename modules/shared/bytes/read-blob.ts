// A Blob (a file opened with fs.openAsBlob, say) as a Node stream of Buffers, read a chunk at a
// time: the web stream gives Uint8Arrays, which stream parsers that call Buffer methods cannot take.
import { Readable } from "node:stream";

async function* eachChunk(blob: Blob): AsyncGenerator<Buffer> {
  for await (const chunk of blob.stream() as unknown as AsyncIterable<Uint8Array>) {
    yield Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
  }
}

/** The Blob's bytes as a stream of Buffers (views of each chunk read, never a copy). */
export const readBlob = (blob: Blob): Readable => Readable.from(eachChunk(blob), { objectMode: false });
