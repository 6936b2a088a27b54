// Delivery alerts of an address with two endpoints (docs/webhooks.md: Delivery alerts), on a fresh
// migrated database with a real delivery worker, a loopback webhook sink that fails the endpoints it
// is told to, and the development outbox: an alert names the endpoint whose delivery gave up, and
// only a delivery to that endpoint ends its alert.
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import en from "@/messages/en.json";
import type { Database } from "@/modules/db/db";
import { createMailer, type OutboxMail } from "@/modules/mail/mailer";
import { createProcessMetrics } from "@/modules/metrics/metrics.registry";
import { PROCESSING_STATUS } from "@/modules/processings/processings.constants";
import { createId } from "@/modules/shared/ids";
import { silentLogger } from "@/tests/support/memory-logger";
import { seedDatabase, seedEmailCallback, seedUser } from "@/tests/support/seed";
import { createTestClock } from "@/tests/support/test-clock";
import { createTestDatabase } from "@/tests/support/test-database";
import { startWebhookSink, type WebhookSink } from "@/tests/support/webhook-sink";
import { MAX_DELIVERY_ATTEMPTS } from "./delivery.constants";
import { createDeliveryAlerts } from "./delivery-alerts";
import { createDeliveryAlertsRepository } from "./delivery-alerts.repository";
import { createDeliveryWorker, type DeliveryWorker } from "./delivery-worker";

const HOUR = 3_600_000;
const BASE_URL = "https://hookmail.example";

let database: Database;
let sink: WebhookSink;
let outboxDir: string;
let worker: DeliveryWorker;
/** The sink's paths that answer 503 (the others answer 200). */
const failing = new Set<string>();
const time = createTestClock();

beforeAll(async () => {
  database = await createTestDatabase();
  sink = await startWebhookSink({
    decide: (request) => (failing.has(request.path) ? { status: 503, body: "Service Unavailable" } : undefined),
  });
  outboxDir = await mkdtemp(path.join(os.tmpdir(), "hookmail-endpoint-alerts-"));
  const mailer = createMailer({ smtpUrl: undefined, from: "Hookmail <no-reply@hookmail.test>", outboxDir, logger: silentLogger });
  worker = createDeliveryWorker({
    metrics: createProcessMetrics(),
    database,
    config: { webhook: { timeoutMs: 2000, allowPrivateTargets: true } },
    logger: silentLogger,
    clock: time.now,
    random: () => 0.5,
    alerts: createDeliveryAlerts({
      repository: createDeliveryAlertsRepository(database),
      mailer,
      baseUrl: BASE_URL,
      logger: silentLogger,
    }),
  });
});
afterAll(async () => {
  await sink?.close();
  await database?.close();
  if (outboxDir) await rm(outboxDir, { recursive: true, force: true });
});
beforeEach(async () => {
  await rm(outboxDir, { recursive: true, force: true });
  failing.clear();
  time.set(new Date("2026-11-28T10:00:00.000Z"));
});

async function readOutbox(): Promise<OutboxMail[]> {
  const files = await readdir(outboxDir).catch(() => [] as string[]);
  const mails = await Promise.all(files.map(async (file) => JSON.parse(await readFile(path.join(outboxDir, file), "utf8"))));
  return (mails as OutboxMail[]).sort((a, b) => a.createdAt.localeCompare(b.createdAt));
}

/** An owner's address whose first endpoint is the sink's `/<name>/first` and whose second is `/<name>/second`. */
async function seedAddressWithTwoEndpoints() {
  const user = await seedUser(database, { name: "Ada", locale: "en" });
  const name = createId("emailCallback").slice(4, 14).toLowerCase();
  const urls = { first: sink.url(`/${name}/first`), second: sink.url(`/${name}/second`) };
  const callback = await seedEmailCallback(database, { userId: user.id, webhookUrl: urls.first, webhookSecret: null });
  const second = await database.prisma.endpoint.create({
    data: { id: createId("endpoint"), emailCallbackId: callback.id, url: urls.second, signingScheme: "none" },
  });
  return {
    emailCallbackId: callback.id,
    secondId: second.id,
    urls,
    paths: { first: `/${name}/first`, second: `/${name}/second` },
  };
}

/** A mail due now with a delivery to each endpoint; `isLastAttempt`: one more failure gives up on it. */
async function seedDueMail(emailCallbackId: string, secondId: string, { isLastAttempt }: { isLastAttempt: boolean }) {
  const attemptCount = isLastAttempt ? MAX_DELIVERY_ATTEMPTS - 1 : 0;
  const id = createId("emailProcessing");
  await seedDatabase(database, {
    processings: [
      {
        id,
        emailCallbackId,
        status: PROCESSING_STATUS.PENDING,
        payload: new Uint8Array(Buffer.from(`{"type":"email.received","data":{"id":"${id}"}}`)),
        nextAttemptAt: time.now(),
        attemptCount,
      },
    ],
  });
  await database.prisma.delivery.create({
    data: {
      id: createId("delivery"),
      emailProcessingId: id,
      endpointId: secondId,
      status: PROCESSING_STATUS.PENDING,
      attemptCount,
      nextAttemptAt: time.now(),
    },
  });
}

async function deliverDue() {
  await worker.deliverDue();
  await worker.whenIdle();
}

const isAlerting = async (endpointId: string) =>
  (await database.prisma.endpoint.findUniqueOrThrow({ where: { id: endpointId } })).isAlerting;

describe("delivery alerts of an address with two endpoints", () => {
  it("an alert for a failing second endpoint names that endpoint's URL, not the first one's", async () => {
    const { emailCallbackId, secondId, urls, paths } = await seedAddressWithTwoEndpoints();
    failing.add(paths.second);
    await seedDueMail(emailCallbackId, secondId, { isLastAttempt: true });

    await deliverDue();

    const mails = await readOutbox();
    expect(mails).toHaveLength(1);
    expect(mails[0]?.subject).toMatch(/could not be delivered$/);
    expect(mails[0]?.text).toContain(`${en.mail.deliveryAlert.endpoint} ${urls.second}\n`);
    expect(mails[0]?.text).not.toContain(urls.first);
    expect(await isAlerting(secondId)).toBe(true);
  });

  it("another endpoint's success ends no alert; the failed endpoint's own success sends one recovery mail naming it", async () => {
    const { emailCallbackId, secondId, urls, paths } = await seedAddressWithTwoEndpoints();
    failing.add(paths.second);
    await seedDueMail(emailCallbackId, secondId, { isLastAttempt: true });
    await deliverDue();
    expect(await readOutbox()).toHaveLength(1);

    // The first endpoint keeps succeeding while the second still fails (its retries are not used up).
    time.advance(2 * HOUR);
    await seedDueMail(emailCallbackId, secondId, { isLastAttempt: false });
    await deliverDue();
    expect(sink.requests.filter((request) => request.path === paths.first).length).toBeGreaterThanOrEqual(2);
    expect(await readOutbox()).toHaveLength(1);
    expect(await isAlerting(secondId)).toBe(true);

    failing.clear();
    time.advance(HOUR);
    await seedDueMail(emailCallbackId, secondId, { isLastAttempt: false });
    await deliverDue();

    const mails = await readOutbox();
    expect(mails.map(({ subject }) => subject)).toEqual([
      expect.stringMatching(/could not be delivered$/),
      expect.stringMatching(/delivered again$/),
    ]);
    expect(mails[1]?.text).toContain(`${en.mail.deliveryRecovery.endpoint} ${urls.second}\n`);
    expect(mails[1]?.text).not.toContain(urls.first);
    expect(await isAlerting(secondId)).toBe(false);
  });
});
