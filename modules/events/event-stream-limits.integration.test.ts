// How long a live event stream lasts and what it may cost (docs/security.md: Live events), over real
// HTTP on a fresh database: a client that does not read a large replay is cut off (its connection
// closed) and stops counting against its user's streams, with what waits for it held to the bound;
// deleting an API key ends its streams at once in every process; a session's stream ends once the
// session is signed out or expires; every stream ends after its maximum lifetime, and the `hookmail`
// command resumes after it without missing a mail. Routes whose limits a test shortens are composed
// as the events route is, with those limits.
import net from "node:net";
import pg from "pg";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import * as apiKeyRoute from "@/app/api/api-keys/[apiKeyId]/route";
import * as eventsRoute from "@/app/api/email-callbacks/[emailCallbackId]/events/route";
import * as emailCallbacksRoute from "@/app/api/email-callbacks/route";
import { isCallerCurrent } from "@/modules/auth/caller";
import { type Database, openDatabase } from "@/modules/db/db";
import { withCaller } from "@/modules/server/routes";
import { parseSearchParams } from "@/modules/shared/api/route-handler";
import { createId } from "@/modules/shared/ids";
import { silentLogger } from "@/modules/shared/logging/logger";
import { TEST_BASE_URL } from "@/tests/support/auth-client";
import { startCli } from "@/tests/support/cli-process";
import { readEventStream } from "@/tests/support/event-stream-reader";
import { createMemoryLogger } from "@/tests/support/memory-logger";
import { type NextRouteServer, startNextRouteServer } from "@/tests/support/next-route-server";
import { type RouteHttpServer, startRouteHttpServer } from "@/tests/support/route-http-server";
import { type RouteTestApp, startRouteTestApp, type TestUser } from "@/tests/support/route-test-app";
import { seedEmailCallback } from "@/tests/support/seed";
import { getTestDatabaseServer } from "@/tests/support/test-database";
import { EVENT_STREAM_HEADERS, EVENT_STREAM_LIMITS, EVENTS_FOLLOW, EVENTS_LISTENER_APPLICATION_NAME } from "./events.constants";
import { getEventsDependencies } from "./events.dependencies";
import { createEventsRepository, followEmailCallbacks } from "./events.repository";
import { eventStreamQuerySchema, parseLastEventId } from "./events.schemas";
import { openProcessingEventStream } from "./events.usecases";
import { createEventsListener } from "./events-listener";

type Limits = typeof EVENT_STREAM_LIMITS;

/** The events route with other limits (and a logger the test reads), composed as app/api/…/events/route.ts is. */
function tunedEventsRoute(limits: Partial<Record<keyof Limits, number>>, logger = silentLogger) {
  return withCaller<{ emailCallbackId: string }>(async ({ request, caller, params }) => {
    const stream = await openProcessingEventStream({
      emailCallbackId: params.emailCallbackId,
      userId: caller.userId,
      includeWebhook: parseSearchParams(request, eventStreamQuerySchema).include === "webhook",
      lastEventId: parseLastEventId(request.headers.get("last-event-id")),
      signal: request.signal,
      apiKeyId: caller.via === "api-key" ? caller.apiKeyId : null,
      isCallerValid: () => isCallerCurrent(caller, app.services),
      ...(await getEventsDependencies(app.services)),
      logger,
      limits: { ...EVENT_STREAM_LIMITS, ...limits },
    });
    return new Response(stream, { headers: EVENT_STREAM_HEADERS });
  });
}

const slowReaders = createMemoryLogger();
/** What may wait for a client on the route of the slow-reader test: far below the 17 MiB event it replays. */
const SLOW_READER_BOUND = 1024 * 1024;
const ROUTES = {
  stall: tunedEventsRoute({ readerStallMs: 1_500, maxBufferedBytes: SLOW_READER_BOUND }, slowReaders.logger),
  check: tunedEventsRoute({ callerCheckMs: 200 }),
  lifetime: tunedEventsRoute({ maxLifetimeMs: 600 }),
};

let app: RouteTestApp;
let server: RouteHttpServer;
/** The events routes served as Next.js serves them, with a short idle timeout. */
let nextServer: NextRouteServer;
/** A server whose events route has a short lifetime, for the `hookmail` command. */
let shortLivedServer: RouteHttpServer;
let owner: TestUser;
let ownerKey: Record<string, string>;
/** A second pool on the same database, as another Hookmail process would hold. */
let otherProcess: Database;
const cleanups: (() => void)[] = [];

beforeAll(async () => {
  app = await startRouteTestApp();
  owner = await app.signUp("limits");
  ownerKey = (await app.createApiKey(owner, "limits")).headers;
  server = await startRouteHttpServer([
    { method: "GET", path: "/api/email-callbacks/:emailCallbackId/events", handler: eventsRoute.GET },
    ...Object.entries(ROUTES).map(([name, handler]) => ({
      method: "GET",
      path: `/api/email-callbacks/:emailCallbackId/events-${name}`,
      handler,
    })),
  ]);
  nextServer = await startNextRouteServer(
    {
      "/api/email-callbacks/:emailCallbackId/events": eventsRoute.GET,
      "/api/email-callbacks/:emailCallbackId/events-stall": ROUTES.stall,
    },
    // Longer than reading ten large bodies to sign them on a busy machine (the web role waits 60 s).
    { idleTimeoutMs: 30_000 },
  );
  shortLivedServer = await startRouteHttpServer([
    { method: "GET", path: "/api/email-callbacks", handler: emailCallbacksRoute.GET },
    { method: "GET", path: "/api/email-callbacks/:emailCallbackId/events", handler: tunedEventsRoute({ maxLifetimeMs: 1_500 }) },
  ]);
  const [current] = await app.database.executor.query<{ name: string }>("SELECT current_database() AS name");
  const url = new URL(getTestDatabaseServer().adminUrl);
  url.pathname = `/${current!.name}`;
  otherProcess = await openDatabase({ url: url.toString(), poolSize: 2 });
});
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});
afterAll(async () => {
  await server?.close();
  await nextServer?.close();
  await shortLivedServer?.close();
  await otherProcess?.close();
  await app?.close();
});

async function seedCallback(user = owner) {
  const username = `limits-${createId("emailCallback").slice(3, 13).toLowerCase()}`;
  const { id } = await seedEmailCallback(app.database, {
    userId: user.userId,
    username,
    webhookSecret: "limits-secret-0123456789",
  });
  // Followed, as when a stream opened a moment ago: its changes are recorded and can be replayed.
  const client = otherProcess.createSessionClient("limits-test");
  await client.connect();
  await followEmailCallbacks(client, [id], EVENTS_FOLLOW);
  await client.end();
  return { id, address: `${username}@hookmail.test` };
}

/** A mail recorded through the other process's connection, with a stored webhook body of `bodyBytes`. */
async function insertElsewhere(emailCallbackId: string, subject: string, bodyBytes = 0) {
  const id = createId("emailProcessing");
  const filler = 'a "quoted" line\n'.repeat(Math.ceil(bodyBytes / 16)).slice(0, Math.max(0, bodyBytes - 64));
  const payload = bodyBytes > 0 ? Buffer.from(JSON.stringify({ type: "email.received", data: { subject, text: filler } })) : null;
  await otherProcess.executor.query(
    `INSERT INTO email_processing (id, "emailCallbackId", "fromAddress", subject, recipient, status, payload, "createdAt", "updatedAt")
     VALUES ($1, $2, 'bob@example.org', $3, 'x@hookmail.test', 'pending', $4, now() AT TIME ZONE 'UTC', now() AT TIME ZONE 'UTC')`,
    [id, emailCallbackId, subject, payload],
  );
  // Its delivery to the address's first endpoint, the queue's row that the product writes with it.
  await otherProcess.executor.query(
    `INSERT INTO delivery (id, "emailProcessingId", "endpointId", status, "createdAt", "updatedAt")
     SELECT $1, $2, e.id, 'pending', now(), now() FROM endpoint e WHERE e."emailCallbackId" = $3 ORDER BY e."createdAt", e.id LIMIT 1`,
    [createId("delivery"), id, emailCallbackId],
  );
  return id;
}

async function openStream(path: string, { headers = ownerKey, base = server as { baseUrl: string } } = {}) {
  const controller = new AbortController();
  cleanups.push(() => controller.abort());
  const response = await fetch(`${base.baseUrl}${path}`, { headers, signal: controller.signal });
  return { response, reader: response.ok && response.body ? readEventStream(response.body) : undefined };
}

/**
 * A client that sends its request, reads the answer's first bytes (its status) and then reads
 * nothing more: what the server sends piles up for it.
 */
function openNonReadingClient(path: string, headers: Record<string, string>) {
  const socket = net.connect(Number(new URL(nextServer.baseUrl).port), "127.0.0.1");
  cleanups.push(() => socket.destroy());
  const lines = [
    `GET ${path} HTTP/1.1`,
    "Host: 127.0.0.1",
    "Connection: close",
    ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
  ];
  socket.write(`${lines.join("\r\n")}\r\n\r\n`);
  const status = new Promise<number>((resolve, reject) => {
    socket.once("data", (chunk: Buffer) => {
      socket.pause();
      resolve(Number(/^HTTP\/1\.1 (\d{3})/.exec(chunk.toString("latin1"))?.[1]));
    });
    socket.once("error", reject);
  });
  return { socket, status };
}

describe("a client that does not read its event stream", () => {
  it(`is cut off and its connection closed; it counts until then: an 11th stream opens once the ${EVENT_STREAM_LIMITS.maxStreamsPerUser} slow ones are closed, never more at once, each holding at most the bound of what may wait`, async () => {
    const { id } = await seedCallback();
    await insertElsewhere(id, "A large mail", 12_900_000);
    const { listener } = await getEventsDependencies(app.services);
    const slow = Array.from({ length: EVENT_STREAM_LIMITS.maxStreamsPerUser }, () =>
      openNonReadingClient(`/api/email-callbacks/${id}/events-stall?include=webhook`, { ...ownerKey, "Last-Event-ID": "0" }),
    );
    expect(await Promise.all(slow.map((client) => client.status))).toEqual(slow.map(() => 200));
    expect(listener.countStreams(owner.userId)).toBe(EVENT_STREAM_LIMITS.maxStreamsPerUser);
    // While they are open, even though they read nothing (or were cut off already), the user is at the cap.
    const refused = openNonReadingClient(`/api/email-callbacks/${id}/events`, ownerKey);
    expect(await refused.status).toBe(429);
    refused.socket.destroy();

    // Until the server closed them, every connection still counts.
    const samples: { streams: number; connections: number }[] = [];
    await expect
      .poll(
        () => {
          const connections = nextServer.countConnections();
          samples.push({ streams: listener.countStreams(owner.userId), connections });
          return connections;
        },
        { timeout: 120_000, interval: 50 },
      )
      .toBe(0);
    expect(samples.filter(({ streams, connections }) => streams < connections)).toEqual([]);
    expect(Math.max(...samples.map(({ streams }) => streams))).toBeLessThanOrEqual(EVENT_STREAM_LIMITS.maxStreamsPerUser);
    expect(listener.countStreams(owner.userId)).toBe(0);
    const eleventh = await openStream(`/api/email-callbacks/${id}/events`, { base: nextServer });
    expect(eleventh.response.status).toBe(200);

    const cut = slowReaders.entries.filter((entry) => String(entry.msg).includes("not read by its client"));
    expect(cut).toHaveLength(EVENT_STREAM_LIMITS.maxStreamsPerUser);
    for (const entry of cut) {
      expect(entry.queuedBytes).toBeLessThanOrEqual(SLOW_READER_BOUND);
      // The large body filled what may wait, and no more.
      expect(entry.queuedBytes).toBeGreaterThan(SLOW_READER_BOUND / 2);
    }
  }, 240_000);

  it("a client that reads gets the whole large body, as a webhook receiver would verify it", async () => {
    const { id } = await seedCallback();
    const processingId = await insertElsewhere(id, "A large mail read in full", 12_900_000);
    const { reader } = await openStream(`/api/email-callbacks/${id}/events?include=webhook`, {
      headers: { ...ownerKey, "Last-Event-ID": "0" },
    });
    const received = await reader!.next((message) => message.event === "email.received", 60_000);
    const { headers, body } = JSON.parse(received.data) as { headers: Record<string, string>; body: string };
    const [stored] = await otherProcess.executor.query<{ payload: Buffer }>(
      `SELECT payload FROM email_processing WHERE id = $1`,
      [processingId],
    );
    expect(body).toBe(stored!.payload.toString("utf8"));
    expect(headers["webhook-id"]).toBe(processingId);
    const { Webhook } = await import("standardwebhooks");
    expect(new Webhook("limits-secret-0123456789", { format: "raw" }).verify(body, headers)).toMatchObject({
      data: { subject: "A large mail read in full" },
    });
  }, 120_000);
});

describe("a stream that cannot start", () => {
  it("answers 503 service.unavailable and does not count against its user's streams", async () => {
    const { id } = await seedCallback();
    const unreachable = createEventsListener({
      createClient: () =>
        new pg.Client({ connectionString: "postgres://nobody@127.0.0.1:9/none", connectionTimeoutMillis: 2_000 }),
      readEvents: async () => [],
      follow: async () => undefined,
      logger: silentLogger,
      backoff: { initialMs: 60_000, maxMs: 60_000 },
    });
    cleanups.push(() => void unreachable.close());
    const opening = openProcessingEventStream({
      emailCallbackId: id,
      userId: owner.userId,
      includeWebhook: false,
      lastEventId: null,
      signal: new AbortController().signal,
      apiKeyId: null,
      isCallerValid: async () => true,
      listener: unreachable,
      repository: createEventsRepository(app.database.executor),
      logger: silentLogger,
    });
    await expect(opening).rejects.toMatchObject({ code: "service.unavailable" });
    expect(unreachable.countStreams(owner.userId)).toBe(0);
  });
});

describe("the end of a stream's caller", () => {
  it("deleting an API key ends its open streams at once, in this process and through another process's listener", async () => {
    const { id } = await seedCallback();
    const key = await app.createApiKey(owner, "deleted-while-streaming");
    const here = await openStream(`/api/email-callbacks/${id}/events`, { headers: key.headers });
    expect(here.response.status).toBe(200);

    // Another process: its own listener on its own connection, and a stream that never checks its caller.
    const elsewhere = createEventsListener({
      createClient: () => otherProcess.createSessionClient(EVENTS_LISTENER_APPLICATION_NAME),
      readEvents: createEventsRepository(otherProcess.executor).findEventsByIds,
      follow: (client, ids) => followEmailCallbacks(client, ids, EVENTS_FOLLOW),
      logger: silentLogger,
    });
    cleanups.push(() => void elsewhere.close());
    const gone = new AbortController();
    cleanups.push(() => gone.abort());
    const otherStream = await openProcessingEventStream({
      emailCallbackId: id,
      userId: owner.userId,
      includeWebhook: true,
      lastEventId: null,
      signal: gone.signal,
      apiKeyId: key.id,
      isCallerValid: async () => true,
      listener: elsewhere,
      repository: createEventsRepository(otherProcess.executor),
      logger: silentLogger,
    });
    const there = readEventStream(otherStream);
    await expect.poll(() => there.comments).toContain("connected");
    await expect.poll(() => here.reader!.comments).toContain("connected");

    const deleted = await app.call(apiKeyRoute.DELETE, {
      path: `/api/api-keys/${key.id}`,
      method: "DELETE",
      headers: owner.headers,
      params: { apiKeyId: key.id },
    });
    expect(deleted.status).toBe(204);
    const startedAt = Date.now();
    await Promise.all([here.reader!.ended, there.ended]);
    // Well before the periodic check (every 30 s): the deletion's notice ended them.
    expect(Date.now() - startedAt).toBeLessThan(5_000);
    // A stream cut off counts until its connection is closed, which the server does next.
    gone.abort();
    expect(elsewhere.countStreams(owner.userId)).toBe(0);
    await expect.poll(async () => (await getEventsDependencies(app.services)).listener.countStreams(owner.userId)).toBe(0);
    await insertElsewhere(id, "After the key was deleted");
    expect(here.reader!.pending()).toEqual([]);
    expect(there.pending()).toEqual([]);
  });

  it("a session's stream ends within the check interval once the session is signed out, or expires; a live session's goes on", async () => {
    const signedOut = await app.signUp("signed-out");
    const expired = await app.signUp("expired");
    const staying = await app.signUp("staying");
    const streams = await Promise.all(
      [signedOut, expired, staying].map(async (user) => {
        const { id } = await seedCallback(user);
        const { response, reader } = await openStream(`/api/email-callbacks/${id}/events-check`, { headers: user.headers });
        expect(response.status).toBe(200);
        return reader!;
      }),
    );
    const [signedOutStream, expiredStream, stayingStream] = streams as [
      (typeof streams)[0],
      (typeof streams)[0],
      (typeof streams)[0],
    ];
    let stayingEnded = false;
    void stayingStream.ended.then(() => {
      stayingEnded = true;
    });
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(stayingEnded).toBe(false);

    const signOut = await app.auth.handler(
      new Request(`${TEST_BASE_URL}/api/auth/sign-out`, { method: "POST", headers: signedOut.headers, body: "{}" }),
    );
    expect(signOut.status).toBe(200);
    await app.database.executor.query(`UPDATE session SET "expiresAt" = now() - interval '1 second' WHERE "userId" = $1`, [
      expired.userId,
    ]);
    const startedAt = Date.now();
    await Promise.all([signedOutStream.ended, expiredStream.ended]);
    expect(Date.now() - startedAt).toBeLessThan(2_000);
    expect(stayingEnded).toBe(false);
  });
});

describe("a stream's maximum lifetime", () => {
  it("ends a stream after its maximum lifetime; it told the client when to come back (retry:) and stops counting", async () => {
    const { id } = await seedCallback();
    const startedAt = Date.now();
    const response = await fetch(`${server.baseUrl}/api/email-callbacks/${id}/events-lifetime`, { headers: ownerKey });
    const text = await response.text();
    expect(Date.now() - startedAt).toBeGreaterThanOrEqual(400);
    expect(text.startsWith(`retry: ${EVENT_STREAM_LIMITS.retryMs}\n`)).toBe(true);
    await expect.poll(async () => (await getEventsDependencies(app.services)).listener.countStreams(owner.userId)).toBe(0);
  });

  it("hookmail tail resumes with Last-Event-ID after the server ends its stream, and misses no mail", async () => {
    const { id } = await seedCallback();
    const tail = startCli(["tail", "--address", id], {
      ...process.env,
      HOOKMAIL_URL: shortLivedServer.baseUrl,
      HOOKMAIL_API_KEY: ownerKey.Authorization!.replace("Bearer ", ""),
    });
    cleanups.push(() => tail.child.kill("SIGINT"));
    await expect.poll(tail.stderr, { timeout: 15_000 }).toContain("Ready");
    await insertElsewhere(id, "Before the end");
    await expect.poll(tail.stdout, { timeout: 15_000 }).toContain('"Before the end"');
    // The stream ends after 1.5 s and the command comes back 2 s later: this mail arrives in between.
    await expect.poll(tail.stderr, { timeout: 15_000 }).toContain("the server ended the stream");
    await insertElsewhere(id, "While it was away");
    await expect.poll(tail.stderr, { timeout: 15_000 }).toContain("Reconnected");
    await expect.poll(tail.stdout, { timeout: 15_000 }).toContain('"While it was away"');
    expect(tail.stdout().match(/"Before the end"/g)).toHaveLength(1);
  }, 30_000);
});
