// The process's one LISTEN connection, shared by every event stream it serves (docs/architecture.md:
// Live events). It tells the database which addresses its streams follow (at once for a new one, then
// every few seconds), so that the triggers record and NOTIFY their changes only. A NOTIFY names an
// address and an event id; the events of addresses that some stream follows are read (in batches,
// in order) and handed to those streams. A lost connection is opened again with growing delays; each
// stream is then told to read what it missed from the table. The connection is opened by the first
// stream and closed a while after the last one ended. It also keeps the count of each user's open
// streams, and ends at once those opened with an API key that any process deleted (a NOTIFY on the
// same channel).
import type pg from "pg";
import { API_KEY_DELETED_NOTICE, LIVE_EVENTS_CHANNEL } from "@/modules/db/live-events-channel";
import type { Logger } from "@/modules/shared/logging/logger";
import { EVENTS_FOLLOW, EVENTS_LISTENER_BACKOFF, EVENTS_LISTENER_IDLE_MS } from "./events.constants";
import type { ProcessingEventRow } from "./events.repository";

export type EventsSubscriber = {
  userId: string;
  emailCallbackId: string;
  /** Events of its address, in sequence order within one call. */
  onEvents: (events: ProcessingEventRow[]) => void;
  /** Notifications may have been missed (the connection was lost, or a read failed): read the table. */
  onMissedEvents: () => void;
};

export type EventsSubscription = {
  /** Resolves once the address is followed and notifications are received; rejects when the connection cannot be opened. */
  ready: Promise<void>;
  unsubscribe: () => void;
};

/** An open stream's response, held until it has ended (counted by countStreams meanwhile). */
export type HeldStream = {
  userId: string;
  /** The API key it was opened with, or null for a session. */
  apiKeyId: string | null;
  /** Its API key was deleted: it ends at once. */
  onKeyDeleted: () => void;
  /** Notices may have been missed (the connection was lost): it checks its caller again. */
  onMissedNotices: () => void;
};

export type EventsListener = {
  /** Registers at once (counted by countSubscriptions from now on). */
  subscribe: (subscriber: EventsSubscriber) => EventsSubscription;
  countSubscriptions: (userId: string) => number;
  /** Registers at once (counted by countStreams from now on); the function it answers releases it. */
  holdStream: (stream: HeldStream) => () => void;
  countStreams: (userId: string) => number;
  close: () => Promise<void>;
};

const noop = () => undefined;

export function createEventsListener({
  createClient,
  readEvents,
  follow,
  logger,
  backoff = EVENTS_LISTENER_BACKOFF,
  idleMs = EVENTS_LISTENER_IDLE_MS,
  followRefreshMs = EVENTS_FOLLOW.refreshMs,
}: {
  createClient: () => pg.Client;
  readEvents: (ids: readonly string[]) => Promise<ProcessingEventRow[]>;
  /** Marks addresses followed, on the listener's connection (events.repository.ts: followEmailCallbacks). */
  follow: (client: pg.Client, emailCallbackIds: readonly string[]) => Promise<void>;
  logger: Logger;
  followRefreshMs?: number;
  backoff?: { initialMs: number; maxMs: number };
  idleMs?: number;
}): EventsListener {
  const subscribers = new Set<EventsSubscriber>();
  const heldStreams = new Set<HeldStream>();
  const byCallback = new Map<string, Set<EventsSubscriber>>();
  let client: pg.Client | undefined;
  let opening: Promise<void> | undefined;
  let hasListened = false;
  let failures = 0;
  let retryTimer: NodeJS.Timeout | undefined;
  let idleTimer: NodeJS.Timeout | undefined;
  let refreshTimer: NodeJS.Timeout | undefined;
  let isClosed = false;
  let pendingIds: string[] = [];
  let reading = Promise.resolve();

  function onNotification(payload: string | undefined) {
    const [emailCallbackId = "", eventId = ""] = (payload ?? "").split(" ");
    if (emailCallbackId === API_KEY_DELETED_NOTICE) {
      for (const stream of heldStreams) if (stream.apiKeyId === eventId) stream.onKeyDeleted();
      return;
    }
    if (!byCallback.has(emailCallbackId) || !/^\d{1,18}$/.test(eventId)) return;
    pendingIds.push(eventId);
    // Notifications that arrive together are read in one query.
    if (pendingIds.length === 1) setImmediate(readPending);
  }

  function readPending() {
    const ids = pendingIds;
    pendingIds = [];
    reading = reading.then(async () => {
      let events: ProcessingEventRow[];
      try {
        events = await readEvents(ids);
      } catch (error) {
        logger.warn({ err: error }, "Reading live events failed");
        for (const subscriber of subscribers) subscriber.onMissedEvents();
        return;
      }
      const grouped = new Map<string, ProcessingEventRow[]>();
      for (const event of events) grouped.set(event.emailCallbackId, [...(grouped.get(event.emailCallbackId) ?? []), event]);
      for (const [emailCallbackId, group] of grouped) {
        for (const subscriber of byCallback.get(emailCallbackId) ?? []) subscriber.onEvents(group);
      }
    });
  }

  /** The followed addresses in one order, so that two processes' refreshes never wait on each other in a cycle. */
  const followedIds = () => [...byCallback.keys()].sort();

  function refreshFollowed() {
    const current = client;
    if (!current || byCallback.size === 0) return;
    follow(current, followedIds()).catch((error: unknown) => {
      logger.warn({ err: error }, "Marking the followed addresses failed");
    });
  }

  function forget(candidate: pg.Client) {
    candidate.removeAllListeners();
    candidate.on("error", noop);
    candidate.end().catch(noop);
  }

  function onLost(candidate: pg.Client, error?: Error) {
    if (candidate !== client) return;
    client = undefined;
    clearInterval(refreshTimer);
    forget(candidate);
    logger.warn({ err: error }, "The live events connection was lost; reconnecting");
    if (!isClosed && subscribers.size > 0) scheduleRetry();
  }

  function scheduleRetry() {
    if (retryTimer || isClosed) return;
    const delay = Math.min(backoff.maxMs, backoff.initialMs * 2 ** Math.min(failures, 16));
    retryTimer = setTimeout(
      () => {
        retryTimer = undefined;
        if (subscribers.size > 0) ensureOpen().catch(noop);
      },
      delay * (0.5 + Math.random() / 2),
    );
    retryTimer.unref();
  }

  async function open() {
    const candidate = createClient();
    candidate.on("notification", (message) => onNotification(message.payload));
    candidate.on("error", (error) => onLost(candidate, error));
    candidate.on("end", () => onLost(candidate));
    try {
      await candidate.connect();
      await candidate.query(`LISTEN "${LIVE_EVENTS_CHANNEL}"`);
      await follow(candidate, followedIds());
    } catch (error) {
      forget(candidate);
      failures += 1;
      if (subscribers.size > 0) scheduleRetry();
      throw error;
    }
    if (isClosed) {
      forget(candidate);
      return;
    }
    client = candidate;
    failures = 0;
    clearInterval(refreshTimer);
    refreshTimer = setInterval(refreshFollowed, followRefreshMs);
    refreshTimer.unref();
    if (hasListened) {
      logger.info("The live events connection is back");
      for (const subscriber of subscribers) subscriber.onMissedEvents();
      for (const stream of heldStreams) stream.onMissedNotices();
    }
    hasListened = true;
  }

  function ensureOpen(): Promise<void> {
    if (isClosed) return Promise.reject(new Error("The live events listener is closed."));
    if (client) return Promise.resolve();
    opening ??= open().finally(() => {
      opening = undefined;
    });
    return opening;
  }

  function closeConnection() {
    const current = client;
    client = undefined;
    hasListened = false;
    clearInterval(refreshTimer);
    if (current) forget(current);
  }

  return {
    subscribe(subscriber) {
      clearTimeout(idleTimer);
      subscribers.add(subscriber);
      const group = byCallback.get(subscriber.emailCallbackId) ?? new Set();
      byCallback.set(subscriber.emailCallbackId, group.add(subscriber));
      let isSubscribed = true;
      return {
        // Followed at once (open() may have done it already: marking twice is harmless).
        ready: ensureOpen().then(() => (client ? follow(client, [subscriber.emailCallbackId]) : undefined)),
        unsubscribe: () => {
          if (!isSubscribed) return;
          isSubscribed = false;
          subscribers.delete(subscriber);
          group.delete(subscriber);
          if (group.size === 0) byCallback.delete(subscriber.emailCallbackId);
          if (subscribers.size > 0) return;
          idleTimer = setTimeout(closeConnection, idleMs);
          idleTimer.unref();
        },
      };
    },
    countSubscriptions: (userId) => [...subscribers].filter((subscriber) => subscriber.userId === userId).length,
    holdStream: (stream) => {
      heldStreams.add(stream);
      return () => void heldStreams.delete(stream);
    },
    countStreams: (userId) => [...heldStreams].filter((stream) => stream.userId === userId).length,
    close: async () => {
      isClosed = true;
      clearTimeout(retryTimer);
      clearTimeout(idleTimer);
      closeConnection();
      await opening?.catch(noop);
    },
  };
}
