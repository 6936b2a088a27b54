// A large message's webhook bodies posted to the main thread while they are made (docs/architecture.md:
// Large values). Each part of a body is written into slices of BODY_PIECE_MAX_BYTES, posted as they
// fill (their memory transferred, not copied); the main thread writes each to the database and
// answers with its memory, which the next slices reuse: a 25 MiB body goes through a dozen slices,
// not a hundred, and leaves no garbage to collect on either side. The thread waits while more than
// BODY_PIECES_IN_FLIGHT_BYTES of slices are unanswered.
import type { MessagePort } from "node:worker_threads";
import type { BodyPiece, BodyPieceAck, PostedBody } from "./body-sinks";
import { BODY_PIECE_MAX_BYTES } from "./parsing.constants";
import type { BodySink } from "./webhook-pieces";

/** Slices posted and not yet answered past which the thread waits (a few slices' memory). */
export const BODY_PIECES_IN_FLIGHT_BYTES = 3 * 1024 * 1024;

/** Slices kept for reuse at most. */
const KEPT_SLICES = 16;

/** The slices posted through one port, their flow control and their reuse, for all bodies of a message. */
export function createPieceChannel(port: MessagePort) {
  let inFlight = 0;
  let waiters: (() => void)[] = [];
  const free: ArrayBuffer[] = [];
  port.on("message", ({ bytes }: BodyPieceAck) => {
    inFlight -= bytes.byteLength;
    if (free.length < KEPT_SLICES) free.push(bytes);
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
    /** A slice's memory to fill: one answered back, else a new one. */
    takeSlice: (): ArrayBuffer => free.pop() ?? new ArrayBuffer(BODY_PIECE_MAX_BYTES),
    /** Posts a filled slice (its memory moves); waits while too many are unanswered. */
    post: async (piece: BodyPiece) => {
      // Counted by its memory, not its bytes: a slice holding a short tail takes as much room.
      inFlight += piece.bytes.byteLength;
      port.postMessage(piece, [piece.bytes]);
      await waitUntil(() => inFlight <= BODY_PIECES_IN_FLIGHT_BYTES);
    },
    /** Resolves once every slice posted is answered. */
    drain: () => waitUntil(() => inFlight === 0),
    close: () => port.close(),
  };
}

export type PieceChannel = ReturnType<typeof createPieceChannel>;

type PartState = { slice: ArrayBuffer; view: Buffer; filled: number; seq: number };

/** Body `body` of the message, posted through `channel` in slices of at most BODY_PIECE_MAX_BYTES. */
export function createPostingSink(channel: Pick<PieceChannel, "takeSlice" | "post">, body: number): BodySink<PostedBody> {
  const parts = new Map<number, PartState>();
  let byteLength = 0;
  const open = (seq: number): PartState => {
    const slice = channel.takeSlice();
    return { slice, view: Buffer.from(slice), filled: 0, seq };
  };
  const post = async (part: number, state: PartState) => {
    byteLength += state.filled;
    await channel.post({ body, part, seq: state.seq, bytes: state.slice, byteLength: state.filled });
  };
  /** Writes `length` bytes through `write` (given the room left, answers how much it wrote), posting full slices. */
  const fill = async (part: number, length: number, write: (state: PartState, offset: number, room: number) => number) => {
    let state = parts.get(part) ?? open(0);
    parts.set(part, state);
    for (let offset = 0; offset < length; ) {
      if (state.filled === BODY_PIECE_MAX_BYTES) {
        await post(part, state);
        state = open(state.seq + 1);
        parts.set(part, state);
      }
      const written = write(state, offset, Math.min(BODY_PIECE_MAX_BYTES - state.filled, length - offset));
      state.filled += written;
      offset += written;
    }
  };
  const endPart = async (part: number) => {
    const state = parts.get(part);
    parts.delete(part);
    if (state && state.filled > 0) await post(part, state);
  };
  return {
    append: async (part, text, encoding = "utf8") => {
      if (text.length === 0) return;
      if (encoding === "latin1") {
        // One byte per character (base64): written from the string straight into the slice.
        return fill(part, text.length, (state, offset, room) =>
          state.view.write(text.slice(offset, offset + room), state.filled, "latin1"),
        );
      }
      const bytes = Buffer.from(text, "utf8");
      return fill(part, bytes.length, (state, offset, room) => bytes.copy(state.view, state.filled, offset, offset + room));
    },
    endPart,
    finish: async () => {
      for (const part of [...parts.keys()]) await endPart(part);
      return { kind: "posted", byteLength };
    },
  };
}
