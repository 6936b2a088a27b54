// A parsing thread of the parse pool (parse-pool.ts): parses one message, builds its webhook bodies
// and the inbox row's summary, and hands back the bytes (a spooled message is read from its file,
// message-source.ts, and stays there). A small message's bodies come back whole;
// a large one's are posted to the main thread in slices while they are made, through the task's
// `pieces` port (body-sinks.ts; docs/architecture.md: Large values). It tells the pool when it starts
// on a message, and which thread it is (the time limit reads that thread's processor time from there), and answers a message it cannot read as a refusal
// rather than an error: errors lose their class and code between threads.
import type { MessagePort } from "node:worker_threads";
import { Piscina } from "piscina";
import type { MailAuthentication } from "@/modules/mail-checks/mail-auth.models";
import type { SpamVerdict } from "@/modules/mail-checks/spam-check";
import { isAppError } from "@/modules/shared/errors/app-error";
import { createJoiningSink, type PostedBody } from "./body-sinks";
import type { EndpointSelection } from "./endpoint-filter";
import { streamMessage } from "./mail-stream";
import { type MessageChecks, runMessageChecks } from "./message-checks";
import { isSpooledMessage, openSpooledMessage, type SpooledMessage } from "./message-source";
import { PARSE_THREAD_NICE } from "./parsing.constants";
import { createPieceChannel, createPostingSink } from "./posting-sink";
import { currentThreadId, openOwnCpuClock } from "./thread-clock";
import { lowerThreadPriority } from "./thread-priority";
import { buildMessageOutputs, type MailSummary, type WebhookPayloadRequest } from "./webhook-payload";
import type { BodySink } from "./webhook-pieces";

/** A byte range of an ArrayBuffer that moves between threads. */
export type MovedBytes = { buffer: ArrayBuffer; byteOffset: number; byteLength: number };

export type ParseTask = {
  /** The message's bytes, moved here; or its spooled file, read from there (message-source.ts). */
  raw: MovedBytes | SpooledMessage;
  sender: string | null;
  /** Milliseconds since the epoch. */
  receivedAt: number;
  payloads: WebhookPayloadRequest[];
  selections?: EndpointSelection[];
  checks?: MessageChecks;
  /** Receives one message, ParseStarted, when this thread starts on the task. */
  started: MessagePort;
  /** Given for a large message: its bodies are posted through it in slices (BodyPiece), each acknowledged. */
  pieces?: MessagePort;
};

/**
 * Told to the pool when the thread starts on a task: whose processor time the time limit reads, and
 * that time now (null: not known here).
 */
export type ParseStarted = { threadId: number | null; cpuMs: number | null };

// The thread gives way to the main thread whenever both want a core (thread-priority.ts).
lowerThreadPriority(PARSE_THREAD_NICE);
const threadId = currentThreadId();
const ownCpuClock = openOwnCpuClock();

export type ParseResult =
  | {
      kind: "parsed";
      /** The bytes moved back; null for a spooled message (its file is where it was). */
      raw: MovedBytes | null;
      summary: MailSummary;
      /** Each body, or how long it was when it went in pieces. */
      payloads: (MovedBytes | PostedBody)[];
      taken: string[][];
      authentication: MailAuthentication | null;
      spam: SpamVerdict | null;
    }
  | { kind: "invalid"; reason: string };

export default async function parseMessage(task: ParseTask) {
  task.started.postMessage({ threadId, cpuMs: ownCpuClock?.() ?? null } satisfies ParseStarted);
  task.started.close();
  const raw = isSpooledMessage(task.raw)
    ? await openSpooledMessage(task.raw)
    : Buffer.from(task.raw.buffer, task.raw.byteOffset, task.raw.byteLength);
  let outputs: Awaited<ReturnType<typeof buildMessageOutputs<Buffer | PostedBody>>>;
  const checked = await runMessageChecks({ raw, sender: task.sender, checks: task.checks });
  const channel = task.pieces ? createPieceChannel(task.pieces) : null;
  const openSink = (index: number): BodySink<Buffer | PostedBody> =>
    channel ? createPostingSink(channel, index) : createJoiningSink();
  try {
    outputs = await buildMessageOutputs({
      raw,
      sender: task.sender,
      receivedAt: new Date(task.receivedAt),
      payloads: task.payloads,
      selections: task.selections,
      openSink,
      ...checked,
    });
    // Every piece written before the result goes: the main thread then has each body whole.
    await channel?.drain();
  } catch (error) {
    if (isAppError(error) && error.code === "inbound.invalid_message") {
      const cause = error.cause instanceof Error ? `: ${error.cause.message}` : "";
      return { kind: "invalid", reason: `${error.message}${cause}` } satisfies ParseResult;
    }
    throw error;
  } finally {
    channel?.close();
  }
  const payloads = outputs.payloads.map((body) => (Buffer.isBuffer(body) ? toMovedBytes(body) : body));
  const { summary, taken } = outputs;
  const { authentication, spam } = checked;
  const movedRaw = isSpooledMessage(task.raw) ? null : task.raw;
  const result: ParseResult = { kind: "parsed", raw: movedRaw, summary, payloads, taken, authentication, spam };
  const moved = payloads.flatMap((payload) => ("buffer" in payload ? [payload.buffer] : []));
  return moveAll(result, [...(movedRaw ? [movedRaw.buffer] : []), ...moved]);
}

export type AttachmentTask = { raw: MovedBytes; index: number };

export type AttachmentResult = { kind: "found"; bytes: MovedBytes; contentType: string; filename: string } | { kind: "missing" };

/** The decoded bytes of one attachment of a stored message, by its place in the payload's list (a content link). */
export async function extractAttachment(task: AttachmentTask): Promise<AttachmentResult> {
  const raw = Buffer.from(task.raw.buffer, task.raw.byteOffset, task.raw.byteLength);
  let attachment: Awaited<ReturnType<typeof streamMessage>>["attachments"][number] | undefined;
  try {
    attachment = (await streamMessage(raw, { keep: (index) => index === task.index })).attachments[task.index];
  } catch {
    return { kind: "missing" };
  }
  if (!attachment?.content) return { kind: "missing" };
  const declared = attachment.headers?.get("content-type") as { value?: string } | undefined;
  const contentType = (declared?.value || attachment.contentType || "application/octet-stream").toLowerCase();
  const bytes = toMovedBytes(attachment.content);
  const result: AttachmentResult = { kind: "found", bytes, contentType, filename: attachment.filename ?? "" };
  return moveAll(result, [bytes.buffer]) as unknown as AttachmentResult;
}

/**
 * The bytes of a Buffer as a range that can move: its own ArrayBuffer when it spans all of it, else
 * a copy (a small Buffer is a slice of Node's shared pool, which must never be moved).
 */
function toMovedBytes(bytes: Buffer): MovedBytes {
  if (bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength && bytes.buffer instanceof ArrayBuffer) {
    return { buffer: bytes.buffer, byteOffset: 0, byteLength: bytes.byteLength };
  }
  const copy = new ArrayBuffer(bytes.byteLength);
  new Uint8Array(copy).set(bytes);
  return { buffer: copy, byteOffset: 0, byteLength: bytes.byteLength };
}

/** Piscina's movable value: the result goes back with these ArrayBuffers transferred, not copied. */
function moveAll<T extends object>(value: T, buffers: ArrayBuffer[]) {
  const unique = [...new Set(buffers)];
  return Piscina.move({
    get [Piscina.transferableSymbol]() {
      return unique;
    },
    get [Piscina.valueSymbol]() {
      return value;
    },
  } as never);
}
