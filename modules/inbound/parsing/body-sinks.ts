// Where a parsing thread puts a webhook body's pieces (webhook-pieces.ts; docs/architecture.md: Large
// values). A small message's body is joined in the thread into one Buffer, as it is sent back with the
// message. A large one is posted to the main thread as it is made, in slices of at most
// BODY_PIECE_MAX_BYTES (their memory transferred, not copied), which the main thread writes to the
// database (posting-sink.ts).
import type { BodySink } from "./webhook-pieces";

/** The body as one Buffer, its parts joined in order once all are known. */
export function createJoiningSink(): BodySink<Buffer> {
  const parts = new Map<number, string[]>();
  return {
    append: (part, text) => {
      const texts = parts.get(part);
      if (texts) texts.push(text);
      else parts.set(part, [text]);
    },
    endPart: () => {},
    finish: async () => {
      const ordered = [...parts.keys()].sort((left, right) => left - right).flatMap((part) => parts.get(part)!);
      if (ordered.length === 1) return Buffer.from(ordered[0]!, "utf8");
      const body = Buffer.allocUnsafe(ordered.reduce((total, text) => total + Buffer.byteLength(text, "utf8"), 0));
      let offset = 0;
      for (const text of ordered) offset += body.write(text, offset, "utf8");
      return body;
    },
  };
}

/** A slice of a body posted to the main thread: its place in the body (part, then seq) and its bytes. */
export type BodyPiece = { body: number; part: number; seq: number; bytes: ArrayBuffer; byteLength: number };

/** What the main thread answers each piece with once it is written (or failed to be): its memory, back for reuse. */
export type BodyPieceAck = { bytes: ArrayBuffer };

/** What a body posted in pieces comes back as. */
export type PostedBody = { kind: "posted"; byteLength: number };
