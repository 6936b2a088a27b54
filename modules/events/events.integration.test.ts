// GET /api/email-callbacks/{id}/events through its route handler on a fresh database, with the real
// pipeline and delivery worker (docs/webhooks.md: Live events): processing events as mail arrives
// and as its delivery ends, changes made through another connection, Last-Event-ID, the signed
// webhook of include=webhook, another user's address, and the listener's reconnection.
import { Webhook } from "standardwebhooks";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import * as eventsRoute from "@/app/api/email-callbacks/[emailCallbackId]/events/route";
import * as testMailRoute from "@/app/api/email-callbacks/[emailCallbackId]/test-mail/route";
import { type Database, openDatabase } from "@/modules/db/db";
import { createDeliveryWorker, type DeliveryWorker } from "@/modules/delivery/delivery-worker";
import { createProcessMetrics } from "@/modules/metrics/metrics.registry";
import { createId } from "@/modules/shared/ids";
import { silentLogger } from "@/modules/shared/logging/logger";
import { TEST_BASE_URL } from "@/tests/support/auth-client";
import { readEventStream, type StreamMessage } from "@/tests/support/event-stream-reader";
import { testDispatcher } from "@/tests/support/recording-dispatcher";
import { type RouteTestApp, startRouteTestApp, type TestUser } from "@/tests/support/route-test-app";
import { seedEmailCallback } from "@/tests/support/seed";
import { getTestDatabaseServer } from "@/tests/support/test-database";
import { startWebhookSink, type WebhookSink } from "@/tests/support/webhook-sink";
import { EVENT_STREAM_LIMITS, EVENTS_LISTENER_APPLICATION_NAME } from "./events.constants";
import { getEventsDependencies } from "./events.dependencies";
import { openProcessingEventStream } from "./events.usecases";

const SECRET = "events-webhook-secret-0123456789";

let app: RouteTestApp;
let owner: TestUser;
let stranger: TestUser;
let ownerKey: Record<string, string>;
let sink: WebhookSink;
let worker: DeliveryWorker;
/** A second pool on the same database, as another Hookmail process would hold. */
let otherProcess: Database;
const openStreams: AbortController[] = [];

beforeAll(async () => {
  app = await startRouteTestApp({ WEBHOOK_ALLOW_PRIVATE_TARGETS: "true", WEBHOOK_TIMEOUT_MS: "5000" });
  ({ owner, stranger, ownerKey } = await app.signUpOwnerAndStranger("events"));
  sink = await startWebhookSink();
  worker = createDeliveryWorker({
    metrics: createProcessMetrics(),
    database: app.database,
    config: app.config,
    logger: silentLogger,
  });
  testDispatcher.use(worker);
  const [current] = await app.database.executor.query<{ name: string }>("SELECT current_database() AS name");
  const name = current!.name;
  const url = new URL(getTestDatabaseServer().adminUrl);
  url.pathname = `/${name}`;
  otherProcess = await openDatabase({ url: url.toString(), poolSize: 2 });
});
afterEach(() => {
  for (const controller of openStreams.splice(0)) controller.abort();
});
afterAll(async () => {
  testDispatcher.use(undefined);
  await worker?.stop();
  await sink?.close();
  await otherProcess?.close();
  await app?.close();
});

async function seedCallback(user = owner) {
  const username = `events-${createId("emailCallback").slice(3, 13).toLowerCase()}`;
  const { id } = await seedEmailCallback(app.database, {
    userId: user.userId,
    username,
    webhookUrl: sink.url(`/${username}`),
    webhookSecret: SECRET,
  });
  return { id, address: `${username}@hookmail.test` };
}

async function openStream(
  emailCallbackId: string,
  {
    headers = ownerKey,
    query = "",
    lastEventId,
  }: { headers?: Record<string, string>; query?: string; lastEventId?: string } = {},
) {
  const controller = new AbortController();
  openStreams.push(controller);
  const request = new Request(`${TEST_BASE_URL}/api/email-callbacks/${emailCallbackId}/events${query}`, {
    headers: { ...headers, ...(lastEventId ? { "Last-Event-ID": lastEventId } : {}) },
    signal: controller.signal,
  });
  const response = await eventsRoute.GET(request, { params: Promise.resolve({ emailCallbackId }) });
  return { response, controller, reader: response.status === 200 && response.body ? readEventStream(response.body) : undefined };
}

function composeMessage(to: string, subject: string) {
  return Buffer.from(
    [
      "From: Alice <alice@example.org>",
      `To: ${to}`,
      `Subject: ${subject}`,
      `Message-ID: <${createId("emailProcessing")}@example.org>`,
      "Content-Type: text/plain; charset=utf-8",
      "",
      `Body of ${subject}`,
      "",
    ].join("\r\n"),
  );
}

const send = async (to: string, subject: string) =>
  (await app.services.inbound()).receive({ raw: composeMessage(to, subject), envelope: { from: "alice@example.org", to: [to] } });

const parse = (message: StreamMessage) => JSON.parse(message.data) as Record<string, any>;
const isProcessing = (status?: string) => (message: StreamMessage) =>
  message.event === "processing" && (status === undefined || parse(message).status === status);

/** A processing row written through the other process's connection, with no pipeline of this process involved. */
async function insertElsewhere(emailCallbackId: string, subject: string, createdAt = new Date()) {
  const id = createId("emailProcessing");
  await otherProcess.executor.query(
    `INSERT INTO email_processing (id, "emailCallbackId", "fromAddress", subject, recipient, status, "createdAt", "updatedAt")
     VALUES ($1, $2, 'bob@example.org', $3, 'x@hookmail.test', 'pending', $4::timestamptz AT TIME ZONE 'UTC', $4::timestamptz AT TIME ZONE 'UTC')`,
    [id, emailCallbackId, subject, createdAt.toISOString()],
  );
  // Its delivery to the address's first endpoint, the queue's row that the product writes with it.
  await otherProcess.executor.query(
    `INSERT INTO delivery (id, "emailProcessingId", "endpointId", status, "createdAt", "updatedAt")
     SELECT $1, $2, e.id, 'pending', now(), now() FROM endpoint e WHERE e."emailCallbackId" = $3 ORDER BY e."createdAt", e.id LIMIT 1`,
    [createId("delivery"), id, emailCallbackId],
  );
  return id;
}

describe("GET /api/email-callbacks/{id}/events", () => {
  it("answers an event stream that is neither cached nor compressed, and starts with a retry hint", async () => {
    const { id } = await seedCallback();
    const { response, reader } = await openStream(id);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/event-stream; charset=utf-8");
    expect(response.headers.get("cache-control")).toBe("no-cache, no-transform");
    await expect.poll(() => reader?.comments).toContain("connected");
  });

  it("sends a processing event when a mail is accepted and another when its delivery ends, with increasing ids", async () => {
    const { id, address } = await seedCallback();
    const { reader } = await openStream(id);
    await send(address, "First live mail");
    const received = await reader!.next(isProcessing("pending"));
    const delivered = await reader!.next(isProcessing("success"));
    expect(parse(received)).toMatchObject({
      fromAddress: "alice@example.org",
      subject: "First live mail",
      status: "pending",
      error: null,
      webhookResponseStatusCode: null,
    });
    expect(parse(delivered)).toMatchObject({
      id: parse(received).id,
      status: "success",
      webhookResponseStatusCode: 200,
      attemptCount: 1,
    });
    expect(BigInt(delivered.id!)).toBeGreaterThan(BigInt(received.id!));
    expect(reader!.pending().filter(({ event }) => event === "email.received")).toEqual([]);
  });

  it("sends the changes another process makes on the same database", async () => {
    const { id } = await seedCallback();
    const { reader } = await openStream(id);
    const processingId = await insertElsewhere(id, "Written elsewhere");
    expect(parse(await reader!.next(isProcessing("pending")))).toMatchObject({ id: processingId, subject: "Written elsewhere" });
    await otherProcess.executor.query(
      `UPDATE delivery SET status = 'error', error = 'webhook-failed', "lastStatusCode" = 500 WHERE "emailProcessingId" = $1`,
      [processingId],
    );
    expect(parse(await reader!.next(isProcessing("error")))).toMatchObject({
      id: processingId,
      error: "webhook-failed",
      webhookResponseStatusCode: 500,
    });
  });

  it("sends nothing for a claim, a change of the stored content, or a row of history loaded with an old date", async () => {
    const { id } = await seedCallback();
    const { reader } = await openStream(id);
    await insertElsewhere(id, "Imported from last year", new Date(Date.now() - 365 * 24 * 3_600_000));
    const processingId = await insertElsewhere(id, "Claimed");
    await reader!.next(isProcessing("pending"));
    await otherProcess.executor.query(
      `UPDATE delivery SET "lockedUntil" = now() + interval '1 minute' WHERE "emailProcessingId" = $1`,
      [processingId],
    );
    await otherProcess.executor.query(`UPDATE email_processing SET payload = '\\x7b7d' WHERE id = $1`, [processingId]);
    await otherProcess.executor.query(`UPDATE delivery SET status = 'not-processed' WHERE "emailProcessingId" = $1`, [
      processingId,
    ]);
    const next = await reader!.next();
    expect(parse(next)).toMatchObject({ id: processingId, status: "not-processed" });
  });

  it("records events only for an address a stream follows: none before, all while streamed, none once its mark expires", async () => {
    const { id } = await seedCallback();
    const countEvents = async () => {
      const [row] = await otherProcess.executor.query<{ count: number }>(
        `SELECT count(*)::int AS count FROM processing_event WHERE "emailCallbackId" = $1`,
        [id],
      );
      return row!.count;
    };
    await insertElsewhere(id, "Before anyone follows");
    expect(await countEvents()).toBe(0);

    const { reader, controller } = await openStream(id);
    const followed = await insertElsewhere(id, "While streamed");
    expect(parse(await reader!.next(isProcessing()))).toMatchObject({ id: followed });
    expect(await countEvents()).toBe(1);
    controller.abort();

    // As when every process that streamed it stopped more than the replay window ago.
    await otherProcess.executor.query(
      `UPDATE processing_event_follower SET "streamedUntil" = now() - interval '1 second', "followedUntil" = now() - interval '1 second'
       WHERE "emailCallbackId" = $1`,
      [id],
    );
    await insertElsewhere(id, "After the mark expired");
    expect(await countEvents()).toBe(1);
  });

  it("with Last-Event-ID, replays the events missed since that one, in order, and then goes on live", async () => {
    const { id } = await seedCallback();
    const first = await openStream(id);
    await insertElsewhere(id, "Seen before leaving");
    const seen = await first.reader!.next(isProcessing());
    first.controller.abort();
    const missed = [await insertElsewhere(id, "Missed one"), await insertElsewhere(id, "Missed two")];

    const resumed = await openStream(id, { lastEventId: seen.id });
    const replayed = [await resumed.reader!.next(), await resumed.reader!.next()];
    expect(replayed.map((message) => parse(message).id)).toEqual(missed);
    expect(BigInt(replayed[0]!.id!)).toBeGreaterThan(BigInt(seen.id!));
    const live = await insertElsewhere(id, "Live again");
    expect(parse(await resumed.reader!.next())).toMatchObject({ id: live });
  });

  it("answers 400 for a Last-Event-ID that is no event id, and for an unknown include", async () => {
    const { id } = await seedCallback();
    expect((await openStream(id, { lastEventId: "abc" })).response.status).toBe(400);
    expect((await openStream(id, { query: "?include=everything" })).response.status).toBe(400);
  });

  it("with include=webhook, sends each arriving mail's exact webhook body, signed with the address's secret", async () => {
    const { id, address } = await seedCallback();
    const { reader } = await openStream(id, { query: "?include=webhook" });
    sink.reset();
    await send(address, "Signed body");
    const webhook = await reader!.next((message) => message.event === "email.received");
    expect(webhook.id).toBeUndefined();
    const { headers, body } = parse(webhook) as { headers: Record<string, string>; body: string };
    const payload = new Webhook(SECRET, { format: "raw" }).verify(body, headers) as { type: string; data: { subject: string } };
    expect(payload).toMatchObject({ type: "email.received", data: { subject: "Signed body" } });
    const processing = await reader!.next(isProcessing("pending"));
    expect(headers["webhook-id"]).toBe(parse(processing).id);
    await sink.waitForRequests(1);
    expect(sink.requests[0]!.body.toString("utf8")).toBe(body);
    expect(sink.requests[0]!.headers["webhook-id"]).toBe(headers["webhook-id"]);
  });

  it("answers 404 email_callback.not_found for another user's address, and 401 without credentials", async () => {
    const { id } = await seedCallback(stranger);
    const other = await openStream(id);
    expect(other.response.status).toBe(404);
    expect(await other.response.json()).toMatchObject({ error: { code: "email_callback.not_found" } });
    expect((await openStream(id, { headers: {} })).response.status).toBe(401);
  });

  it("shares one listener connection between streams and lets go of a stream when its client leaves", async () => {
    const { id } = await seedCallback();
    const streams = [await openStream(id), await openStream(id), await openStream(id)];
    const { listener } = await getEventsDependencies(app.services);
    expect(listener.countSubscriptions(owner.userId)).toBe(3);
    const [listeners] = await app.database.executor.query<{ count: number }>(
      `SELECT count(*)::int AS count FROM pg_stat_activity WHERE application_name = $1 AND datname = current_database()`,
      [EVENTS_LISTENER_APPLICATION_NAME],
    );
    expect(listeners!.count).toBe(1);
    for (const stream of streams) stream.controller.abort();
    await expect.poll(() => listener.countSubscriptions(owner.userId)).toBe(0);
    await Promise.all(streams.map((stream) => stream.reader!.ended));
  });

  it(`holds a user to ${EVENT_STREAM_LIMITS.maxStreamsPerUser} streams at once (429 request.rate_limited beyond)`, async () => {
    const { id } = await seedCallback();
    for (let index = 0; index < EVENT_STREAM_LIMITS.maxStreamsPerUser; index += 1) {
      expect((await openStream(id)).response.status).toBe(200);
    }
    const refused = await openStream(id);
    expect(refused.response.status).toBe(429);
    expect(refused.response.headers.get("retry-after")).toBeTruthy();
  });

  it("writes a heartbeat comment while nothing happens", async () => {
    const { id } = await seedCallback();
    const controller = new AbortController();
    openStreams.push(controller);
    const stream = await openProcessingEventStream({
      emailCallbackId: id,
      userId: owner.userId,
      includeWebhook: false,
      lastEventId: null,
      signal: controller.signal,
      apiKeyId: null,
      isCallerValid: async () => true,
      ...(await getEventsDependencies(app.services)),
      logger: silentLogger,
      limits: { ...EVENT_STREAM_LIMITS, heartbeatMs: 50 },
    });
    const reader = readEventStream(stream);
    await expect.poll(() => reader.comments.filter((comment) => comment === "ping").length).toBeGreaterThanOrEqual(2);
  });

  it("reconnects its listener after the connection is killed, and the streams catch up on what happened meanwhile", async () => {
    const { id } = await seedCallback();
    const { reader } = await openStream(id);
    const [listenerBackend] = await otherProcess.executor.query<{ pid: number }>(
      `SELECT pid FROM pg_stat_activity WHERE application_name = $1 AND datname = current_database()`,
      [EVENTS_LISTENER_APPLICATION_NAME],
    );
    const pid = listenerBackend!.pid;
    await otherProcess.executor.query("SELECT pg_terminate_backend($1)", [pid]);
    const duringOutage = await insertElsewhere(id, "While the listener was away");
    expect(parse(await reader!.next(isProcessing(), 15_000))).toMatchObject({ id: duringOutage });
    await expect
      .poll(async () => {
        const rows = await otherProcess.executor.query<{ pid: number }>(
          `SELECT pid FROM pg_stat_activity WHERE application_name = $1 AND datname = current_database()`,
          [EVENTS_LISTENER_APPLICATION_NAME],
        );
        return rows.map((row) => (row.pid === pid ? "the killed one" : "a new one"));
      })
      .toEqual(["a new one"]);
    const afterwards = await insertElsewhere(id, "After the reconnection");
    expect(parse(await reader!.next())).toMatchObject({ id: afterwards });
  });
});

describe("POST /api/email-callbacks/{id}/test-mail with Content-Type message/rfc822", () => {
  const post = (emailCallbackId: string, body: Buffer, headers: Record<string, string> = ownerKey) =>
    testMailRoute.POST(
      new Request(`${TEST_BASE_URL}/api/email-callbacks/${emailCallbackId}/test-mail`, {
        method: "POST",
        headers: { ...headers, "Content-Type": "message/rfc822" },
        body: new Uint8Array(body),
      }),
      { params: Promise.resolve({ emailCallbackId }) },
    );

  it("sends that message to the address through the pipeline (202 {accepted})", async () => {
    const { id } = await seedCallback();
    const { reader } = await openStream(id);
    const response = await post(id, composeMessage("someone-else@example.org", "My own message"));
    expect(response.status).toBe(202);
    expect(await response.json()).toEqual({ accepted: 1 });
    expect(parse(await reader!.next(isProcessing()))).toMatchObject({
      subject: "My own message",
      fromAddress: "alice@example.org",
    });
  });

  it("refuses what is not a message (400) and a message over MAX_MESSAGE_BYTES (413)", async () => {
    const { id } = await seedCallback();
    expect((await post(id, Buffer.from("just some text"))).status).toBe(400);
    const tooLarge = Buffer.concat([
      composeMessage("x@example.org", "Large"),
      Buffer.alloc(app.config.inbound.maxMessageBytes, 97),
    ]);
    expect((await post(id, tooLarge)).status).toBe(413);
  });
});
