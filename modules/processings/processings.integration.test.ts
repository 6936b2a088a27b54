// The routes of one inbox row and the test mail, through their route handlers on a fresh database:
// redelivery restarts an attempt series on the stored body and keeps the earlier attempts, refuses
// a pending row or one whose body is gone with 409, and answers 404 for anything not the caller's;
// the attempts list comes newest first; a test mail goes through the inbound pipeline.

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as attemptsRoute from "@/app/api/email-callbacks/[emailCallbackId]/processings/[processingId]/attempts/route";
import * as redeliverRoute from "@/app/api/email-callbacks/[emailCallbackId]/processings/[processingId]/redeliver/route";
import * as testMailRoute from "@/app/api/email-callbacks/[emailCallbackId]/test-mail/route";
import { createDeliveryWorker } from "@/modules/delivery/delivery-worker";
import { createProcessMetrics } from "@/modules/metrics/metrics.registry";
import { createId } from "@/modules/shared/ids";
import { silentLogger } from "@/modules/shared/logging/logger";
import { recordDispatchedDeliveries, testDispatcher } from "@/tests/support/recording-dispatcher";
import { setUpOwnerAndStranger } from "@/tests/support/route-test-app";
import { seedDatabase, seedEmailCallback } from "@/tests/support/seed";
import { startWebhookSink, type WebhookSink } from "@/tests/support/webhook-sink";

const suite = setUpOwnerAndStranger("processings");

const dispatched = recordDispatchedDeliveries();

async function seedCallback({
  user = suite.owner,
  webhookUrl = "https://hooks.example.com/incoming",
  isEnabled = true,
  allowedOrigins = [] as string[],
  deletedAt = null as Date | null,
} = {}) {
  const { id } = await seedEmailCallback(suite.app.database, {
    userId: user.userId,
    webhookUrl,
    isEnabled,
    allowedOrigins,
    deletedAt,
  });
  return id;
}

type ProcessingSeed = {
  status?: string;
  error?: string | null;
  webhookResponseStatusCode?: number | null;
  hasPayload?: boolean;
  attemptCount?: number;
  lockedUntil?: Date | null;
  nextAttemptAt?: Date | null;
  deliveredAt?: Date | null;
};

async function seedProcessing(
  emailCallbackId: string,
  {
    status = "error",
    error = status === "error" ? "webhook-failed" : null,
    webhookResponseStatusCode = status === "error" ? 400 : status === "success" ? 200 : null,
    hasPayload = true,
    attemptCount = status === "error" ? 1 : 0,
    lockedUntil = null,
    nextAttemptAt = null,
    deliveredAt = null,
  }: ProcessingSeed = {},
) {
  const id = createId("emailProcessing");
  await seedDatabase(suite.app.database, {
    processings: [
      {
        id,
        emailCallbackId,
        fromAddress: "bob@example.org",
        subject: "Order #42",
        recipient: "alice@hookmail.test",
        status,
        error,
        webhookResponseStatusCode,
        payload: hasPayload ? new Uint8Array(Buffer.from(JSON.stringify({ type: "email.received", data: { id } }))) : null,
        rawMessage: hasPayload ? new Uint8Array(Buffer.from("Subject: Order #42\r\n\r\nHi\r\n")) : null,
        attemptCount,
        lockedUntil,
        nextAttemptAt,
        deliveredAt,
      },
    ],
  });
  return id;
}

/** A mail's deliveries, as the dispatcher is handed them. */
const deliveryIdsOf = async (emailProcessingId: string) =>
  (
    await suite.app.database.prisma.delivery.findMany({
      where: { emailProcessingId },
      orderBy: { id: "asc" },
      select: { id: true },
    })
  ).map(({ id }) => id);

/** A second endpoint of the address, and the mail's delivery to it in the given state. Answers the delivery's id. */
async function seedSecondDelivery(
  emailCallbackId: string,
  emailProcessingId: string,
  state: { status: string; attemptCount: number; lastStatusCode: number | null },
) {
  const endpoint = await suite.app.database.prisma.endpoint.create({
    data: { id: createId("endpoint"), emailCallbackId, url: "https://second.example.com/hook", signingScheme: "none" },
  });
  const deliveredAt = state.status === "success" ? new Date() : null;
  const delivery = await suite.app.database.prisma.delivery.create({
    data: { id: createId("delivery"), emailProcessingId, endpointId: endpoint.id, deliveredAt, ...state },
  });
  return delivery.id;
}

/** An attempt of the mail's delivery (to its address's first endpoint, when it has one). */
async function seedAttempt(
  emailProcessingId: string,
  attemptedAt: string,
  overrides: { statusCode?: number | null; error?: string | null; responseBody?: string | null } = {},
) {
  const id = createId("deliveryAttempt");
  const delivery = await suite.app.database.prisma.delivery.findFirst({ where: { emailProcessingId }, select: { id: true } });
  await suite.app.database.prisma.deliveryAttempt.create({
    data: {
      id,
      emailProcessingId,
      deliveryId: delivery?.id ?? null,
      attemptedAt: new Date(attemptedAt),
      statusCode: 400,
      durationMs: 37,
      error: null,
      responseBody: '{"error":"bad request"}',
      ...overrides,
    },
  });
  return id;
}

const redeliver = (emailCallbackId: string, processingId: string, headers: Record<string, string> = suite.owner.headers) =>
  suite.app.call(redeliverRoute.POST, {
    path: `/api/email-callbacks/${emailCallbackId}/processings/${processingId}/redeliver`,
    method: "POST",
    headers,
    params: { emailCallbackId, processingId },
  });

const listAttempts = (emailCallbackId: string, processingId: string, headers: Record<string, string> = suite.owner.headers) =>
  suite.app.call(attemptsRoute.GET, {
    path: `/api/email-callbacks/${emailCallbackId}/processings/${processingId}/attempts`,
    headers,
    params: { emailCallbackId, processingId },
  });

const sendTestMail = (emailCallbackId: string, headers: Record<string, string> = suite.owner.headers) =>
  suite.app.call(testMailRoute.POST, {
    path: `/api/email-callbacks/${emailCallbackId}/test-mail`,
    method: "POST",
    headers,
    params: { emailCallbackId },
  });

const findProcessing = (id: string) => suite.app.database.prisma.emailProcessing.findUniqueOrThrow({ where: { id } });

describe("POST /api/email-callbacks/{id}/processings/{processingId}/redeliver", () => {
  it("restarts a failed delivery on the stored body: 202, pending, 0 attempts, due now, no error, lock or code, dispatched, history kept", async () => {
    const callbackId = await seedCallback();
    const id = await seedProcessing(callbackId, {
      status: "error",
      attemptCount: 7,
      lockedUntil: new Date("2026-11-01T00:00:00Z"),
    });
    await seedAttempt(id, "2026-11-20T10:00:00Z");
    await seedAttempt(id, "2026-11-20T10:00:30Z");
    const before = await findProcessing(id);
    const startedAt = Date.now();

    const response = await redeliver(callbackId, id);

    expect(response.status).toBe(202);
    expect(response.body?.emailProcessing).toMatchObject({
      id,
      status: "pending",
      error: null,
      webhookResponseStatusCode: null,
      fromAddress: "bob@example.org",
      subject: "Order #42",
    });
    const after = await findProcessing(id);
    expect(after).toMatchObject({ status: "pending", error: null, attemptCount: 0, deliveredAt: null });
    const [delivery] = await suite.app.database.prisma.delivery.findMany({ where: { emailProcessingId: id } });
    expect(delivery).toMatchObject({ status: "pending", attemptCount: 0, lockedUntil: null, lastStatusCode: null });
    expect(after.nextAttemptAt?.getTime()).toBeGreaterThanOrEqual(startedAt - 1000);
    expect(after.nextAttemptAt?.getTime()).toBeLessThanOrEqual(Date.now() + 1000);
    expect(Buffer.from(after.payload ?? []).equals(Buffer.from(before.payload ?? []))).toBe(true);
    expect(dispatched).toEqual(await deliveryIdsOf(id));
    expect(await suite.app.database.prisma.deliveryAttempt.count({ where: { emailProcessingId: id } })).toBe(2);
  });

  it("redelivers a successful processing too, by API key", async () => {
    const callbackId = await seedCallback();
    const id = await seedProcessing(callbackId, { status: "success", deliveredAt: new Date() });
    const response = await redeliver(callbackId, id, suite.ownerKey);
    expect(response.status).toBe(202);
    expect(response.body?.emailProcessing.status).toBe("pending");
    expect(dispatched).toEqual(await deliveryIdsOf(id));
  });

  it("restarts only the deliveries that failed of a mail whose other delivery succeeded", async () => {
    const callbackId = await seedCallback();
    const id = await seedProcessing(callbackId, { status: "error", attemptCount: 7 });
    const [failed] = await deliveryIdsOf(id);
    const succeeded = await seedSecondDelivery(callbackId, id, { status: "success", attemptCount: 1, lastStatusCode: 200 });

    expect((await redeliver(callbackId, id)).status).toBe(202);

    expect(dispatched).toEqual([failed]);
    const deliveries = await suite.app.database.prisma.delivery.findMany({ where: { emailProcessingId: id } });
    expect(deliveries.find((delivery) => delivery.id === failed)).toMatchObject({
      status: "pending",
      attemptCount: 0,
      error: null,
    });
    expect(deliveries.find((delivery) => delivery.id === succeeded)).toMatchObject({
      status: "success",
      attemptCount: 1,
      lastStatusCode: 200,
    });
    expect(await findProcessing(id)).toMatchObject({ status: "pending", attemptCount: 1 });
  });

  it("restarts every delivery of a mail whose deliveries all succeeded", async () => {
    const callbackId = await seedCallback();
    const id = await seedProcessing(callbackId, { status: "success", attemptCount: 1, deliveredAt: new Date() });
    await seedSecondDelivery(callbackId, id, { status: "success", attemptCount: 2, lastStatusCode: 200 });

    expect((await redeliver(callbackId, id)).status).toBe(202);

    expect(dispatched.sort()).toEqual(await deliveryIdsOf(id));
    const deliveries = await suite.app.database.prisma.delivery.findMany({ where: { emailProcessingId: id } });
    expect(deliveries.map(({ status, attemptCount, deliveredAt }) => ({ status, attemptCount, deliveredAt }))).toEqual([
      { status: "pending", attemptCount: 0, deliveredAt: null },
      { status: "pending", attemptCount: 0, deliveredAt: null },
    ]);
  });

  it("refuses a pending processing with 409 email_processing.delivery_in_progress and changes nothing", async () => {
    const callbackId = await seedCallback();
    const nextAttemptAt = new Date("2026-12-01T00:00:00Z");
    const id = await seedProcessing(callbackId, { status: "pending", attemptCount: 3, nextAttemptAt });
    const response = await redeliver(callbackId, id);
    expect(response.status).toBe(409);
    expect(response.body?.error.code).toBe("email_processing.delivery_in_progress");
    expect(await findProcessing(id)).toMatchObject({ status: "pending", attemptCount: 3, nextAttemptAt });
    expect(dispatched).toEqual([]);
  });

  it.each([
    ["a delivered processing whose body was dropped after the retention", { status: "success", hasPayload: false }],
    ["a failed processing whose body was dropped", { status: "error", hasPayload: false }],
    [
      "a not-processed processing (sender not allowed), which never had a body",
      { status: "not-processed", error: "from-address-not-allowed", hasPayload: false },
    ],
    [
      "a not-processed processing (email disabled), which never had a body",
      { status: "not-processed", error: "not-enabled", hasPayload: false },
    ],
  ])("refuses %s with 409 email_processing.message_gone and changes nothing", async (_case, seed) => {
    const callbackId = await seedCallback();
    const id = await seedProcessing(callbackId, seed);
    const before = await findProcessing(id);
    const response = await redeliver(callbackId, id);
    expect(response.status).toBe(409);
    expect(response.body?.error.code).toBe("email_processing.message_gone");
    expect(await findProcessing(id)).toMatchObject({
      status: before.status,
      error: before.error,
      attemptCount: before.attemptCount,
    });
    expect(dispatched).toEqual([]);
  });

  it("lets only one of two simultaneous calls restart the delivery; the other gets 409 delivery_in_progress", async () => {
    const callbackId = await seedCallback();
    const id = await seedProcessing(callbackId, { status: "error" });
    const responses = await Promise.all([redeliver(callbackId, id), redeliver(callbackId, id)]);
    expect(responses.map((response) => response.status).sort()).toEqual([202, 409]);
    expect(responses.find((response) => response.status === 409)?.body?.error.code).toBe("email_processing.delivery_in_progress");
    expect(dispatched).toEqual(await deliveryIdsOf(id));
  });

  it("answers 404 email_callback.not_found to another user, by session and by API key, and changes nothing", async () => {
    const callbackId = await seedCallback();
    const id = await seedProcessing(callbackId, { status: "error" });
    for (const headers of [suite.stranger.headers, suite.strangerKey]) {
      const response = await redeliver(callbackId, id, headers);
      expect(response.status).toBe(404);
      expect(response.body?.error.code).toBe("email_callback.not_found");
    }
    expect((await findProcessing(id)).status).toBe("error");
    expect(dispatched).toEqual([]);
  });

  it("answers 404 email_processing.not_found for a processing of another callback (even the caller's own) or an unknown id", async () => {
    const callbackId = await seedCallback();
    const otherCallbackId = await seedCallback();
    const strangersCallbackId = await seedCallback({ user: suite.stranger });
    const ofOtherCallback = await seedProcessing(otherCallbackId);
    const ofStranger = await seedProcessing(strangersCallbackId);
    for (const processingId of [ofOtherCallback, ofStranger, createId("emailProcessing")]) {
      const response = await redeliver(callbackId, processingId);
      expect(response.status).toBe(404);
      expect(response.body?.error.code).toBe("email_processing.not_found");
    }
    expect((await findProcessing(ofStranger)).status).toBe("error");
    expect(dispatched).toEqual([]);
  });

  it("answers 404 for a deleted callback and 401 to no caller", async () => {
    const deletedId = await seedCallback({ deletedAt: new Date() });
    const id = await seedProcessing(deletedId);
    expect((await redeliver(deletedId, id)).status).toBe(404);
    const response = await redeliver(deletedId, id, {});
    expect(response.status).toBe(401);
    expect(response.body?.error.code).toBe("auth.unauthorized");
  });
});

describe("redelivery through the delivery worker", () => {
  let sink: WebhookSink;
  beforeAll(async () => {
    sink = await startWebhookSink();
  });
  afterAll(() => sink.close());

  it("makes a new attempt at once: success after an earlier failure, both attempts listed newest first", async () => {
    const worker = createDeliveryWorker({
      metrics: createProcessMetrics(),
      database: suite.app.database,
      config: { webhook: { timeoutMs: 2000, allowPrivateTargets: true } },
      logger: silentLogger,
    });
    testDispatcher.use(worker);
    const callbackId = await seedCallback({ webhookUrl: sink.url() });
    const id = await seedProcessing(callbackId, { status: "error" });
    await seedAttempt(id, new Date(Date.now() - 60_000).toISOString(), { statusCode: 400 });
    sink.reply({ status: 200, body: "thanks" });

    expect((await redeliver(callbackId, id)).status).toBe(202);
    await worker.whenIdle();
    await worker.stop();

    expect(sink.requests).toHaveLength(1);
    expect(sink.requests[0]?.headers["webhook-id"]).toBe(id);
    expect(await findProcessing(id)).toMatchObject({
      status: "success",
      error: null,
      webhookResponseStatusCode: 200,
      attemptCount: 1,
    });
    const listed = await listAttempts(callbackId, id);
    expect(listed.body?.deliveryAttempts.map((attempt: { statusCode: number }) => attempt.statusCode)).toEqual([200, 400]);
    expect(listed.body?.deliveryAttempts[0].responseBody).toBe("thanks");
  });
});

describe("GET /api/email-callbacks/{id}/processings/{processingId}/attempts", () => {
  it("lists the processing's attempts newest first, with time, status code, duration, error and response excerpt", async () => {
    const callbackId = await seedCallback();
    const id = await seedProcessing(callbackId);
    const other = await seedProcessing(callbackId);
    const middle = await seedAttempt(id, "2026-11-20T10:00:30Z", { statusCode: 503, responseBody: "busy" });
    const oldest = await seedAttempt(id, "2026-11-20T10:00:00Z", {
      statusCode: null,
      error: "timeout: no answer within 15000 ms",
      responseBody: null,
    });
    const newest = await seedAttempt(id, "2026-11-20T10:02:30Z");
    await seedAttempt(other, "2026-11-20T10:05:00Z");
    // Each attempt names the endpoint of its delivery: here the address's first.
    const { endpointId } = await suite.app.database.prisma.delivery.findFirstOrThrow({ where: { emailProcessingId: id } });

    for (const headers of [suite.owner.headers, suite.ownerKey]) {
      const response = await listAttempts(callbackId, id, headers);
      expect(response.status).toBe(200);
      expect(response.body?.deliveryAttempts).toEqual([
        {
          id: newest,
          attemptedAt: "2026-11-20T10:02:30.000Z",
          endpointId,
          statusCode: 400,
          durationMs: 37,
          error: null,
          responseBody: '{"error":"bad request"}',
        },
        {
          id: middle,
          attemptedAt: "2026-11-20T10:00:30.000Z",
          endpointId,
          statusCode: 503,
          durationMs: 37,
          error: null,
          responseBody: "busy",
        },
        {
          id: oldest,
          attemptedAt: "2026-11-20T10:00:00.000Z",
          endpointId,
          statusCode: null,
          durationMs: 37,
          error: "timeout: no answer within 15000 ms",
          responseBody: null,
        },
      ]);
    }
  });

  it("answers an empty list for a processing never attempted", async () => {
    const callbackId = await seedCallback();
    const id = await seedProcessing(callbackId, { status: "not-processed", error: "not-enabled", hasPayload: false });
    const response = await listAttempts(callbackId, id);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ deliveryAttempts: [] });
  });

  it("answers 404 to another user, for another callback's processing and for a deleted callback; 401 to no caller", async () => {
    const callbackId = await seedCallback();
    const id = await seedProcessing(callbackId);
    await seedAttempt(id, "2026-11-20T10:00:00Z");
    for (const headers of [suite.stranger.headers, suite.strangerKey]) {
      const response = await listAttempts(callbackId, id, headers);
      expect(response.status).toBe(404);
      expect(response.body?.error.code).toBe("email_callback.not_found");
    }
    const otherCallbackId = await seedCallback();
    const wrongCallback = await listAttempts(otherCallbackId, id);
    expect(wrongCallback.status).toBe(404);
    expect(wrongCallback.body?.error.code).toBe("email_processing.not_found");
    const deletedId = await seedCallback({ deletedAt: new Date() });
    expect((await listAttempts(deletedId, await seedProcessing(deletedId))).status).toBe(404);
    expect((await listAttempts(callbackId, id, {})).status).toBe(401);
  });
});

describe("POST /api/email-callbacks/{id}/test-mail", () => {
  it("runs a sample message through the pipeline: 202 {accepted: 1}, a pending inbox row from test@domain, dispatched", async () => {
    const callbackId = await seedCallback();
    const callback = await suite.app.database.prisma.emailCallback.findUniqueOrThrow({ where: { id: callbackId } });
    const address = `${callback.username}@${callback.domain}`;

    const response = await sendTestMail(callbackId);

    expect(response.status).toBe(202);
    expect(response.body).toEqual({ accepted: 1 });
    const rows = await suite.app.database.prisma.emailProcessing.findMany({ where: { emailCallbackId: callbackId } });
    expect(rows).toHaveLength(1);
    const [row] = rows;
    expect(row).toMatchObject({
      fromAddress: "test@hookmail.test",
      subject: "Hookmail test mail",
      recipient: address,
      status: "pending",
    });
    expect(dispatched).toEqual(await deliveryIdsOf(row!.id));
    const payload = JSON.parse(Buffer.from(row?.payload ?? []).toString("utf8"));
    expect(payload.data).toMatchObject({
      id: row?.id,
      address,
      envelope: { from: "test@hookmail.test", to: [address] },
      from: { address: "test@hookmail.test", name: "Hookmail" },
      subject: "Hookmail test mail",
    });
    expect(payload.data.text).toContain("test mail");
    expect(payload.data.html).toContain("<strong>Hookmail</strong>");
  });

  it("works by API key, and each test mail is a new row (no duplicate Message-ID)", async () => {
    const callbackId = await seedCallback();
    expect((await sendTestMail(callbackId, suite.ownerKey)).body).toEqual({ accepted: 1 });
    expect((await sendTestMail(callbackId, suite.ownerKey)).body).toEqual({ accepted: 1 });
    expect(await suite.app.database.prisma.emailProcessing.count({ where: { emailCallbackId: callbackId } })).toBe(2);
  });

  it.each([
    ["a disabled callback", { isEnabled: false }, "not-enabled"],
    ["an allowed-senders list without test@domain", { allowedOrigins: ["boss@example.org"] }, "from-address-not-allowed"],
  ])("records it as not processed for %s, like real mail, and dispatches nothing", async (_case, seed, reason) => {
    const callbackId = await seedCallback(seed);
    const response = await sendTestMail(callbackId);
    expect(response.status).toBe(202);
    expect(response.body).toEqual({ accepted: 1 });
    const row = await suite.app.database.prisma.emailProcessing.findFirstOrThrow({ where: { emailCallbackId: callbackId } });
    expect(row).toMatchObject({ status: "not-processed", error: reason, payload: null });
    expect(dispatched).toEqual([]);
  });

  it("answers 404 to another user and for a deleted callback, and records nothing", async () => {
    const callbackId = await seedCallback();
    for (const headers of [suite.stranger.headers, suite.strangerKey]) {
      const response = await sendTestMail(callbackId, headers);
      expect(response.status).toBe(404);
      expect(response.body?.error.code).toBe("email_callback.not_found");
    }
    const deletedId = await seedCallback({ deletedAt: new Date() });
    expect((await sendTestMail(deletedId)).status).toBe(404);
    expect(
      await suite.app.database.prisma.emailProcessing.count({ where: { emailCallbackId: { in: [callbackId, deletedId] } } }),
    ).toBe(0);
    expect((await sendTestMail(callbackId, {})).status).toBe(401);
  });
});

/**
 * Parallel calls' answers: the accepted (202) and the refused, each refused one checked to be 429
 * request.rate_limited with a Retry-After of at least a second.
 */
function splitByRateLimit(responses: Awaited<ReturnType<typeof sendTestMail>>[]) {
  const refused = responses.filter((response) => response.status !== 202);
  for (const response of refused) {
    expect(response.status).toBe(429);
    expect(response.body?.error.code).toBe("request.rate_limited");
    expect(Number(response.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
  }
  return { accepted: responses.filter((response) => response.status === 202), refused };
}

describe("rate limits per address (docs/security.md)", () => {
  it("let at most 10 test mails a minute through to one address: of 100 parallel calls 10 are accepted, 90 answer 429 request.rate_limited with Retry-After, and only 10 mails are recorded and dispatched", async () => {
    const callbackId = await seedCallback();
    const { accepted, refused } = splitByRateLimit(
      await Promise.all(Array.from({ length: 100 }, () => sendTestMail(callbackId))),
    );

    expect(accepted).toHaveLength(10);
    expect(refused).toHaveLength(90);
    for (const response of refused) expect(Number(response.headers.get("retry-after"))).toBeLessThanOrEqual(60);
    expect(await suite.app.database.prisma.emailProcessing.count({ where: { emailCallbackId: callbackId } })).toBe(10);
    expect(dispatched).toHaveLength(10);

    const otherCallbackId = await seedCallback();
    expect((await sendTestMail(otherCallbackId)).status).toBe(202);
  });

  it("let at most 60 redeliveries a minute through for one address: of 100 parallel calls 60 restart a delivery, 40 answer 429 with Retry-After and change nothing", async () => {
    const callbackId = await seedCallback();
    const processingIds = await Promise.all(Array.from({ length: 100 }, () => seedProcessing(callbackId)));
    const { accepted, refused } = splitByRateLimit(
      await Promise.all(processingIds.map((processingId) => redeliver(callbackId, processingId))),
    );

    expect(accepted).toHaveLength(60);
    expect(refused).toHaveLength(40);
    expect(
      await suite.app.database.prisma.emailProcessing.count({ where: { emailCallbackId: callbackId, status: "pending" } }),
    ).toBe(60);
    expect(
      await suite.app.database.prisma.emailProcessing.count({ where: { emailCallbackId: callbackId, status: "error" } }),
    ).toBe(40);
    expect(dispatched).toHaveLength(60);
  });
});
