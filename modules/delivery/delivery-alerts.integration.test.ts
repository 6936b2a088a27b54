// Delivery alerts (docs/webhooks.md: Delivery alerts) end to end on a fresh migrated database: two
// delivery workers, each on its own connection pool and with its own mailer writing to its own
// development outbox (as two processes would), a real loopback webhook sink, and a controllable
// clock. Mails are read back from both outboxes.
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import en from "@/messages/en.json";
import fr from "@/messages/fr.json";
import type { Database } from "@/modules/db/db";
import { createMailer, type OutboxMail } from "@/modules/mail/mailer";
import { createProcessMetrics } from "@/modules/metrics/metrics.registry";
import { PROCESSING_ERROR, PROCESSING_STATUS } from "@/modules/processings/processings.constants";
import { createId } from "@/modules/shared/ids";
import { findFreePort } from "@/modules/shared/net/free-port";
import { createMemoryLogger, type MemoryLogger, silentLogger } from "@/tests/support/memory-logger";
import { seedDatabase, seedEmailCallback, seedUser } from "@/tests/support/seed";
import { createTestClock } from "@/tests/support/test-clock";
import { createTestDatabasePair } from "@/tests/support/test-database";
import { startWebhookSink, type WebhookSink } from "@/tests/support/webhook-sink";
import { writeAttemptOutcomes } from "./attempt-outcomes";
import { DELIVERY_ALERT_INTERVAL_MS, MAX_DELIVERY_ATTEMPTS } from "./delivery.constants";
import type { AttemptOutcome } from "./delivery.models";
import { createDeliveryAlerts } from "./delivery-alerts";
import { createDeliveryAlertsRepository } from "./delivery-alerts.repository";
import { createDeliveryWorker } from "./delivery-worker";

const MINUTE = 60_000;
const BASE_URL = "https://hookmail.example";
const MAIL_COUNT = 10;

let database: Database;
let otherDatabase: Database;
let closeDatabases: () => Promise<void>;
let sink: WebhookSink;
let outboxRoot: string;
let memory: MemoryLogger;

const time = createTestClock();

beforeAll(async () => {
  ({ database, otherDatabase, close: closeDatabases } = await createTestDatabasePair());
  sink = await startWebhookSink();
  outboxRoot = await mkdtemp(path.join(os.tmpdir(), "hookmail-alerts-"));
});
afterAll(async () => {
  await sink?.close();
  await closeDatabases?.();
  if (outboxRoot) await rm(outboxRoot, { recursive: true, force: true });
});
beforeEach(async () => {
  await rm(outboxRoot, { recursive: true, force: true });
  sink.reset();
  time.set(new Date("2026-11-26T10:00:00.000Z"));
  memory = createMemoryLogger();
});

/** A worker of its own "process": its database connections, its mailer and outbox. */
function newWorker(
  db: Database,
  name: string,
  mailer = createMailer({
    smtpUrl: undefined,
    from: "Hookmail <no-reply@hookmail.test>",
    outboxDir: path.join(outboxRoot, name),
    logger: silentLogger,
  }),
) {
  const alerts = createDeliveryAlerts({
    repository: createDeliveryAlertsRepository(db),
    mailer,
    baseUrl: BASE_URL,
    logger: memory.logger,
  });
  return createDeliveryWorker({
    metrics: createProcessMetrics(),
    database: db,
    config: { webhook: { timeoutMs: 2000, allowPrivateTargets: true } },
    logger: memory.logger,
    clock: time.now,
    random: () => 0.5,
    concurrency: MAIL_COUNT / 2,
    alerts,
  });
}

/** Both workers poll at the same time, then finish what they claimed; answers how many each claimed. */
async function deliverDueOnBoth(workers: ReturnType<typeof newWorker>[]) {
  const claimed = await Promise.all(workers.map((worker) => worker.deliverDue()));
  await Promise.all(workers.map((worker) => worker.whenIdle()));
  return claimed;
}

/** Every mail both outboxes hold, oldest first. */
async function readOutboxes(): Promise<OutboxMail[]> {
  const mails: OutboxMail[] = [];
  for (const name of ["worker-a", "worker-b"]) {
    const dir = path.join(outboxRoot, name);
    const files = await readdir(dir).catch(() => [] as string[]);
    for (const file of files) mails.push(JSON.parse(await readFile(path.join(dir, file), "utf8")) as OutboxMail);
  }
  return mails.sort((a, b) => a.createdAt.localeCompare(b.createdAt));
}

/** An owner and one of their addresses, whose webhook is the sink. */
async function seedAddress({ locale = "en", deliveryAlerts = true }: { locale?: string | null; deliveryAlerts?: boolean } = {}) {
  const userId = createId("user");
  const email = `owner-${userId.toLowerCase()}@example.com`;
  await seedUser(database, { id: userId, name: "Ada", email, locale, deliveryAlerts });
  const callback = await seedEmailCallback(database, { userId, webhookUrl: sink.url(), webhookSecret: null });
  return { email, emailCallbackId: callback.id, address: `${callback.username}@${callback.domain}` };
}

/**
 * `count` mails due now, each with its delivery to the address's webhook (its first endpoint);
 * `isLastAttempt`: one more failure gives up on them. Answers the mails' and their deliveries' ids.
 */
async function seedDueMails(emailCallbackId: string, count: number, { isLastAttempt = true } = {}) {
  const ids = Array.from({ length: count }, () => createId("emailProcessing"));
  await seedDatabase(database, {
    processings: ids.map((id) => ({
      id,
      emailCallbackId,
      fromAddress: "bob@example.org",
      recipient: "alerts@hookmail.test",
      status: PROCESSING_STATUS.PENDING,
      payload: new Uint8Array(Buffer.from(`{"type":"email.received","data":{"id":"${id}"}}`)),
      nextAttemptAt: time.now(),
      attemptCount: isLastAttempt ? MAX_DELIVERY_ATTEMPTS - 1 : 0,
    })),
  });
  const deliveries = await database.prisma.delivery.findMany({
    where: { emailProcessingId: { in: ids } },
    select: { id: true, emailProcessingId: true },
  });
  return ids.map((id) => ({ id, deliveryId: deliveries.find((delivery) => delivery.emailProcessingId === id)!.id }));
}

const idsOf = (mails: { id: string }[]) => mails.map(({ id }) => id);
const deliveryIdsOf = (mails: { deliveryId: string }[]) => mails.map(({ deliveryId }) => deliveryId);

const findCallback = (id: string) => database.prisma.emailCallback.findUniqueOrThrow({ where: { id } });
/** The address's webhook: its first endpoint, whose alert state the tests read. */
const findWebhookEndpoint = (emailCallbackId: string) =>
  database.prisma.endpoint.findFirstOrThrow({ where: { emailCallbackId }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] });

/** The webhook's next `count` answers are 503 (later ones 200). */
function failWebhook(count: number) {
  sink.reply(...Array.from({ length: count }, () => ({ status: 503, body: "Service Unavailable: database down" })));
}

describe("delivery alerts across two workers", () => {
  it("send the owner exactly one alert when several mails to one address give up at the same time", async () => {
    const { email, emailCallbackId, address } = await seedAddress();
    const ids = idsOf(await seedDueMails(emailCallbackId, MAIL_COUNT));
    failWebhook(MAIL_COUNT);
    const workers = [newWorker(database, "worker-a"), newWorker(otherDatabase, "worker-b")];

    const claimed = await deliverDueOnBoth(workers);

    expect(claimed).toEqual([MAIL_COUNT / 2, MAIL_COUNT / 2]);
    const processings = await database.prisma.emailProcessing.findMany({ where: { id: { in: ids } } });
    expect(processings.map(({ status, error }) => `${status}/${error}`)).toEqual(
      Array(MAIL_COUNT).fill(`${PROCESSING_STATUS.ERROR}/${PROCESSING_ERROR.WEBHOOK_FAILED}`),
    );
    const mails = await readOutboxes();
    expect(mails).toHaveLength(1);
    expect(mails[0]).toMatchObject({ to: email, subject: `Mail to ${address} could not be delivered` });
    expect((await findCallback(emailCallbackId)).lastAlertAt).toEqual(time.now());
    expect((await findWebhookEndpoint(emailCallbackId)).isAlerting).toBe(true);
  });

  it("name the address, its endpoint's URL, the last status code with its reason phrase, no raw error code, and link to the address's inbox", async () => {
    const { emailCallbackId, address } = await seedAddress();
    await seedDueMails(emailCallbackId, 1);
    sink.reply({ status: 503, body: "Service Unavailable: database down" });

    await deliverDueOnBoth([newWorker(database, "worker-a"), newWorker(otherDatabase, "worker-b")]);

    const [mail] = await readOutboxes();
    const inboxUrl = `${BASE_URL}/email-callbacks/${emailCallbackId}/inbox`;
    expect(mail?.text).toContain(address);
    expect(mail?.text).toContain(`${en.mail.deliveryAlert.statusCode} 503 Service Unavailable`);
    expect(mail?.text).not.toContain(PROCESSING_ERROR.WEBHOOK_FAILED);
    expect(mail?.text).toContain(`${en.mail.deliveryAlert.response} Service Unavailable: database down`);
    // The endpoint's URL is named (as text: the outbox lists every URL of the text), the inbox is the link.
    expect(mail?.text).toContain(`${en.mail.deliveryAlert.endpoint} ${sink.url()}\n`);
    expect(mail?.links).toEqual([sink.url(), inboxUrl]);
    expect(mail?.html).toContain(`href="${inboxUrl}"`);
    expect(mail?.html).toContain(address);
    expect(mail?.html).toContain(">503 Service Unavailable<");
  });

  it("name the network error and no status code when the webhook never answered", async () => {
    const closedPort = await findFreePort();
    const { emailCallbackId } = await seedAddress();
    await database.prisma.emailCallback.update({
      where: { id: emailCallbackId },
      data: { webhookUrl: `http://127.0.0.1:${closedPort}/hook` },
    });
    await seedDueMails(emailCallbackId, 1);

    await deliverDueOnBoth([newWorker(database, "worker-a"), newWorker(otherDatabase, "worker-b")]);

    const [mail] = await readOutboxes();
    expect(mail?.text).toContain(`${en.mail.deliveryAlert.statusCode} ${en.mail.deliveryAlert.noStatusCode}`);
    expect(mail?.text).toContain(en.mail.deliveryAlert.lastUnreachable);
    expect(mail?.text).toMatch(new RegExp(`${en.mail.deliveryAlert.error} connect ECONNREFUSED`));
  });

  it.each([
    [
      "en",
      "A mail received at {address} was not delivered: your webhook answered 400 Bad Request. Hookmail does not retry a 4xx answer other than 408 and 429, so no retry is left.",
    ],
    [
      "fr",
      "Un e-mail reçu à {address} n'a pas été transmis : votre webhook a répondu 400 Bad Request. Hookmail ne réessaie pas après une réponse 4xx autre que 408 et 429 : il ne reste aucun nouvel essai.",
    ],
  ])("say in words (%s) that a webhook answered 400 once and that a 4xx is not retried", async (locale, words) => {
    const { emailCallbackId, address } = await seedAddress({ locale });
    await seedDueMails(emailCallbackId, 1, { isLastAttempt: false });
    sink.reply({ status: 400, body: "missing field: subject" });

    await deliverDueOnBoth([newWorker(database, "worker-a"), newWorker(otherDatabase, "worker-b")]);

    expect(sink.requests).toHaveLength(1);
    const [mail] = await readOutboxes();
    expect(mail?.text).toContain(words.replace("{address}", address));
    expect(mail?.text).not.toContain(locale === "en" ? "gave up" : "a renoncé");
    expect(mail?.text).not.toContain(PROCESSING_ERROR.WEBHOOK_FAILED);
  });

  it.each([
    [
      "en",
      "Hookmail gave up delivering a mail received at {address}: your webhook failed 7 times over 31 hours and no retry is left. The last time, it answered 503 Service Unavailable.",
    ],
    [
      "fr",
      "Hookmail a renoncé à transmettre un e-mail reçu à {address} : votre webhook a échoué 7 fois en 31 heures et il ne reste aucun nouvel essai. La dernière fois, il a répondu 503 Service Unavailable.",
    ],
  ])("say in words (%s) how many attempts failed over how long once no retry is left", async (locale, words) => {
    const { emailCallbackId, address } = await seedAddress({ locale });
    const [mail] = await seedDueMails(emailCallbackId, 1);
    // The six attempts before the last, on the retry schedule: the series began 31 h 12 min 30 s ago.
    const sinceFirstMs = [0, 30_000, 150_000, 750_000, 4_350_000, 25_950_000];
    const firstAt = time.now().getTime() - 112_350_000;
    await database.prisma.deliveryAttempt.createMany({
      data: sinceFirstMs.map((offsetMs) => ({
        id: createId("deliveryAttempt"),
        emailProcessingId: mail!.id,
        deliveryId: mail!.deliveryId,
        attemptedAt: new Date(firstAt + offsetMs),
        statusCode: 503,
        durationMs: 20,
      })),
    });
    failWebhook(1);

    await deliverDueOnBoth([newWorker(database, "worker-a"), newWorker(otherDatabase, "worker-b")]);

    const [alert] = await readOutboxes();
    expect(alert?.text).toContain(words.replace("{address}", address));
    expect(alert?.text).not.toContain(PROCESSING_ERROR.WEBHOOK_FAILED);
  });

  it("send no second alert for the address within the hour, and one again after it", async () => {
    const { emailCallbackId } = await seedAddress();
    const workers = [newWorker(database, "worker-a"), newWorker(otherDatabase, "worker-b")];
    await seedDueMails(emailCallbackId, 2);
    failWebhook(2);
    await deliverDueOnBoth(workers);
    expect(await readOutboxes()).toHaveLength(1);

    time.advance(DELIVERY_ALERT_INTERVAL_MS - MINUTE);
    await seedDueMails(emailCallbackId, MAIL_COUNT);
    failWebhook(MAIL_COUNT);
    await deliverDueOnBoth(workers);
    expect(await readOutboxes()).toHaveLength(1);

    time.advance(2 * MINUTE);
    await seedDueMails(emailCallbackId, MAIL_COUNT);
    failWebhook(MAIL_COUNT);
    await deliverDueOnBoth(workers);
    const mails = await readOutboxes();
    expect(mails).toHaveLength(2);
    expect(mails[1]?.subject).toBe(mails[0]?.subject);
  });

  it("send exactly one recovery mail when deliveries to an alerted address succeed again", async () => {
    const { email, emailCallbackId, address } = await seedAddress();
    const workers = [newWorker(database, "worker-a"), newWorker(otherDatabase, "worker-b")];
    await seedDueMails(emailCallbackId, 1);
    failWebhook(1);
    await deliverDueOnBoth(workers);
    sink.reset();
    time.advance(MINUTE);
    const delivered = idsOf(await seedDueMails(emailCallbackId, MAIL_COUNT, { isLastAttempt: false }));
    await deliverDueOnBoth(workers);

    expect(sink.requests).toHaveLength(MAIL_COUNT);
    const statuses = await database.prisma.emailProcessing.findMany({
      where: { id: { in: delivered } },
      select: { status: true },
    });
    expect(statuses.every(({ status }) => status === PROCESSING_STATUS.SUCCESS)).toBe(true);
    const mails = await readOutboxes();
    expect(mails.map(({ subject }) => subject)).toEqual([
      `Mail to ${address} could not be delivered`,
      `Mail to ${address} is delivered again`,
    ]);
    expect(mails[1]?.to).toBe(email);
    expect(mails[1]?.links).toEqual([sink.url(), `${BASE_URL}/email-callbacks/${emailCallbackId}/inbox`]);
    expect((await findWebhookEndpoint(emailCallbackId)).isAlerting).toBe(false);

    await seedDueMails(emailCallbackId, 2, { isLastAttempt: false });
    await deliverDueOnBoth(workers);
    expect(await readOutboxes()).toHaveLength(2);
  });

  it("send no recovery mail for a delivery to an address that was never alerted", async () => {
    const { emailCallbackId } = await seedAddress();
    await seedDueMails(emailCallbackId, 3, { isLastAttempt: false });

    await deliverDueOnBoth([newWorker(database, "worker-a"), newWorker(otherDatabase, "worker-b")]);

    expect(sink.requests).toHaveLength(3);
    expect(await readOutboxes()).toEqual([]);
  });

  it("send nothing, neither alert nor recovery, to an owner who turned alerts off", async () => {
    const { emailCallbackId } = await seedAddress({ deliveryAlerts: false });
    const workers = [newWorker(database, "worker-a"), newWorker(otherDatabase, "worker-b")];
    await seedDueMails(emailCallbackId, MAIL_COUNT);
    failWebhook(MAIL_COUNT);
    await deliverDueOnBoth(workers);
    await seedDueMails(emailCallbackId, 2, { isLastAttempt: false });
    await deliverDueOnBoth(workers);

    expect(await readOutboxes()).toEqual([]);
    expect((await findCallback(emailCallbackId)).lastAlertAt).toBeNull();
    expect((await findWebhookEndpoint(emailCallbackId)).isAlerting).toBe(false);
  });

  it("send no recovery mail when the owner turned alerts off after the alert", async () => {
    const { email, emailCallbackId } = await seedAddress();
    const workers = [newWorker(database, "worker-a"), newWorker(otherDatabase, "worker-b")];
    await seedDueMails(emailCallbackId, 1);
    failWebhook(1);
    await deliverDueOnBoth(workers);
    await database.prisma.user.update({ where: { email }, data: { deliveryAlerts: false } });

    await seedDueMails(emailCallbackId, 1, { isLastAttempt: false });
    await deliverDueOnBoth(workers);

    expect(await readOutboxes()).toHaveLength(1);
    expect((await findWebhookEndpoint(emailCallbackId)).isAlerting).toBe(false);
  });

  it("write the alert and the recovery mail in the owner's language", async () => {
    const { emailCallbackId, address } = await seedAddress({ locale: "fr" });
    const workers = [newWorker(database, "worker-a"), newWorker(otherDatabase, "worker-b")];
    await seedDueMails(emailCallbackId, 1);
    failWebhook(1);
    await deliverDueOnBoth(workers);
    await seedDueMails(emailCallbackId, 1, { isLastAttempt: false });
    await deliverDueOnBoth(workers);

    const [alert, recovery] = await readOutboxes();
    expect(alert?.subject).toBe(fr.mail.deliveryAlert.subject.replace("{address}", address));
    expect(alert?.text).toContain(`${fr.mail.deliveryAlert.statusCode} 503`);
    expect(alert?.text).toContain(fr.mail.deliveryAlert.footer);
    expect(alert?.html).toContain('lang="fr"');
    expect(recovery?.subject).toBe(fr.mail.deliveryRecovery.subject.replace("{address}", address));
  });

  it("write in English to an owner whose language is not known", async () => {
    const { emailCallbackId, address } = await seedAddress({ locale: null });
    await seedDueMails(emailCallbackId, 1);
    failWebhook(1);

    await deliverDueOnBoth([newWorker(database, "worker-a"), newWorker(otherDatabase, "worker-b")]);

    const [alert] = await readOutboxes();
    expect(alert?.subject).toBe(en.mail.deliveryAlert.subject.replace("{address}", address));
  });

  it("log an alert that cannot be sent, and still record the delivery's outcome", async () => {
    const closedPort = await findFreePort();
    const { emailCallbackId } = await seedAddress();
    const [mail] = await seedDueMails(emailCallbackId, 1);
    failWebhook(1);
    const brokenMailer = createMailer({
      smtpUrl: `smtp://127.0.0.1:${closedPort}`,
      from: "Hookmail <no-reply@hookmail.test>",
      outboxDir: path.join(outboxRoot, "unused"),
      logger: silentLogger,
    });

    await deliverDueOnBoth([newWorker(database, "worker-a", brokenMailer)]);

    expect(await database.prisma.emailProcessing.findUniqueOrThrow({ where: { id: mail!.id } })).toMatchObject({
      status: PROCESSING_STATUS.ERROR,
      error: PROCESSING_ERROR.WEBHOOK_FAILED,
    });
    expect(await database.prisma.delivery.findUniqueOrThrow({ where: { id: mail!.deliveryId } })).toMatchObject({
      status: PROCESSING_STATUS.ERROR,
      error: PROCESSING_ERROR.WEBHOOK_FAILED,
      lockedUntil: null,
    });
    expect(memory.errors.map(({ line }) => line)).toEqual(["The delivery alert could not be sent"]);
    expect(memory.entries).toContainEqual(
      expect.objectContaining({ msg: "The delivery alert could not be sent", deliveryId: mail!.deliveryId }),
    );
  });
});

describe("the alert decision", () => {
  it("is won by exactly one of many concurrent claims for one address, from two connection pools", async () => {
    const { emailCallbackId } = await seedAddress();
    const ids = deliveryIdsOf(await seedDueMails(emailCallbackId, 12));
    await database.prisma.delivery.updateMany({
      where: { id: { in: ids } },
      data: { status: PROCESSING_STATUS.ERROR, error: PROCESSING_ERROR.WEBHOOK_FAILED, nextAttemptAt: null },
    });
    const repositories = [createDeliveryAlertsRepository(database), createDeliveryAlertsRepository(otherDatabase)];
    const lastAlertBefore = new Date(time.now().getTime() - DELIVERY_ALERT_INTERVAL_MS);

    const claims = await Promise.all(
      ids.map((deliveryId, index) =>
        repositories[index % 2]!.claimFailureAlert({ deliveryId, now: time.now(), lastAlertBefore }),
      ),
    );

    expect(claims.filter((claim) => claim !== null)).toHaveLength(1);
  });

  it("takes no alert for a mail that did not give up on its webhook", async () => {
    const { emailCallbackId } = await seedAddress();
    const [pending, unknown] = deliveryIdsOf(await seedDueMails(emailCallbackId, 2));
    await database.prisma.delivery.update({
      where: { id: unknown! },
      data: { status: PROCESSING_STATUS.ERROR, error: PROCESSING_ERROR.UNKNOWN },
    });
    const repository = createDeliveryAlertsRepository(database);
    const lastAlertBefore = new Date(time.now().getTime() - DELIVERY_ALERT_INTERVAL_MS);

    expect(await repository.claimFailureAlert({ deliveryId: pending!, now: time.now(), lastAlertBefore })).toBeNull();
    expect(await repository.claimFailureAlert({ deliveryId: unknown!, now: time.now(), lastAlertBefore })).toBeNull();
    expect((await findCallback(emailCallbackId)).lastAlertAt).toBeNull();
  });
});

describe("the end of an alert", () => {
  it("comes once when statements of two connection pools record several deliveries to the endpoint together", async () => {
    const { emailCallbackId } = await seedAddress();
    await database.prisma.emailCallback.update({ where: { id: emailCallbackId }, data: { lastAlertAt: time.now() } });
    await database.prisma.endpoint.update({
      where: { id: (await findWebhookEndpoint(emailCallbackId)).id },
      data: { isAlerting: true },
    });
    const ids = deliveryIdsOf(await seedDueMails(emailCallbackId, 8, { isLastAttempt: false }));
    const lockedUntil = new Date(time.now().getTime() + MINUTE);
    await database.prisma.delivery.updateMany({ where: { id: { in: ids } }, data: { lockedUntil } });
    const delivered = (id: string): AttemptOutcome => ({
      claim: { id, lockedUntil },
      attempt: null,
      change: { status: PROCESSING_STATUS.SUCCESS, webhookResponseStatusCode: 200, deliveredAt: time.now() },
    });

    const written = await Promise.all([
      writeAttemptOutcomes(database.executor, ids.slice(0, 4).map(delivered)),
      writeAttemptOutcomes(otherDatabase.executor, ids.slice(4).map(delivered)),
    ]);

    expect(written.map(({ held }) => held.size)).toEqual([4, 4]);
    expect(written.flatMap(({ endingAlerts }) => [...endingAlerts])).toHaveLength(1);
    expect((await findWebhookEndpoint(emailCallbackId)).isAlerting).toBe(false);
  });
});
