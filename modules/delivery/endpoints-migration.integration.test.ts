// The move to endpoints and deliveries (docs/architecture.md: The data) on a database written at the
// schema before it: every address's webhook becomes its first endpoint, every mail that was or is being
// delivered its delivery with the state it held, and a mail that was waiting for a retry is then
// delivered to the old URL, signed with the old secret, with nothing lost.
import { cp, mkdtemp, readdir, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Database, MIGRATIONS_DIR, openDatabase } from "@/modules/db/db";
import { applyMigrations } from "@/modules/db/migrations";
import { createProcessMetrics } from "@/modules/metrics/metrics.registry";
import { createId } from "@/modules/shared/ids";
import { silentLogger } from "@/modules/shared/logging/logger";
import { createTestDatabaseUrl } from "@/tests/support/test-database";
import { startWebhookSink, type WebhookSink } from "@/tests/support/webhook-sink";
import { createDeliveryWorker } from "./delivery-worker";

const SECRET = "whsec-before-endpoints-0123456789";
const MIGRATION = "_endpoints_and_deliveries";
const HOUR = 3_600_000;

let database: Database;
let dropDatabase: () => Promise<void>;
let sink: WebhookSink;
const now = new Date();
const ids = {
  user: createId("user"),
  signed: createId("emailCallback"),
  unsigned: createId("emailCallback"),
  deleted: createId("emailCallback"),
  retrying: createId("emailProcessing"),
  delivered: createId("emailProcessing"),
  failed: createId("emailProcessing"),
  refused: createId("emailProcessing"),
  oldMail: createId("emailProcessing"),
  attempt: createId("deliveryAttempt"),
};

/** Applies the migrations before the endpoints migration. */
async function migrateToPreviousSchema() {
  const names = (await readdir(MIGRATIONS_DIR)).filter((name) => !name.endsWith(".toml")).sort();
  const index = names.findIndex((name) => name.endsWith(MIGRATION));
  const selected = await mkdtemp(path.join(os.tmpdir(), "hookmail-migrations-"));
  try {
    for (const name of names.slice(0, index)) {
      await cp(path.join(MIGRATIONS_DIR, name), path.join(selected, name), { recursive: true });
    }
    await applyMigrations({ executor: database.executor, migrationsDir: selected, logger: silentLogger });
  } finally {
    await rm(selected, { recursive: true, force: true });
  }
}

/** The rows as the code before endpoints wrote them (plain SQL at that schema). */
async function seedAtPreviousSchema() {
  const q = (sql: string, params: unknown[]) => database.executor.query(sql, params);
  const ts = (offsetMs: number) => new Date(now.getTime() + offsetMs).toISOString();
  await q(`INSERT INTO "user" (id, name, email, "updatedAt") VALUES ($1, 'Ann', $2, now())`, [
    ids.user,
    `${ids.user}@example.com`,
  ]);
  const callback = `INSERT INTO email_callback (id, "userId", domain, username, "webhookUrl", "webhookSecret", "createdAt", "updatedAt", "deletedAt")
    VALUES ($1, $2, 'hookmail.test', $3, $4, $5, $6::timestamptz AT TIME ZONE 'UTC', now(), $7::timestamptz AT TIME ZONE 'UTC')`;
  await q(callback, [ids.signed, ids.user, "signed", sink.url("/signed"), SECRET, ts(-3 * HOUR), null]);
  await q(callback, [ids.unsigned, ids.user, "unsigned", sink.url("/unsigned"), null, ts(-2 * HOUR), null]);
  await q(callback, [ids.deleted, ids.user, "gone", sink.url("/gone"), "old-secret", ts(-HOUR), ts(-HOUR / 2)]);
  const processing = `INSERT INTO email_processing (id, "emailCallbackId", "fromAddress", recipient, status, error,
      "webhookResponseStatusCode", payload, "attemptCount", "nextAttemptAt", "lockedUntil", "deliveredAt", "createdAt", "updatedAt")
    VALUES ($1, $2, 'bob@example.org', 'signed@hookmail.test', $3, $4, $5, $6::bytea, $7,
      $8::timestamptz AT TIME ZONE 'UTC', $9::timestamptz AT TIME ZONE 'UTC', $10::timestamptz AT TIME ZONE 'UTC', now(), now())`;
  const body = (id: string) => Buffer.from(`{"type":"email.received","data":{"id":"${id}"}}`);
  // Waiting for its third attempt, its lease from a crashed worker long over.
  await q(processing, [ids.retrying, ids.signed, "pending", null, 503, body(ids.retrying), 2, ts(-60_000), ts(-30_000), null]);
  await q(processing, [ids.delivered, ids.signed, "success", null, 200, body(ids.delivered), 1, null, null, ts(-HOUR)]);
  await q(processing, [ids.failed, ids.unsigned, "error", "webhook-failed", 500, body(ids.failed), 7, null, null, null]);
  await q(processing, [ids.refused, ids.unsigned, "not-processed", "from-address-not-allowed", null, null, 0, null, null, null]);
  await q(processing, [ids.oldMail, ids.deleted, "success", null, 204, null, 1, null, null, ts(-HOUR)]);
  await q(
    `INSERT INTO delivery_attempt (id, "emailProcessingId", "attemptedAt", "statusCode", "durationMs") VALUES ($1, $2, now(), 503, 12)`,
    [ids.attempt, ids.retrying],
  );
}

beforeAll(async () => {
  sink = await startWebhookSink();
  const { url, drop } = await createTestDatabaseUrl({ migrated: false });
  database = await openDatabase({ url, poolSize: 2 });
  dropDatabase = drop;
  await migrateToPreviousSchema();
  await seedAtPreviousSchema();
  // The endpoints migration and every one after it, as an upgrade applies them: the code tested below
  // is today's.
  await applyMigrations({ executor: database.executor, migrationsDir: MIGRATIONS_DIR, logger: silentLogger });
});
afterAll(async () => {
  await database?.close();
  await dropDatabase?.();
  await sink?.close();
});

describe("the endpoints migration", () => {
  it("makes every address's webhook its first endpoint: its URL, its secret (hmac) or none, deleted with a deleted address", async () => {
    const endpoints = await database.prisma.endpoint.findMany({ orderBy: { createdAt: "asc" } });
    expect(
      endpoints.map(({ emailCallbackId, url, signingScheme, secret, format, isEnabled, deletedAt }) => ({
        emailCallbackId,
        url,
        signingScheme,
        secret,
        format,
        isEnabled,
        isDeleted: deletedAt !== null,
      })),
    ).toEqual([
      {
        emailCallbackId: ids.signed,
        url: sink.url("/signed"),
        signingScheme: "hmac",
        secret: SECRET,
        format: "json",
        isEnabled: true,
        isDeleted: false,
      },
      {
        emailCallbackId: ids.unsigned,
        url: sink.url("/unsigned"),
        signingScheme: "none",
        secret: null,
        format: "json",
        isEnabled: true,
        isDeleted: false,
      },
      {
        emailCallbackId: ids.deleted,
        url: sink.url("/gone"),
        signingScheme: "hmac",
        secret: "old-secret",
        format: "json",
        isEnabled: true,
        isDeleted: true,
      },
    ]);
  });

  it("gives every mail that was or is being delivered its delivery, with the state it held; a mail not processed gets none", async () => {
    const deliveries = await database.prisma.delivery.findMany({ include: { endpoint: { select: { emailCallbackId: true } } } });
    const byMail = new Map(deliveries.map((delivery) => [delivery.emailProcessingId, delivery]));
    expect(byMail.has(ids.refused)).toBe(false);
    expect(deliveries).toHaveLength(4);
    expect(byMail.get(ids.retrying)).toMatchObject({ status: "pending", attemptCount: 2, lastStatusCode: 503, error: null });
    expect(byMail.get(ids.retrying)?.endpoint.emailCallbackId).toBe(ids.signed);
    expect(byMail.get(ids.delivered)).toMatchObject({ status: "success", attemptCount: 1, lastStatusCode: 200 });
    expect(byMail.get(ids.failed)).toMatchObject({
      status: "error",
      error: "webhook-failed",
      attemptCount: 7,
      lastStatusCode: 500,
    });
    expect(byMail.get(ids.oldMail)?.endpoint.emailCallbackId).toBe(ids.deleted);
    const [attempt] = await database.prisma.deliveryAttempt.findMany({ where: { id: ids.attempt } });
    expect(attempt?.deliveryId).toBe(byMail.get(ids.retrying)?.id);
  });

  it("delivers the mail that was waiting for a retry to the old URL, signed with the old secret, once", async () => {
    const worker = createDeliveryWorker({
      database,
      metrics: createProcessMetrics(),
      config: { webhook: { timeoutMs: 2000, allowPrivateTargets: true } },
      logger: silentLogger,
    });
    expect(await worker.deliverDue()).toBe(1);
    await worker.whenIdle();
    expect(sink.requests).toHaveLength(1);
    const [request] = sink.requests;
    expect(request?.path).toBe("/signed");
    expect(request?.headers["webhook-id"]).toBe(ids.retrying);
    expect(() =>
      new Webhook(Buffer.from(SECRET).toString("base64")).verify(
        request!.body.toString(),
        request!.headers as Record<string, string>,
      ),
    ).not.toThrow();
    const mail = await database.prisma.emailProcessing.findUniqueOrThrow({ where: { id: ids.retrying } });
    expect(mail).toMatchObject({ status: "success", attemptCount: 3, webhookResponseStatusCode: 200, error: null });
    expect(await worker.deliverDue()).toBe(0);
  });
});
