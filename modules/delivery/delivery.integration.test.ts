// Webhook delivery end to end on a fresh migrated database of the test server: real loopback HTTP sinks, the real claim SQL, a controllable clock instead of real waiting.

import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Database } from "@/modules/db/db";
import { createProcessMetrics } from "@/modules/metrics/metrics.registry";
import { createId } from "@/modules/shared/ids";
import { resolveHost } from "@/modules/shared/net/webhook-target";
import { createMemoryLogger, type MemoryLogger } from "@/tests/support/memory-logger";
import { seedDatabase, seedEmailCallback, seedUser } from "@/tests/support/seed";
import { createTestClock } from "@/tests/support/test-clock";
import { createTestDatabasePair } from "@/tests/support/test-database";
import { startWebhookSink, type WebhookSink } from "@/tests/support/webhook-sink";
import { createDeliveryRepository } from "./delivery.repository";
import { createDeliveryWorker, type DeliveryWorkerOptions } from "./delivery-worker";
import { postWebhook, type WebhookRequest } from "./webhook-client";

const SECOND = 1000;
const SECRET = "whsec-integration-0123456789";

/** Two connections to one database, as two processes would hold. */
let database: Database;
let otherDatabase: Database;
let closeDatabases: () => Promise<void>;
let sink: WebhookSink;
let userId: string;
let memory: MemoryLogger;

const time = createTestClock();

beforeAll(async () => {
  ({ database, otherDatabase, close: closeDatabases } = await createTestDatabasePair());
  sink = await startWebhookSink();
  userId = createId("user");
  await seedUser(database, { id: userId, name: "Alice", email: `alice-${userId}@example.com` });
});
afterAll(async () => {
  await sink?.close();
  await closeDatabases?.();
});
beforeEach(async () => {
  await database.prisma.emailProcessing.deleteMany();
  sink.reset();
  time.set(new Date());
  memory = createMemoryLogger();
});

function newWorker(overrides: Partial<DeliveryWorkerOptions> = {}) {
  return createDeliveryWorker({
    metrics: createProcessMetrics(),
    database,
    config: { webhook: { timeoutMs: 2000, allowPrivateTargets: true } },
    logger: memory.logger,
    clock: time.now,
    random: () => 0.5,
    ...overrides,
  });
}

/** A webhook body (docs/webhooks.md), deliberately formatted so re-serialising it would change its bytes. */
function buildPayload(id: string, emailCallbackId: string) {
  const body = `{
  "type": "email.received",
  "timestamp": "2026-11-21T10:00:00.000Z",
  "data": {"id": "${id}", "emailCallbackId": "${emailCallbackId}", "address": "alice@hookmail.test", "tag": null,
    "subject": "Grüße \\u00e9 — 👋", "text": "line 1\\r\\nline 2", "attachments": []}
}`;
  return new Uint8Array(Buffer.from(body, "utf8"));
}

async function seedCallback({
  webhookUrl = sink.url(),
  webhookSecret = SECRET as string | null,
  isEnabled = true,
}: {
  webhookUrl?: string;
  webhookSecret?: string | null;
  isEnabled?: boolean;
} = {}) {
  const { id } = await seedEmailCallback(database, { userId, webhookUrl, webhookSecret, isEnabled });
  return id;
}

/** The ids of a mail's deliveries, oldest first: what the worker claims and attempts. */
async function deliveryIdsOf(processingId: string): Promise<string[]> {
  const deliveries = await database.prisma.delivery.findMany({
    where: { emailProcessingId: processingId },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    select: { id: true },
  });
  return deliveries.map(({ id }) => id);
}

/**
 * A mail of the address (one seeded when none is given) and, when it was or is being delivered
 * (pending, success, error), its delivery to the address's first endpoint, as seedDatabase writes it.
 */
async function seedProcessing({
  emailCallbackId,
  status = "pending",
  withPayload = true,
}: {
  emailCallbackId?: string;
  status?: string;
  withPayload?: boolean;
} = {}) {
  const callbackId = emailCallbackId ?? (await seedCallback());
  const id = createId("emailProcessing");
  const payload = buildPayload(id, callbackId);
  await seedDatabase(database, {
    processings: [
      {
        id,
        emailCallbackId: callbackId,
        fromAddress: "bob@example.org",
        subject: "Hello",
        recipient: "alice@hookmail.test",
        status,
        payload: withPayload ? payload : null,
        rawMessage: new Uint8Array(Buffer.from("Subject: Hello\r\n\r\nHi\r\n")),
        nextAttemptAt: status === "pending" ? time.now() : null,
        attemptCount: 0,
      },
    ],
  });
  // A mail that was not processed has none (its deliveryId is then undefined).
  const [deliveryId] = await deliveryIdsOf(id);
  return { id, deliveryId: deliveryId!, payload };
}

const findProcessing = (id: string) => database.prisma.emailProcessing.findUniqueOrThrow({ where: { id } });
const findDelivery = (id: string) => database.prisma.delivery.findUniqueOrThrow({ where: { id } });
const findAttempts = (id: string) =>
  database.prisma.deliveryAttempt.findMany({ where: { emailProcessingId: id }, orderBy: { attemptedAt: "asc" } });

async function deliverNow(worker: ReturnType<typeof newWorker>, ids: string[]) {
  worker.deliverSoon(ids);
  await worker.whenIdle();
}

async function deliverDueNow(worker: ReturnType<typeof newWorker>) {
  const claimed = await worker.deliverDue();
  await worker.whenIdle();
  return claimed;
}

function verifySignature(request: WebhookSink["requests"][number]) {
  return new Webhook(SECRET, { format: "raw" }).verify(request.body, request.headers as Record<string, string>);
}

describe("a successful delivery", () => {
  it("POSTs the stored payload bytes exactly, signed so standardwebhooks verifies them, and records success", async () => {
    const { id, deliveryId, payload } = await seedProcessing();
    sink.reply({ status: 200, body: "thanks" });
    await deliverNow(newWorker(), [deliveryId]);

    expect(sink.requests).toHaveLength(1);
    const [request] = sink.requests;
    if (!request) throw new Error("no request");
    expect(request.body.equals(Buffer.from(payload))).toBe(true);
    expect(request.headers).toMatchObject({
      "content-type": "application/json",
      "user-agent": "Hookmail-Webhook/1",
      "webhook-id": id,
      "webhook-timestamp": String(Math.floor(time.now().getTime() / 1000)),
    });
    expect(() => verifySignature(request)).not.toThrow();

    expect(await findProcessing(id)).toMatchObject({
      status: "success",
      error: null,
      webhookResponseStatusCode: 200,
      deliveredAt: time.now(),
      nextAttemptAt: null,
      attemptCount: 1,
    });
    expect(await findDelivery(deliveryId)).toMatchObject({ status: "success", lockedUntil: null, attemptCount: 1 });
    const attempts = await findAttempts(id);
    expect(attempts).toEqual([
      expect.objectContaining({ deliveryId, attemptedAt: time.now(), statusCode: 200, error: null, responseBody: "thanks" }),
    ]);
    expect(attempts[0]?.durationMs).toBeGreaterThanOrEqual(0);
  });

  it("POSTs a payload of several MiB byte for byte, read and sent a slice at a time, on a first attempt and on a retry", async () => {
    const callbackId = await seedCallback();
    const large = async () => {
      const { id, deliveryId } = await seedProcessing({ emailCallbackId: callbackId });
      const payload = Buffer.concat([
        Buffer.from('{"type":"email.received","data":"'),
        Buffer.alloc(2_500_000, "a"),
        Buffer.from(`${id}"}`),
      ]);
      await database.prisma.emailProcessing.update({ where: { id }, data: { payload: new Uint8Array(payload) } });
      return { id, deliveryId, payload };
    };
    // The real client, told what each attempt hands it: a large body is never read whole into one value.
    const bodies: WebhookRequest["body"][] = [];
    const client = {
      postWebhook: (request: WebhookRequest) => {
        bodies.push(request.body);
        return postWebhook(request);
      },
    };
    const first = await large();
    await deliverNow(newWorker({ client }), [first.deliveryId]);
    const retried = await large();
    await database.prisma.delivery.update({ where: { id: retried.deliveryId }, data: { attemptCount: 1 } });
    expect(await deliverDueNow(newWorker({ client }))).toBe(1);
    expect(bodies.map((body) => (body instanceof Uint8Array || typeof body === "string" ? "whole" : body.byteLength))).toEqual([
      first.payload.byteLength,
      retried.payload.byteLength,
    ]);

    expect(sink.requests).toHaveLength(2);
    expect(sink.requests[0]?.body.equals(first.payload)).toBe(true);
    expect(sink.requests[1]?.body.equals(retried.payload)).toBe(true);
    for (const request of sink.requests) expect(() => verifySignature(request)).not.toThrow();
    expect(await findProcessing(first.id)).toMatchObject({ status: "success", attemptCount: 1 });
    expect(await findProcessing(retried.id)).toMatchObject({ status: "success", attemptCount: 2 });
  });

  it("sends no signature header to a callback without a secret", async () => {
    const { id, deliveryId } = await seedProcessing({ emailCallbackId: await seedCallback({ webhookSecret: null }) });
    await deliverNow(newWorker(), [deliveryId]);
    expect(sink.requests[0]?.headers).not.toHaveProperty("webhook-signature");
    expect((await findProcessing(id)).status).toBe("success");
  });
});

describe("retries", () => {
  it("retries a 500 after about 30 s and sends the same bytes again with a fresh timestamp and signature", async () => {
    const { id, deliveryId, payload } = await seedProcessing();
    const worker = newWorker();
    sink.reply({ status: 500, body: "down" }, { status: 200, body: "ok" });
    const firstAttemptAt = time.now();
    await deliverNow(worker, [deliveryId]);

    expect(await findProcessing(id)).toMatchObject({
      status: "pending",
      attemptCount: 1,
      webhookResponseStatusCode: 500,
      nextAttemptAt: new Date(firstAttemptAt.getTime() + 30 * SECOND),
    });
    expect(await findDelivery(deliveryId)).toMatchObject({
      status: "pending",
      attemptCount: 1,
      lastStatusCode: 500,
      nextAttemptAt: new Date(firstAttemptAt.getTime() + 30 * SECOND),
      lockedUntil: null,
    });
    time.advance(10 * SECOND);
    expect(await deliverDueNow(worker)).toBe(0);
    time.advance(21 * SECOND);
    expect(await deliverDueNow(worker)).toBe(1);

    expect(await findProcessing(id)).toMatchObject({ status: "success", attemptCount: 2, webhookResponseStatusCode: 200 });
    expect((await findAttempts(id)).map(({ statusCode, responseBody }) => [statusCode, responseBody])).toEqual([
      [500, "down"],
      [200, "ok"],
    ]);
    const [first, second] = sink.requests;
    if (!first || !second) throw new Error("expected two requests");
    expect(first.body.equals(Buffer.from(payload))).toBe(true);
    expect(second.body.equals(first.body)).toBe(true);
    expect(second.headers["webhook-id"]).toBe(first.headers["webhook-id"]);
    expect(Number(second.headers["webhook-timestamp"]) - Number(first.headers["webhook-timestamp"])).toBe(31);
    expect(second.headers["webhook-signature"]).not.toBe(first.headers["webhook-signature"]);
    expect(() => verifySignature(first)).not.toThrow();
    expect(() => verifySignature(second)).not.toThrow();
  });

  it("fails a 400 at once: one attempt, error / webhook-failed", async () => {
    const { id, deliveryId } = await seedProcessing();
    const worker = newWorker();
    sink.reply({ status: 400, body: '{"error":"bad"}' });
    await deliverNow(worker, [deliveryId]);

    expect(await findProcessing(id)).toMatchObject({
      status: "error",
      error: "webhook-failed",
      webhookResponseStatusCode: 400,
      nextAttemptAt: null,
    });
    expect(await findDelivery(deliveryId)).toMatchObject({
      status: "error",
      error: "webhook-failed",
      lastStatusCode: 400,
      nextAttemptAt: null,
      lockedUntil: null,
    });
    expect(await findAttempts(id)).toEqual([expect.objectContaining({ statusCode: 400, responseBody: '{"error":"bad"}' })]);
    time.advance(48 * 3600 * SECOND);
    expect(await deliverDueNow(worker)).toBe(0);
    expect(sink.requests).toHaveLength(1);
  });

  it("schedules a retry when the receiver does not answer within the timeout", async () => {
    const { id, deliveryId } = await seedProcessing();
    sink.reply({ hang: true });
    await deliverNow(newWorker({ config: { webhook: { timeoutMs: 300, allowPrivateTargets: true } } }), [deliveryId]);

    expect(await findProcessing(id)).toMatchObject({
      status: "pending",
      attemptCount: 1,
      webhookResponseStatusCode: null,
      nextAttemptAt: new Date(time.now().getTime() + 30 * SECOND),
    });
    const [attempt] = await findAttempts(id);
    expect(attempt).toMatchObject({ statusCode: null, responseBody: null, error: expect.stringMatching(/^timeout/) });
    expect(attempt?.durationMs).toBeGreaterThanOrEqual(290);
  });

  it("honours Retry-After: 120 when it is later than the schedule", async () => {
    const { id, deliveryId } = await seedProcessing();
    sink.reply({ status: 503, headers: { "Retry-After": "120" } });
    await deliverNow(newWorker(), [deliveryId]);
    expect(await findProcessing(id)).toMatchObject({
      status: "pending",
      webhookResponseStatusCode: 503,
      nextAttemptAt: new Date(time.now().getTime() + 120 * SECOND),
    });
  });

  it("fails a 302 without following it, recording the status and the Location", async () => {
    const { id, deliveryId } = await seedProcessing();
    sink.reply({ status: 302, headers: { Location: sink.url("/elsewhere") } });
    await deliverNow(newWorker(), [deliveryId]);

    expect(await findProcessing(id)).toMatchObject({ status: "error", error: "webhook-failed", webhookResponseStatusCode: 302 });
    expect(await findAttempts(id)).toEqual([
      expect.objectContaining({ statusCode: 302, error: `redirect not followed (Location: ${sink.url("/elsewhere")})` }),
    ]);
    expect(sink.requests.map(({ path }) => path)).toEqual(["/hook"]);
  });

  it("gives up after the 7th failed attempt, spaced 30 s, 2 min, 10 min, 1 h, 6 h and 24 h: error / webhook-failed", async () => {
    const { id, deliveryId } = await seedProcessing();
    const worker = newWorker();
    const expectedDelays = [30, 120, 600, 3600, 21_600, 86_400].map((seconds) => seconds * SECOND);
    const delays: number[] = [];
    sink.reply(...Array.from({ length: 7 }, () => ({ status: 503, body: "busy" })));

    await deliverNow(worker, [deliveryId]);
    for (let attempt = 2; attempt <= 7; attempt += 1) {
      const { nextAttemptAt, status, attemptCount } = await findProcessing(id);
      expect({ status, attemptCount }).toEqual({ status: "pending", attemptCount: attempt - 1 });
      delays.push((nextAttemptAt?.getTime() ?? 0) - time.now().getTime());
      time.set(nextAttemptAt ?? time.now());
      expect(await deliverDueNow(worker)).toBe(1);
    }

    expect(delays).toEqual(expectedDelays);
    expect(await findProcessing(id)).toMatchObject({
      status: "error",
      error: "webhook-failed",
      attemptCount: 7,
      webhookResponseStatusCode: 503,
      nextAttemptAt: null,
    });
    expect(await findAttempts(id)).toHaveLength(7);
    time.advance(7 * 86_400 * SECOND);
    expect(await deliverDueNow(worker)).toBe(0);
    expect(sink.requests).toHaveLength(7);
  });
});

describe("claiming", () => {
  it("never hands one delivery to two workers claiming at the same time", async () => {
    const callbackId = await seedCallback();
    const seeded = await Promise.all(Array.from({ length: 30 }, () => seedProcessing({ emailCallbackId: callbackId })));
    const repositories = [createDeliveryRepository(database), createDeliveryRepository(otherDatabase)];
    const claims = await Promise.all(
      Array.from({ length: 12 }, (_, index) =>
        repositories[index % 2]?.claimDueDeliveries({ limit: 4, leaseMs: 60 * SECOND, now: time.now() }),
      ),
    );
    const claimedIds = claims.flatMap((batch) => batch?.map(({ id }) => id) ?? []);
    expect(claimedIds).toHaveLength(30);
    expect(new Set(claimedIds).size).toBe(30);
    expect(new Set(claimedIds)).toEqual(new Set(seeded.map(({ deliveryId }) => deliveryId)));
    expect(await repositories[0]?.claimDueDeliveries({ limit: 10, leaseMs: 60 * SECOND, now: time.now() })).toEqual([]);
  });

  it("delivers each processing exactly once with two workers polling side by side", async () => {
    const callbackId = await seedCallback();
    const seeded = await Promise.all(Array.from({ length: 20 }, () => seedProcessing({ emailCallbackId: callbackId })));
    const workers = [newWorker({ concurrency: 4 }), newWorker({ database: otherDatabase, concurrency: 4 })];
    for (let round = 0; round < 10; round += 1) {
      await Promise.all(workers.map((worker) => worker.deliverDue()));
      await Promise.all(workers.map((worker) => worker.whenIdle()));
    }
    const deliveredIds = sink.requests.map(({ headers }) => headers["webhook-id"]);
    expect(deliveredIds).toHaveLength(20);
    expect(new Set(deliveredIds)).toEqual(new Set(seeded.map(({ id }) => id)));
    expect(await database.prisma.emailProcessing.count({ where: { status: "success", attemptCount: 1 } })).toBe(20);
  });

  it("takes over a delivery whose worker crashed once its lease has run out, and fences the late worker off", async () => {
    const { id, deliveryId } = await seedProcessing();
    const crashed = createDeliveryRepository(database);
    const [staleClaim] = await crashed.claimDueDeliveries({ limit: 1, leaseMs: 60 * SECOND, now: time.now() });
    expect(staleClaim?.id).toBe(deliveryId);

    const worker = newWorker({ database: otherDatabase, leaseMs: 60 * SECOND });
    time.advance(30 * SECOND);
    expect(await deliverDueNow(worker)).toBe(0);
    time.advance(31 * SECOND);
    expect(await deliverDueNow(worker)).toBe(1);
    expect(await findProcessing(id)).toMatchObject({ status: "success", attemptCount: 1 });
    expect(await findDelivery(deliveryId)).toMatchObject({ status: "success", attemptCount: 1, lockedUntil: null });

    if (!staleClaim) throw new Error("no claim");
    const { isClaimHeld } = await crashed.recordAttempt({
      claim: staleClaim,
      attempt: { attemptedAt: time.now(), statusCode: 500, durationMs: 1, error: null, responseBody: "" },
      change: { status: "error", error: "webhook-failed", webhookResponseStatusCode: 500 },
    });
    expect(isClaimHeld).toBe(false);
    expect(await findProcessing(id)).toMatchObject({ status: "success", webhookResponseStatusCode: 200 });
    expect(await findDelivery(deliveryId)).toMatchObject({ status: "success", lastStatusCode: 200 });
  });

  it("lets deliverSoon claim a first attempt only once, and not a retry before its time", async () => {
    const { deliveryId: id } = await seedProcessing();
    const repository = createDeliveryRepository(database);
    expect(await repository.claimDelivery({ id, leaseMs: 60 * SECOND, now: time.now() })).not.toBeNull();
    expect(await repository.claimDelivery({ id, leaseMs: 60 * SECOND, now: time.now() })).toBeNull();

    const { deliveryId: retryId } = await seedProcessing();
    await database.prisma.delivery.update({
      where: { id: retryId },
      data: { attemptCount: 1, nextAttemptAt: new Date(time.now().getTime() + 30 * SECOND) },
    });
    expect(await repository.claimDelivery({ id: retryId, leaseMs: 60 * SECOND, now: time.now() })).toBeNull();
    time.advance(30 * SECOND);
    expect(await repository.claimDelivery({ id: retryId, leaseMs: 60 * SECOND, now: time.now() })).not.toBeNull();
  });

  it("leaves a delivery claimed when it was written to its claimant: renewed only by that claim, due again once released", async () => {
    const { id: processingId, deliveryId: id, payload } = await seedProcessing();
    const lockedUntil = new Date(time.now().getTime() + 60 * SECOND);
    await database.prisma.delivery.update({ where: { id }, data: { lockedUntil } });
    const repository = createDeliveryRepository(database);
    const other = createDeliveryRepository(otherDatabase);
    expect(await other.claimDueDeliveries({ limit: 10, leaseMs: SECOND, now: time.now() })).toEqual([]);
    expect(await other.claimDelivery({ id, leaseMs: SECOND, now: time.now() })).toBeNull();

    const stale = { id, lockedUntil: new Date(lockedUntil.getTime() - 1) };
    expect(await repository.renewClaim({ claim: stale, leaseMs: 90 * SECOND, now: time.now() })).toBeNull();
    const renewed = await repository.renewClaim({ claim: { id, lockedUntil }, leaseMs: 90 * SECOND, now: time.now() });
    expect(renewed).toEqual({ id, lockedUntil: new Date(time.now().getTime() + 90 * SECOND) });

    await repository.releaseClaim({ id, lockedUntil });
    expect((await findDelivery(id)).lockedUntil).toEqual(renewed?.lockedUntil);
    await repository.releaseClaim(renewed!);
    const claim = await other.claimDelivery({ id, leaseMs: SECOND, now: time.now() });
    expect(claim?.target).toMatchObject({
      id,
      processingId,
      status: "pending",
      attemptCount: 0,
      url: sink.url(),
      format: "json",
      signingScheme: "hmac",
      secret: SECRET,
      isEnabled: true,
      isDeleted: false,
    });
    expect(Buffer.from((claim?.target?.body as Uint8Array | undefined) ?? []).equals(Buffer.from(payload))).toBe(true);
  });

  it("delivers a claim taken when the mail was written, once, and records it", async () => {
    const { id, deliveryId } = await seedProcessing();
    const lockedUntil = new Date(time.now().getTime() + 60 * SECOND);
    await database.prisma.delivery.update({ where: { id: deliveryId }, data: { lockedUntil } });
    const worker = newWorker();
    worker.deliverClaimed([{ id: deliveryId, lockedUntil }]);
    await worker.whenIdle();
    expect(sink.requests).toHaveLength(1);
    expect(await findProcessing(id)).toMatchObject({ status: "success", attemptCount: 1 });
    expect(await findDelivery(deliveryId)).toMatchObject({ status: "success", attemptCount: 1, lockedUntil: null });
    expect(await findAttempts(id)).toHaveLength(1);
  });

  it("writes outcomes recorded at the same time together, each applied only where its claim still holds", async () => {
    let statements = 0;
    const counting = {
      ...database.executor,
      query: <T>(sql: string, params?: unknown[]) => {
        statements += 1;
        return database.executor.query<T>(sql, params);
      },
    };
    const repository = createDeliveryRepository({ executor: counting });
    const seeded = await Promise.all(Array.from({ length: 6 }, () => seedProcessing()));
    const claims = await repository.claimDueDeliveries({ limit: 6, leaseMs: 60 * SECOND, now: time.now() });
    expect(claims).toHaveLength(6);
    /** The claim on the delivery of the mail `id`. */
    const deliveryOf = (id: string) => seeded.find((mail) => mail.id === id)!.deliveryId;
    const claimOf = (id: string) => claims.find((claim) => claim.id === deliveryOf(id))!;
    const [success, retry, failed, disabled, lost, alsoSuccess] = seeded.map(({ id }) => id) as [
      string,
      string,
      string,
      string,
      string,
      string,
    ];
    const attempt = (statusCode: number | null) => ({
      attemptedAt: time.now(),
      statusCode,
      durationMs: 12.4,
      error: statusCode ? null : "timeout: 2000 ms",
      responseBody: "x",
    });
    const nextAttemptAt = new Date(time.now().getTime() + 30 * SECOND);
    statements = 0;
    const results = await Promise.all([
      repository.recordAttempt({
        claim: claimOf(success),
        attempt: attempt(200),
        change: { status: "success", webhookResponseStatusCode: 200, deliveredAt: time.now() },
      }),
      repository.recordAttempt({
        claim: claimOf(retry),
        attempt: attempt(null),
        change: { status: "pending", nextAttemptAt, webhookResponseStatusCode: null },
      }),
      repository.recordAttempt({
        claim: claimOf(failed),
        attempt: attempt(410),
        change: { status: "error", error: "webhook-failed", webhookResponseStatusCode: 410 },
      }),
      repository.recordAttempt({
        claim: claimOf(disabled),
        attempt: null,
        change: { status: "not-processed", error: "not-enabled" },
      }),
      repository.recordAttempt({
        claim: { id: deliveryOf(lost), lockedUntil: new Date(claimOf(lost).lockedUntil.getTime() - 1) },
        attempt: attempt(200),
        change: { status: "success", webhookResponseStatusCode: 200, deliveredAt: time.now() },
      }),
      repository.recordAttempt({
        claim: claimOf(alsoSuccess),
        attempt: attempt(204),
        change: { status: "success", webhookResponseStatusCode: 204, deliveredAt: time.now() },
      }),
    ]);
    expect(results.map(({ isClaimHeld }) => isClaimHeld)).toEqual([true, true, true, true, false, true]);
    // The first outcome goes alone; the five that arrived meanwhile share the next statement.
    expect(statements).toBe(2);
    expect(await findProcessing(success)).toMatchObject({
      status: "success",
      error: null,
      webhookResponseStatusCode: 200,
      deliveredAt: time.now(),
      attemptCount: 1,
      nextAttemptAt: null,
    });
    expect(await findProcessing(retry)).toMatchObject({
      status: "pending",
      webhookResponseStatusCode: null,
      nextAttemptAt,
      attemptCount: 1,
      deliveredAt: null,
    });
    for (const id of [success, retry, failed, disabled])
      expect(await findDelivery(deliveryOf(id))).toMatchObject({ lockedUntil: null });
    expect(await findProcessing(failed)).toMatchObject({
      status: "error",
      error: "webhook-failed",
      webhookResponseStatusCode: 410,
      attemptCount: 1,
      nextAttemptAt: null,
    });
    expect(await findProcessing(disabled)).toMatchObject({
      status: "not-processed",
      error: "not-enabled",
      attemptCount: 0,
      nextAttemptAt: null,
    });
    expect(await findProcessing(lost)).toMatchObject({ status: "pending", attemptCount: 0 });
    expect(await findDelivery(deliveryOf(lost))).toMatchObject({
      status: "pending",
      attemptCount: 0,
      lockedUntil: claimOf(lost).lockedUntil,
    });
    expect(await findProcessing(alsoSuccess)).toMatchObject({ status: "success", webhookResponseStatusCode: 204 });
    // Every attempt made has its row, the fenced-off one included; the decision without an attempt has none.
    expect(await findAttempts(disabled)).toEqual([]);
    for (const id of [success, retry, failed, lost, alsoSuccess]) {
      expect(await findAttempts(id)).toEqual([expect.objectContaining({ deliveryId: deliveryOf(id) })]);
    }
    expect((await findAttempts(retry))[0]).toMatchObject({
      statusCode: null,
      durationMs: 12,
      error: "timeout: 2000 ms",
      responseBody: "x",
      attemptedAt: time.now(),
    });
  });

  it("counts a pending delivery without nextAttemptAt as due, first", async () => {
    const { deliveryId: due } = await seedProcessing();
    const { deliveryId: undated } = await seedProcessing();
    await database.prisma.delivery.update({ where: { id: undated }, data: { nextAttemptAt: null } });
    const repository = createDeliveryRepository(database);
    expect(await repository.claimDueDeliveries({ limit: 1, leaseMs: SECOND, now: time.now() })).toEqual([
      { id: undated, lockedUntil: new Date(time.now().getTime() + SECOND) },
    ]);
    expect((await repository.claimDueDeliveries({ limit: 5, leaseMs: SECOND, now: time.now() })).map(({ id }) => id)).toEqual([
      due,
    ]);
  });

  it("claims nothing that is not pending", async () => {
    for (const status of ["success", "error"]) await seedProcessing({ status });
    // A delivery to an endpoint that was disabled when the mail came (the mail itself not processed).
    const { id: skipped } = await seedProcessing({ status: "not-processed" });
    const { emailCallbackId } = await findProcessing(skipped);
    const endpoint = await database.prisma.endpoint.findFirstOrThrow({ where: { emailCallbackId } });
    await database.prisma.delivery.create({
      data: {
        id: createId("delivery"),
        emailProcessingId: skipped,
        endpointId: endpoint.id,
        status: "not-processed",
        error: "not-enabled",
      },
    });
    await database.prisma.delivery.updateMany({ data: { nextAttemptAt: time.now() } });
    expect(await database.prisma.delivery.count()).toBe(3);
    expect(await createDeliveryRepository(database).claimDueDeliveries({ limit: 10, leaseMs: SECOND, now: time.now() })).toEqual(
      [],
    );
  });
});

describe("the worker", () => {
  it("runs at most `concurrency` attempts at a time and claims nothing more while full", async () => {
    const callbackId = await seedCallback();
    const seeded = await Promise.all(Array.from({ length: 8 }, () => seedProcessing({ emailCallbackId: callbackId })));
    sink.reply(...Array.from({ length: 8 }, () => ({ status: 200, delayMs: 100 })));
    const worker = newWorker({ concurrency: 3 });
    worker.deliverSoon(seeded.map(({ deliveryId }) => deliveryId));
    expect(await worker.deliverDue()).toBe(0);
    await worker.whenIdle();
    expect(sink.requests).toHaveLength(8);
    expect(sink.maxConcurrentRequests()).toBe(3);
    expect(await database.prisma.emailProcessing.count({ where: { status: "success" } })).toBe(8);
  });

  it("polls on its own once started, and stop() waits for the attempt in flight", async () => {
    const { id } = await seedProcessing();
    sink.reply({ status: 200, delayMs: 200 });
    const worker = newWorker({ pollIntervalMs: 20 });
    worker.start();
    await sink.waitForRequests(1);
    await worker.stop();
    expect(await findProcessing(id)).toMatchObject({ status: "success" });
  });

  it("attempts nothing after stop(): first attempts stay due for the next worker", async () => {
    const { id, deliveryId } = await seedProcessing();
    const worker = newWorker();
    await worker.stop();
    worker.deliverSoon([deliveryId]);
    await worker.whenIdle();
    expect(await worker.deliverDue()).toBe(0);
    expect(sink.requests).toHaveLength(0);
    expect(await findProcessing(id)).toMatchObject({ status: "pending", attemptCount: 0 });
    expect(await findDelivery(deliveryId)).toMatchObject({ status: "pending", lockedUntil: null, attemptCount: 0 });
  });

  it("records error / unknown and logs it when an attempt fails unexpectedly", async () => {
    const withoutPayload = await seedProcessing({ withPayload: false });
    const clientBug = await seedProcessing();
    await deliverNow(newWorker(), [withoutPayload.deliveryId]);
    await deliverNow(newWorker({ client: { postWebhook: () => Promise.reject(new Error("client bug")) } }), [
      clientBug.deliveryId,
    ]);
    for (const { id, deliveryId } of [withoutPayload, clientBug]) {
      expect(await findProcessing(id)).toMatchObject({ status: "error", error: "unknown", nextAttemptAt: null });
      expect(await findDelivery(deliveryId)).toMatchObject({
        status: "error",
        error: "unknown",
        lockedUntil: null,
        nextAttemptAt: null,
      });
      expect(await findAttempts(id)).toEqual([expect.objectContaining({ statusCode: null, error: "internal error" })]);
    }
    expect(memory.entries).toContainEqual(
      expect.objectContaining({
        msg: "Delivery failed unexpectedly",
        deliveryId: withoutPayload.deliveryId,
        err: expect.objectContaining({ stack: expect.stringMatching(/^Error: delivery .* pending without a body/) }),
      }),
    );
    expect(memory.entries).toContainEqual(
      expect.objectContaining({
        msg: "Delivery failed unexpectedly",
        deliveryId: clientBug.deliveryId,
        err: expect.objectContaining({ stack: expect.stringMatching(/^Error: client bug/) }),
      }),
    );
    expect(sink.requests).toHaveLength(0);
  });

  it("sends nothing for a callback disabled or deleted since the mail was accepted: not-processed / not-enabled", async () => {
    const disabled = await seedProcessing({ emailCallbackId: await seedCallback({ isEnabled: false }) });
    const deletedCallbackId = await seedCallback();
    const deleted = await seedProcessing({ emailCallbackId: deletedCallbackId });
    await database.prisma.emailCallback.update({ where: { id: deletedCallbackId }, data: { deletedAt: time.now() } });
    await deliverNow(newWorker(), [disabled.deliveryId, deleted.deliveryId]);
    for (const { id, deliveryId } of [disabled, deleted]) {
      expect(await findProcessing(id)).toMatchObject({ status: "not-processed", error: "not-enabled", attemptCount: 0 });
      expect(await findDelivery(deliveryId)).toMatchObject({ status: "not-processed", error: "not-enabled", lockedUntil: null });
      expect(await findAttempts(id)).toEqual([]);
    }
    expect(sink.requests).toHaveLength(0);
  });
});

describe("SSRF check at connect time", () => {
  const targets: [string, (port: number) => string][] = [
    ["127.0.0.1", (port) => `http://127.0.0.1:${port}/hook`],
    ["localhost", (port) => `http://localhost:${port}/hook`],
    ["[::1]", (port) => `http://[::1]:${port}/hook`],
    ["10.0.0.1", (port) => `http://10.0.0.1:${port}/hook`],
    ["172.16.0.1", (port) => `http://172.16.0.1:${port}/hook`],
    ["192.168.0.1", (port) => `http://192.168.0.1:${port}/hook`],
    ["169.254.169.254", () => "http://169.254.169.254/latest/meta-data/"],
    ["0.0.0.0", (port) => `http://0.0.0.0:${port}/hook`],
    ["[::ffff:127.0.0.1]", (port) => `http://[::ffff:127.0.0.1]:${port}/hook`],
    ["[::ffff:0:127.0.0.1]", (port) => `http://[::ffff:0:127.0.0.1]:${port}/hook`],
    ["[64:ff9b::127.0.0.1]", (port) => `http://[64:ff9b::127.0.0.1]:${port}/hook`],
    ["[fec0::1]", (port) => `http://[fec0::1]:${port}/hook`],
    ["http://2130706433/", (port) => `http://2130706433:${port}/`],
    ["http://0177.0.0.1/", (port) => `http://0177.0.0.1:${port}/`],
    ["a name resolving to 10.0.0.5", (port) => `http://hooks.internal.test:${port}/hook`],
  ];

  it("refuses every private target without connecting: error / webhook-failed, attempt blocked-target", async () => {
    const seeded: { label: string; id: string; deliveryId: string }[] = [];
    for (const [label, toUrl] of targets) {
      const { id, deliveryId } = await seedProcessing({ emailCallbackId: await seedCallback({ webhookUrl: toUrl(sink.port) }) });
      seeded.push({ label, id, deliveryId });
    }
    const connectionsBefore = sink.connectionCount();
    const worker = newWorker({
      config: { webhook: { timeoutMs: 2000, allowPrivateTargets: false } },
      resolve: (hostname) => (hostname === "hooks.internal.test" ? Promise.resolve(["10.0.0.5"]) : resolveHost(hostname)),
    });
    await deliverNow(
      worker,
      seeded.map(({ deliveryId }) => deliveryId),
    );

    for (const { label, id } of seeded) {
      const processing = await findProcessing(id);
      const attempts = await findAttempts(id);
      expect({ label, status: processing.status, error: processing.error, attempt: attempts[0]?.error }).toEqual({
        label,
        status: "error",
        error: "webhook-failed",
        attempt: "blocked-target: the webhook URL is not allowed: it must lead to a public address",
      });
    }
    expect(sink.connectionCount()).toBe(connectionsBefore);
    expect(sink.requests).toHaveLength(0);
  });
});

describe("message content clean-up", () => {
  it("drops the raw message and payload of final processings after 72 h, in batches, and keeps the rest", async () => {
    const callbackId = await seedCallback();
    const finals = await Promise.all(
      ["success", "error", "not-processed", "success", "error"].map((status) =>
        seedProcessing({ emailCallbackId: callbackId, status }),
      ),
    );
    const { id: pendingId } = await seedProcessing({ emailCallbackId: callbackId });
    const { id: recentId } = await seedProcessing({ emailCallbackId: callbackId, status: "success" });
    await database.prisma.emailProcessing.update({
      where: { id: recentId },
      data: { updatedAt: new Date(time.now().getTime() + 72 * 3600 * SECOND) },
    });
    const worker = newWorker({ cleanUpBatchSize: 2 });
    expect(await worker.cleanUpMessageContent()).toBe(0);

    time.advance(72 * 3600 * SECOND + 5 * SECOND);
    expect(await worker.cleanUpMessageContent()).toBe(5);
    for (const { id } of finals) expect(await findProcessing(id)).toMatchObject({ rawMessage: null, payload: null });
    for (const id of [pendingId, recentId]) {
      const kept = await findProcessing(id);
      expect(kept.rawMessage).not.toBeNull();
      expect(kept.payload).not.toBeNull();
    }
    expect(memory.entries).toContainEqual(
      expect.objectContaining({ msg: "Dropped the message content of processings older than the retention", processings: 5 }),
    );
  });
});
