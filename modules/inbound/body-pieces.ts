// The main thread's end of a large message's webhook bodies (docs/architecture.md: Large values): the
// parsing thread posts each body in slices while it makes it (parsing/body-sinks.ts), their memory
// transferred; each is handed to the writer (which stages it in the database) one at a time, and
// answered once written with its memory, for the thread to reuse (parsing/posting-sink.ts).
import { MessageChannel, type MessagePort } from "node:worker_threads";
import type { BodyPiece, BodyPieceAck } from "./parsing/body-sinks";

/** A slice of the body at `body` (the request's place), to be put at (part, seq) of it. */
export type BodyPieceWriter = (piece: { body: number; part: number; seq: number; bytes: Buffer }) => Promise<void>;

/** A port for the thread, and `settle`: the task's outcome once every piece received is written. */
export function receiveBodyPieces(writePiece: BodyPieceWriter): {
  port: MessagePort;
  settle: <T>(run: Promise<T>) => Promise<T>;
} {
  const { port1, port2 } = new MessageChannel();
  let writing: Promise<void> = Promise.resolve();
  let failure: { error: unknown } | undefined;
  port1.on("message", ({ body, part, seq, bytes, byteLength }: BodyPiece) => {
    writing = writing.then(async () => {
      if (!failure) {
        try {
          await writePiece({ body, part, seq, bytes: Buffer.from(bytes, 0, byteLength) });
        } catch (error) {
          failure = { error };
        }
      }
      // Answered even when not written (the thread goes on, its outcome is this failure), with the
      // slice's memory for the thread to reuse: written, it is no longer read here.
      port1.postMessage({ bytes } satisfies BodyPieceAck, [bytes]);
    });
  });
  return {
    port: port2,
    settle: async (run) => {
      try {
        const result = await run;
        await writing;
        if (failure) throw failure.error;
        return result;
      } finally {
        // Pieces still on their way (a thread stopped midway) are dropped, never written.
        port1.close();
        await writing;
      }
    },
  };
}
