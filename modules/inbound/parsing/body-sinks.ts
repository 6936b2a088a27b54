// Where a parsing thread puts a webhook body's pieces (webhook-pieces.ts; docs/architecture.md: Large
// values). A small message's body is joined in the thread into one Buffer, as it is sent back with the
// message. A large one is posted to the main thread as it is made, in slices of at most
// BODY_PIECE_MAX_BYTES (their memory transferred, not copied), which the main thread writes to the
// database; the thread waits when more than BODY_PIECES_IN_FLIGHT_BYTES wait to be written.
import type { MessagePort } from "node:worker_threads";
import { BODY_PIECE_MAX_BYTES } from "./parsing.constants";
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
export type BodyPiece = { body: number; part: number; seq: number; bytes: ArrayBuffer };

/** What the main thread answers each piece with, once it is written (or failed to be). */
export type BodyPieceAck = { byteLength: number };

/** What a body posted in pieces comes back as. */
export type PostedBody = { kind: "posted"; byteLength: number };

/** Bytes of pieces posted and not yet written past which the thread waits (a few slices). */
export const BODY_PIECES_IN_FLIGHT_BYTES = 3 * 1024 * 1024;

/** The pieces posted through one port, and the flow control all bodies of a message share. */
export function createPieceChannel(port: MessagePort) {
  let inFlight = 0;
  let waiters: (() => void)[] = [];
  port.on("message", ({ byteLength }: BodyPieceAck) => {
    inFlight -= byteLength;
    if (inFlight > BODY_PIECES_IN_FLIGHT_BYTES) return;
    const woken = waiters;
    waiters = [];
    for (const wake of woken) wake();
  });
  const waitUntil = (isDone: () => boolean) =>
    new Promise<void>((resolve) => {
      const check = () => (isDone() ? resolve() : waiters.push(check));
      check();
    });
  return {
    post: async (piece: BodyPiece) => {
      inFlight += piece.bytes.byteLength;
      port.postMessage(piece, [piece.bytes]);
      await waitUntil(() => inFlight <= BODY_PIECES_IN_FLIGHT_BYTES);
    },
    /** Resolves once every piece posted is written. */
    drain: () => waitUntil(() => inFlight === 0),
    close: () => port.close(),
  };
}

export type PieceChannel = ReturnType<typeof createPieceChannel>;

/** Body `body` of the message, posted through `channel` in slices of at most BODY_PIECE_MAX_BYTES. */
export function createPostingSink(channel: PieceChannel, body: number): BodySink<PostedBody> {
  const pending = new Map<number, { chunks: Buffer[]; bytes: number; seq: number }>();
  let byteLength = 0;
  const post = async (part: number, state: { chunks: Buffer[]; bytes: number; seq: number }, length: number) => {
    const slice = new Uint8Array(length);
    let filled = 0;
    while (filled < length) {
      const chunk = state.chunks[0]!;
      const taken = Math.min(chunk.length, length - filled);
      slice.set(chunk.subarray(0, taken), filled);
      filled += taken;
      if (taken === chunk.length) state.chunks.shift();
      else state.chunks[0] = chunk.subarray(taken);
    }
    state.bytes -= length;
    byteLength += length;
    const seq = state.seq;
    state.seq += 1;
    await channel.post({ body, part, seq, bytes: slice.buffer });
  };
  const stateOf = (part: number) => {
    const known = pending.get(part);
    if (known) return known;
    const state = { chunks: [] as Buffer[], bytes: 0, seq: 0 };
    pending.set(part, state);
    return state;
  };
  return {
    append: async (part, text) => {
      if (text.length === 0) return;
      const state = stateOf(part);
      const bytes = Buffer.from(text, "utf8");
      state.chunks.push(bytes);
      state.bytes += bytes.length;
      while (state.bytes >= BODY_PIECE_MAX_BYTES) await post(part, state, BODY_PIECE_MAX_BYTES);
    },
    endPart: async (part) => {
      const state = pending.get(part);
      if (state && state.bytes > 0) await post(part, state, state.bytes);
      pending.delete(part);
    },
    finish: async () => {
      for (const part of [...pending.keys()]) {
        const state = pending.get(part)!;
        if (state.bytes > 0) await post(part, state, state.bytes);
      }
      pending.clear();
      return { kind: "posted", byteLength };
    },
  };
}
