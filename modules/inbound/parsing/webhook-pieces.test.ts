// The webhook body built from ordered pieces (webhook-pieces.ts, body-sinks.ts): whether joined in the
// thread or posted in slices, its bytes are exactly JSON.stringify of the payload.
import { describe, expect, it } from "vitest";
import { VALUE_SLICE_BYTES } from "@/modules/db/sliced-values";
import type { BodyPiece } from "./body-sinks";
import { BODY_PIECE_MAX_BYTES } from "./parsing.constants";
import { createPostingSink, type PieceChannel } from "./posting-sink";
import { buildMessageOutputs, buildWebhookPayload, describeRawMessage, parseMail } from "./webhook-payload";
import { createBase64Encoder } from "./webhook-pieces";

const RECEIVED_AT = new Date("2026-11-28T10:00:00.000Z");
const REQUEST = {
  processingId: "ep_0000000000000000000002",
  emailCallbackId: "ecb_000000000000000000002",
  address: "alice@hookmail.test",
  tag: null,
  envelope: { from: "bob@example.org", to: ["alice@hookmail.test"] },
};

const bytes = (length: number, seed: number) =>
  Buffer.from(Array.from({ length }, (_, i) => (i * 131 + seed * 17 + (i >> 9)) & 0xff));
const wrapBase64 = (content: Buffer) => content.toString("base64").replace(/.{1,76}/g, "$&\r\n");

/** A message with its text last, after attachments of these sizes (0, 1 and 2 bytes over a multiple of 3 among them). */
function buildMessage(sizes: number[]): { raw: Buffer; attachments: Buffer[] } {
  const attachments = sizes.map((size, index) => bytes(size, index));
  const raw = Buffer.from(
    [
      "From: Bob <bob@example.org>",
      "Subject: pieces ✓",
      'Content-Type: multipart/mixed; boundary="b"',
      "",
      ...attachments.flatMap((content, index) => [
        "--b",
        "Content-Type: application/octet-stream",
        "Content-Transfer-Encoding: base64",
        `Content-Disposition: attachment; filename="f-${index}.bin"`,
        "",
        wrapBase64(content),
      ]),
      "--b",
      "Content-Type: text/plain; charset=utf-8",
      "",
      `Zoë "quoted" \\ ${"line\r\n".repeat(2000)}`,
      "--b--",
      "",
    ].join("\r\n"),
  );
  return { raw, attachments };
}

/** JSON.stringify of the payload built from the message parsed with its attachments kept whole. */
async function expectedBody(raw: Buffer): Promise<Buffer> {
  const parsed = await parseMail(raw);
  const payload = buildWebhookPayload({ ...REQUEST, parsed, receivedAt: RECEIVED_AT, rawFacts: describeRawMessage(raw) });
  return Buffer.from(JSON.stringify(payload), "utf8");
}

/** A channel that records what a posting sink posts (the main thread's end, without a thread). */
function recordPieces(): { channel: Pick<PieceChannel, "takeSlice" | "post">; pieces: BodyPiece[] } {
  const pieces: BodyPiece[] = [];
  const channel = {
    takeSlice: () => new ArrayBuffer(BODY_PIECE_MAX_BYTES),
    post: async (piece: BodyPiece) => void pieces.push(piece),
  };
  return { channel, pieces };
}

/** The pieces of one body in their order (part, then seq), joined. */
function joinPieces(pieces: BodyPiece[], body: number): Buffer {
  const own = pieces.filter((piece) => piece.body === body);
  own.sort((left, right) => left.part - right.part || left.seq - right.seq);
  return Buffer.concat(own.map((piece) => Buffer.from(piece.bytes, 0, piece.byteLength)));
}

describe("createBase64Encoder", () => {
  it("joins chunk by chunk into exactly the whole's base64, carrying 0, 1 or 2 bytes between chunks", () => {
    const whole = bytes(1000, 9);
    for (const cut of [
      [300, 600],
      [301, 602],
      [302, 604],
      [1, 2, 3, 998],
      [0, 1000],
    ]) {
      const encoder = createBase64Encoder();
      const edges = [0, ...cut, whole.length];
      const pieces = edges.slice(1).map((end, index) => encoder.push(whole.subarray(edges[index], end)));
      expect(pieces.join("") + encoder.end()).toBe(whole.toString("base64"));
    }
  });
});

describe("the webhook body built from pieces", () => {
  it("joined in the thread, equals JSON.stringify of the payload byte for byte, for attachments 0, 1 and 2 bytes over a multiple of 3", async () => {
    const { raw } = buildMessage([3 * 1000, 3 * 1000 + 1, 3 * 1000 + 2, 0, 5]);
    const { payloads } = await buildMessageOutputs({ raw, sender: null, receivedAt: RECEIVED_AT, payloads: [REQUEST] });
    expect(payloads[0]!.equals(await expectedBody(raw))).toBe(true);
  });

  it("posts pieces of one staged slice at most (the database's slice size)", () => {
    expect(BODY_PIECE_MAX_BYTES).toBe(VALUE_SLICE_BYTES);
  });

  it("posted in slices of at most VALUE_SLICE_BYTES, joins by (part, seq) into the same bytes, for every body of the message", async () => {
    const { raw } = buildMessage([VALUE_SLICE_BYTES * 3 + 1, 3 * 70_000 + 2, VALUE_SLICE_BYTES]);
    const { channel, pieces } = recordPieces();
    const requests = [REQUEST, { ...REQUEST, processingId: "ep_0000000000000000000003" }];
    const { payloads } = await buildMessageOutputs({
      raw,
      sender: null,
      receivedAt: RECEIVED_AT,
      payloads: requests,
      openSink: (index) => createPostingSink(channel, index),
    });
    const expected = await expectedBody(raw);
    expect(payloads[0]).toEqual({ kind: "posted", byteLength: expected.length });
    expect(Math.max(...pieces.map((piece) => piece.byteLength))).toBeLessThanOrEqual(VALUE_SLICE_BYTES);
    expect(pieces.length).toBeGreaterThan(2 * Math.ceil(expected.length / VALUE_SLICE_BYTES));
    expect(joinPieces(pieces, 0).equals(expected)).toBe(true);
    expect(JSON.parse(joinPieces(pieces, 1).toString("utf8")).data.id).toBe("ep_0000000000000000000003");
  });
});
