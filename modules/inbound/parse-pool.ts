// Parsing off the main thread (docs/security.md): MIME parsing and webhook body building run in a
// small pool of worker threads (piscina), so that a hostile or 25 MiB message never holds the event
// loop that serves the dashboard, the API and the other SMTP sessions. The message's memory moves to
// the thread and back (transferred, not copied), or the thread reads the file it was spooled to
// (parsing/message-source.ts); the thread sends back only bytes and the summary (a
// large message's bodies come in slices while they are made, body-pieces.ts).
// A thread that spends longer than PARSE_TIME_LIMIT_MS of processor time on a message
// (parse-time-limit.ts) is stopped and replaced, and the message refused for good. One pool per process, made by the composition root and shared with Next's
// separately bundled route handlers through its one accessor (docs/architecture.md: The parts).
import os from "node:os";
import path from "node:path";
import { MessageChannel } from "node:worker_threads";
import { Piscina } from "piscina";
import type { MailAuthentication } from "@/modules/mail-checks/mail-auth.models";
import type { SpamVerdict } from "@/modules/mail-checks/spam-check";
import { type Logger, silentLogger } from "@/modules/shared/logging/logger";
import { type BodyPieceWriter, receiveBodyPieces } from "./body-pieces";
import {
  PARSE_IDLE_TIMEOUT_MS,
  PARSE_MOVE_MIN_BYTES,
  PARSE_QUEUE_LIMIT,
  PARSE_TIME_LIMIT_MS,
  PARSE_WALL_LIMIT_FACTOR,
} from "./inbound.constants";
import { watchParseTime } from "./parse-time-limit";
import type { PostedBody } from "./parsing/body-sinks";
import type { EndpointSelection } from "./parsing/endpoint-filter";
import type { MessageChecks } from "./parsing/message-checks";
import { isSpooledMessage, type SpooledMessage } from "./parsing/message-source";
import type { AttachmentResult, AttachmentTask, MovedBytes, ParseResult, ParseStarted, ParseTask } from "./parsing/parse-worker";
import type { MailSummary, WebhookPayloadRequest } from "./parsing/webhook-payload";

export type MessageParseInput = {
  /**
   * Handed over: from PARSE_MOVE_MIN_BYTES up its memory moves to the thread, and reads as empty
   * after. A spooled message's file is read by the thread where it is (parsing/message-source.ts).
   */
  raw: Buffer | SpooledMessage;
  sender: string | null;
  receivedAt: Date;
  payloads: WebhookPayloadRequest[];
  /** The endpoints to choose among by their filters, per address; none when left out. */
  selections?: EndpointSelection[];
  /** Authentication and content links; none when left out. */
  checks?: MessageChecks;
  /**
   * Given for a large message: its bodies come in slices while they are made (body-pieces.ts), each
   * written by this before the next few, and come back as PostedBody; else each comes back whole.
   */
  writePiece?: BodyPieceWriter;
};

export type MessageParseOutput = {
  /** The message's bytes, back from the thread (the rows keep them); null for a spooled message. */
  raw: Buffer | null;
  summary: MailSummary;
  /** The serialized webhook body of each request, in order; how long it was when it went to `writePiece`. */
  payloads: (Buffer | PostedBody)[];
  /** Per selection, the endpoints whose filter the mail passes. */
  taken: string[][];
  /** The verdicts the payloads carry (null: not checked), for the addresses that act on them. */
  authentication: MailAuthentication | null;
  spam: SpamVerdict | null;
};

/**
 * What parsing gave. Refusals are answered as data, never thrown as errors of this module: the
 * process's pool is shared with code bundled apart (Next's route handlers, docs/architecture.md: The parts),
 * whose error classes are not this module's, so the caller makes its own errors from them.
 */
export type MessageParseOutcome =
  | ({ kind: "parsed" } & MessageParseOutput)
  /** Not mail at all (inbound.invalid_message). */
  | { kind: "invalid"; reason: string }
  /** Parsing took longer than the time limit (inbound.message_too_complex). */
  | { kind: "too-complex"; timeLimitMs: number }
  /** More messages wait than the queue holds (try again). */
  | { kind: "busy" };

/** One attachment of a stored message, decoded; null when the message has no attachment at that place. */
export type ExtractedAttachment = { bytes: Buffer; contentType: string; filename: string } | null;

/** Parses a message and builds its webhook bodies; reads one attachment of a stored message. */
export type MessageParser = {
  parse: (input: MessageParseInput) => Promise<MessageParseOutcome>;
  extractAttachment: (raw: Buffer, index: number) => Promise<ExtractedAttachment>;
  close: () => Promise<void>;
};

/**
 * The thread file, found on disk at run time from the project directory: a bundler must not rewrite
 * it (Next turns `new URL(…, import.meta.url)` into an asset of its own), and a .mjs entry loads in
 * every process (parsing/parse-worker.mjs).
 */
const findWorkerFile = (projectDir: string) => path.join(projectDir, "modules", "inbound", "parsing", "parse-worker.mjs");

/**
 * Two threads where the machine has two cores or more: one slow message (up to the time limit) then
 * does not hold every other message. One stays warm so that a message never waits for a thread to
 * start; the second is stopped after PARSE_IDLE_TIMEOUT_MS idle.
 */
const defaultMaxThreads = () => Math.max(1, Math.min(2, os.availableParallelism()));

export function createParsePool({
  timeLimitMs = PARSE_TIME_LIMIT_MS,
  maxThreads = defaultMaxThreads(),
  queueLimit = PARSE_QUEUE_LIMIT,
  logger = silentLogger,
  projectDir = process.cwd(),
}: {
  timeLimitMs?: number;
  maxThreads?: number;
  queueLimit?: number;
  logger?: Logger;
  /** Where the project's files are (the thread file is loaded from there); processes run from it by default. */
  projectDir?: string;
} = {}): MessageParser & { threadCount: () => number } {
  const pool = new Piscina<ParseTask, ParseResult>({
    filename: findWorkerFile(projectDir),
    minThreads: 1,
    maxThreads,
    idleTimeout: PARSE_IDLE_TIMEOUT_MS,
  });
  let inFlight = 0;

  const parse = async ({
    raw,
    sender,
    receivedAt,
    payloads,
    selections,
    checks,
    writePiece,
  }: MessageParseInput): Promise<MessageParseOutcome> => {
    if (inFlight >= queueLimit + maxThreads) return { kind: "busy" };
    inFlight += 1;
    const moved = isSpooledMessage(raw) ? raw : handOver(raw);
    const started = new MessageChannel();
    const pieces = writePiece ? receiveBodyPieces(writePiece) : null;
    const abort = new AbortController();
    let stopWatching = () => {};
    // The clock starts when a thread starts on the message, not while it waits for one.
    started.port1.once("message", ({ threadId, cpuMs }: ParseStarted) => {
      stopWatching = watchParseTime({
        threadId,
        startCpuMs: cpuMs,
        timeLimitMs,
        wallLimitMs: timeLimitMs * PARSE_WALL_LIMIT_FACTOR,
        onExceeded: () => abort.abort(),
      });
    });
    const task: ParseTask = {
      raw: moved,
      sender,
      receivedAt: receivedAt.getTime(),
      payloads,
      selections,
      checks,
      started: started.port2,
      pieces: pieces?.port,
    };
    const transferList = [...("buffer" in moved ? [moved.buffer] : []), started.port2, ...(pieces ? [pieces.port] : [])];
    try {
      const run = pool.run(task, { transferList, signal: abort.signal });
      // Every piece received is written (or failed) before the outcome is known.
      const result = pieces ? await pieces.settle(run) : await run;
      if (result.kind === "invalid") return result;
      const { summary, taken, authentication, spam } = result;
      const payloadBytes = result.payloads.map((body) => ("kind" in body ? body : toBuffer(body)));
      return {
        kind: "parsed",
        raw: result.raw && toBuffer(result.raw),
        summary,
        payloads: payloadBytes,
        taken,
        authentication,
        spam,
      };
    } catch (error) {
      if (!abort.signal.aborted) throw error;
      logger.warn(
        { bytes: moved.byteLength, timeLimitMs },
        "Refused a message: parsing it took longer than the time limit (554 5.6.0 / 400)",
      );
      return { kind: "too-complex", timeLimitMs };
    } finally {
      inFlight -= 1;
      stopWatching();
      started.port1.close();
    }
  };

  const extractAttachment = async (raw: Buffer, index: number): Promise<ExtractedAttachment> => {
    const moved = handOver(raw);
    const task: AttachmentTask = { raw: moved, index };
    const signal = AbortSignal.timeout(timeLimitMs);
    const run = pool.run(task as never, { name: "extractAttachment", transferList: [moved.buffer], signal });
    const result = (await run) as unknown as AttachmentResult;
    if (result.kind === "missing") return null;
    return { bytes: toBuffer(result.bytes), contentType: result.contentType, filename: result.filename };
  };

  return { parse, extractAttachment, close: () => pool.close({ force: true }), threadCount: () => pool.threads.length };
}

/**
 * The message's bytes as a range that can move to the thread. A large Buffer moves its own memory
 * (the caller hands it over); a small one, or a small view of larger memory, is copied into memory of
 * its exact size first (a Buffer under 4 KiB may be a slice of Node's shared pool).
 */
function handOver(raw: Buffer): MovedBytes {
  const { buffer } = raw;
  const isMovable =
    buffer instanceof ArrayBuffer && raw.byteLength >= PARSE_MOVE_MIN_BYTES && raw.byteLength * 2 >= buffer.byteLength;
  if (isMovable) return { buffer, byteOffset: raw.byteOffset, byteLength: raw.byteLength };
  const copy = new ArrayBuffer(raw.byteLength);
  new Uint8Array(copy).set(raw);
  return { buffer: copy, byteOffset: 0, byteLength: raw.byteLength };
}

const toBuffer = ({ buffer, byteOffset, byteLength }: MovedBytes) => Buffer.from(buffer, byteOffset, byteLength);
