// One client's Server-Sent Events stream of an address (docs/webhooks.md: Live events): registered
// with the process's listener first, then the events missed since Last-Event-ID replayed from the
// table, then the live ones, each sent once and in order through one queue. A stream that may have
// missed notifications (the listener reconnected) reads the table after its cursor again. What
// waits for the client is bounded (event-stream-output.ts). It ends when the client goes away, when
// it stops reading (it is cut off), when a read fails, when its API key is deleted or its session or
// key no longer holds (checked every `callerCheckMs`), and after `maxLifetimeMs`: the client resumes
// with Last-Event-ID. It counts against its user's streams until its response has ended.
import type { KeyObject } from "node:crypto";
import { VALUE_SLICE_BYTES } from "@/modules/db/sliced-values";
import { createWebhookSigner } from "@/modules/delivery/webhook-signature";
import type { Logger } from "@/modules/shared/logging/logger";
import { readSlices, writeEndpointRequestEvent } from "./endpoint-request-event";
import { createEventStreamOutput } from "./event-stream-output";
import { EVENT_STREAM_EVENTS, type EVENT_STREAM_LIMITS } from "./events.constants";
import {
  escapeJsonStringPart,
  formatEmailReceivedFrame,
  formatEmailReceivedHeaders,
  formatProcessingEvent,
  formatServerSentComment,
  formatServerSentEvent,
  toWebhookTimestamp,
} from "./events.models";
import type { EventsRepository, ProcessingEventRow, StreamedEndpoint } from "./events.repository";
import type { EventsListener } from "./events-listener";

export type EventStreamLimits = Record<Exclude<keyof typeof EVENT_STREAM_LIMITS, "maxStreamsPerUser">, number>;

export type EventStreamOptions = {
  emailCallbackId: string;
  userId: string;
  includeWebhook: boolean;
  /** With includeWebhook: the endpoint whose requests the `email.received` events are, or null for the address's webhook. */
  endpoint?: StreamedEndpoint | null;
  /** Decrypts an Ed25519 endpoint's private key to sign its requests (delivery/signing-keys.ts). */
  signingKeyEncryptionKey?: KeyObject;
  /** Aborted when the client goes away: the stream ends and lets go of the listener. */
  signal: AbortSignal;
  /** The API key it is opened with (deleting the key ends it at once), or null for a session. */
  apiKeyId: string | null;
  /** Whether the session or API key it was opened with still holds (asked every `callerCheckMs`). */
  isCallerValid: () => Promise<boolean>;
  listener: EventsListener;
  repository: EventsRepository;
  logger: Logger;
  limits: EventStreamLimits;
  now: () => Date;
};

export type EventStream = {
  readable: ReadableStream<Uint8Array>;
  /**
   * Waits for the listener, then goes live, after a replay of the events after `lastEventId` (or
   * from the newest event on): the replay is queued, and sent as the client reads.
   */
  start: (lastEventId: string | null) => Promise<void>;
  /** Ends a stream that will not be answered (it could not start): it stops counting at once. */
  discard: () => void;
};

export function createEventStream({
  emailCallbackId,
  userId,
  includeWebhook,
  endpoint = null,
  signingKeyEncryptionKey,
  signal,
  apiKeyId,
  isCallerValid,
  listener,
  repository,
  logger,
  limits,
  now,
}: EventStreamOptions): EventStream {
  let isFinished = false;
  let isLive = false;
  /** The highest event id sent, or where the stream started: a catch-up reads after it. */
  let cursor = 0n;
  const early: ProcessingEventRow[] = [];
  const sentIds = new Set<string>();
  let queue = Promise.resolve();
  let heartbeat: NodeJS.Timeout | undefined;
  /** Work queued or under way: a message may be half written, so no heartbeat goes in between. */
  let pendingWork = 0;

  const output = createEventStreamOutput({
    maxQueuedBytes: limits.maxBufferedBytes,
    stallMs: limits.readerStallMs,
    onStalled: (queuedBytes) => {
      logger.warn(
        { emailCallbackId, queuedBytes },
        "An event stream is not read by its client: it is cut off (the client may resume)",
      );
      finish();
    },
  });
  const release = listener.holdStream({
    userId,
    apiKeyId,
    onKeyDeleted: () => cut("its API key was deleted"),
    onMissedNotices: () => void checkCaller(),
  });
  // Counted until the response has ended: read to its end, cancelled, or its connection closed
  // (a stream cut off counts until the server closed its connection).
  void output.ended.then(release);
  const callerCheck = setInterval(() => void checkCaller(), limits.callerCheckMs);
  callerCheck.unref();
  const lifetime = setTimeout(finish, limits.maxLifetimeMs);
  lifetime.unref();

  const subscription = listener.subscribe({
    userId,
    emailCallbackId,
    onEvents: (events) => {
      if (isLive) enqueue(() => sendEvents(events));
      else early.push(...events);
    },
    onMissedEvents: () => {
      if (isLive) enqueue(() => replayAfter(cursor));
    },
  });

  // The client went away: its connection is closed, nothing more is sent.
  const onGone = () => {
    release();
    stop();
  };
  signal.addEventListener("abort", onGone, { once: true });
  if (signal.aborted) onGone();

  /** Waits for room (what waits for the client is bounded); does nothing once the stream ended. */
  const write = (text: string) => (isFinished ? Promise.resolve() : output.write(text));

  async function checkCaller() {
    if (isFinished && output.queuedBytes() === 0) return;
    const isValid = await isCallerValid().catch((error: unknown) => {
      logger.warn({ emailCallbackId, err: error }, "Checking the caller of an event stream failed");
      return false;
    });
    if (!isValid) cut("its session or API key no longer holds");
  }

  /** Ends once the client took what waits for it (max lifetime, failed read). */
  function finish() {
    if (isFinished) return;
    isFinished = true;
    clearInterval(heartbeat);
    clearInterval(callerCheck);
    clearTimeout(lifetime);
    subscription.unsubscribe();
    output.close();
  }

  /** Ends at once, dropping what waits: the connection is closed. */
  function stop() {
    finish();
    output.cut();
  }

  function cut(reason: string) {
    logger.info({ emailCallbackId, reason }, "An event stream is cut off");
    stop();
  }

  function enqueue(work: () => Promise<void>) {
    pendingWork += 1;
    queue = queue
      .then(() => (isFinished ? undefined : work()))
      .catch((error: unknown) => {
        logger.warn({ emailCallbackId, err: error }, "An event stream failed");
        finish();
      })
      .finally(() => {
        pendingWork -= 1;
      });
  }

  function remember(eventId: string) {
    sentIds.add(eventId);
    if (sentIds.size > limits.rememberedEventIds) sentIds.delete(sentIds.values().next().value as string);
    const id = BigInt(eventId);
    if (id > cursor) cursor = id;
  }

  async function sendEvents(events: readonly ProcessingEventRow[]) {
    for (const event of events) {
      if (isFinished) return;
      if (sentIds.has(event.eventId)) continue;
      remember(event.eventId);
      if (includeWebhook && event.isNew) await (endpoint ? sendEndpointRequest(event, endpoint) : sendEmailReceived(event));
      await write(
        formatServerSentEvent({ id: event.eventId, event: EVENT_STREAM_EVENTS.PROCESSING, data: formatProcessingEvent(event) }),
      );
    }
  }

  /**
   * The webhook of a mail that arrived, sent before its `processing` event and without an id of its
   * own: a client that resumes after it gets it again rather than never (receivers dedupe by webhook-id).
   * The body is read a slice at a time, once to sign it and once to send it as the client takes it,
   * so that a large one costs this process at most the output's bound, not its size.
   */
  async function sendEmailReceived(event: ProcessingEventRow) {
    const stored = await repository.openWebhookBody({ emailProcessingId: event.emailProcessingId, emailCallbackId });
    if (!stored) return;
    const timestamp = toWebhookTimestamp(now());
    const secret = stored.webhookSecret;
    const signer = secret ? createWebhookSigner({ id: event.emailProcessingId, timestamp, secret }) : undefined;
    // A body of one slice is kept from its first read; a larger one is read again.
    const isSmall = stored.byteLength <= VALUE_SLICE_BYTES;
    const slices: Uint8Array[] = [];
    for await (const slice of readSlices(stored.stream)) {
      if (isFinished) return;
      signer?.update(slice);
      if (isSmall) slices.push(slice);
    }
    const body = isSmall ? slices : await stored.reopen();
    if (!body || isFinished) return;
    const headers = formatEmailReceivedHeaders({
      emailProcessingId: event.emailProcessingId,
      timestamp,
      signature: signer?.sign(),
    });
    const { head, tail } = formatEmailReceivedFrame(headers);
    const decoder = new TextDecoder();
    let text = head;
    for await (const slice of readSlices(body)) {
      if (isFinished) return;
      text += escapeJsonStringPart(decoder.decode(slice, { stream: true }));
      await write(text);
      text = "";
    }
    await write(`${text}${escapeJsonStringPart(decoder.decode())}${tail}`);
  }

  /** The same, as one endpoint's request (endpoint-request-event.ts); nothing for a mail the endpoint does not take. */
  const sendEndpointRequest = (event: ProcessingEventRow, streamed: StreamedEndpoint) =>
    writeEndpointRequestEvent({
      emailProcessingId: event.emailProcessingId,
      emailCallbackId,
      endpoint: streamed,
      repository,
      signingKeyEncryptionKey,
      now,
      write,
      isFinished: () => isFinished,
    });

  async function replayAfter(afterId: bigint) {
    let after = afterId;
    for (;;) {
      const events = await repository.findEventsAfter({
        emailCallbackId,
        afterId: after.toString(),
        windowMs: limits.replayWindowMs,
        limit: limits.replayBatchSize,
      });
      await sendEvents(events);
      const last = events.at(-1);
      if (!last || events.length < limits.replayBatchSize || isFinished) return;
      after = BigInt(last.eventId);
    }
  }

  async function start(lastEventId: string | null) {
    await subscription.ready;
    await write(`retry: ${limits.retryMs}\n${formatServerSentComment("connected")}`);
    const latest = BigInt(await repository.findLatestEventId());
    // An id from the future (another database, a made-up header) resumes from now on.
    cursor = lastEventId !== null && BigInt(lastEventId) < latest ? BigInt(lastEventId) : latest;
    // The replay is sent as the client takes it, like everything after: the response starts now.
    const from = cursor;
    if (lastEventId !== null) enqueue(() => replayAfter(from));
    isLive = true;
    const arrived = early.splice(0);
    if (arrived.length > 0) enqueue(() => sendEvents(arrived));
    if (isFinished) return;
    // A stream with work under way or with something waiting for its client is not idle: no ping then.
    heartbeat = setInterval(() => pendingWork === 0 && output.writeIfIdle(formatServerSentComment("ping")), limits.heartbeatMs);
    heartbeat.unref();
  }

  return { readable: output.readable, start, discard: onGone };
}
