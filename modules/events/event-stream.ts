// One client's Server-Sent Events stream of an address (docs/webhooks.md: Live events): registered
// with the process's listener first, then the events missed since Last-Event-ID replayed from the
// table, then the live ones, each sent once and in order through one queue. A stream that may have
// missed notifications (the listener reconnected) reads the table after its cursor again. It ends
// when the client goes away, when it stops reading (past a bound), or when a read fails: the client
// resumes with Last-Event-ID.
import type { Logger } from "@/modules/shared/logging/logger";
import { EVENT_STREAM_EVENTS, type EVENT_STREAM_LIMITS } from "./events.constants";
import { formatEmailReceivedEvent, formatProcessingEvent, formatServerSentComment, formatServerSentEvent } from "./events.models";
import type { EventsRepository, ProcessingEventRow } from "./events.repository";
import type { EventsListener } from "./events-listener";

export type EventStreamLimits = Record<Exclude<keyof typeof EVENT_STREAM_LIMITS, "maxStreamsPerUser">, number>;

export type EventStreamOptions = {
  emailCallbackId: string;
  userId: string;
  includeWebhook: boolean;
  /** Aborted when the client goes away: the stream ends and lets go of the listener. */
  signal: AbortSignal;
  listener: EventsListener;
  repository: EventsRepository;
  logger: Logger;
  limits: EventStreamLimits;
  now: () => Date;
};

export type EventStream = {
  readable: ReadableStream<Uint8Array>;
  /** Waits for the listener, then replays after `lastEventId` (or starts at the newest event) and goes live. */
  start: (lastEventId: string | null) => Promise<void>;
  finish: () => void;
};

export function createEventStream({
  emailCallbackId,
  userId,
  includeWebhook,
  signal,
  listener,
  repository,
  logger,
  limits,
  now,
}: EventStreamOptions): EventStream {
  const encoder = new TextEncoder();
  let controller: ReadableStreamDefaultController<Uint8Array> | undefined;
  let isFinished = false;
  let isLive = false;
  /** The highest event id sent, or where the stream started: a catch-up reads after it. */
  let cursor = 0n;
  const early: ProcessingEventRow[] = [];
  const sentIds = new Set<string>();
  let queue = Promise.resolve();
  let heartbeat: NodeJS.Timeout | undefined;

  const readable = new ReadableStream<Uint8Array>(
    {
      start: (streamController) => {
        controller = streamController;
      },
      cancel: () => finish(),
    },
    new ByteLengthQueuingStrategy({ highWaterMark: 64 * 1024 }),
  );

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

  function write(text: string) {
    if (isFinished || !controller) return;
    controller.enqueue(encoder.encode(text));
    if ((controller.desiredSize ?? 0) < -limits.maxBufferedBytes) {
      logger.warn(`An event stream of ${emailCallbackId} is not read by its client: it ends (the client may resume)`);
      finish();
    }
  }

  function finish() {
    if (isFinished) return;
    isFinished = true;
    clearInterval(heartbeat);
    subscription.unsubscribe();
    signal.removeEventListener("abort", finish);
    try {
      controller?.close();
    } catch {
      // Already closed or cancelled by the client.
    }
  }

  function enqueue(work: () => Promise<void>) {
    queue = queue
      .then(() => (isFinished ? undefined : work()))
      .catch((error: unknown) => {
        logger.warn({ err: error }, `An event stream of ${emailCallbackId} failed: ${(error as Error).message}`);
        finish();
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
      if (includeWebhook && event.isNew) await sendEmailReceived(event);
      write(
        formatServerSentEvent({ id: event.eventId, event: EVENT_STREAM_EVENTS.PROCESSING, data: formatProcessingEvent(event) }),
      );
    }
  }

  /**
   * The webhook of a mail that arrived, sent before its `processing` event and without an id of its
   * own: a client that resumes after it gets it again rather than never (receivers dedupe by webhook-id).
   */
  async function sendEmailReceived(event: ProcessingEventRow) {
    const stored = await repository.findWebhookBody({ emailProcessingId: event.emailProcessingId, emailCallbackId });
    if (!stored?.payload) return;
    const body = Buffer.from(stored.payload.buffer, stored.payload.byteOffset, stored.payload.byteLength).toString("utf8");
    const data = formatEmailReceivedEvent({
      emailProcessingId: event.emailProcessingId,
      body,
      secret: stored.webhookSecret,
      now: now(),
    });
    write(formatServerSentEvent({ event: EVENT_STREAM_EVENTS.EMAIL_RECEIVED, data }));
  }

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
    signal.addEventListener("abort", finish, { once: true });
    if (signal.aborted) finish();
    await subscription.ready;
    write(`retry: ${limits.retryMs}\n${formatServerSentComment("connected")}`);
    const latest = BigInt(await repository.findLatestEventId());
    // An id from the future (another database, a made-up header) resumes from now on.
    cursor = lastEventId !== null && BigInt(lastEventId) < latest ? BigInt(lastEventId) : latest;
    if (lastEventId !== null) await replayAfter(cursor);
    isLive = true;
    const arrived = early.splice(0);
    if (arrived.length > 0) enqueue(() => sendEvents(arrived));
    if (isFinished) return;
    heartbeat = setInterval(() => write(formatServerSentComment("ping")), limits.heartbeatMs);
    heartbeat.unref();
  }

  return { readable, start, finish };
}
