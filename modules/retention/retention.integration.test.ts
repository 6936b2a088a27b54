// Retention on a fresh database: each plan keeps its own number of days; pending rows stay.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "@/modules/db/db";
import { createId } from "@/modules/shared/ids";
import { seedDatabase, seedEmailCallback, seedUser } from "@/tests/support/seed";
import { createTestDatabase } from "@/tests/support/test-database";
import { createRetentionRepository } from "./retention.repository";
import { deleteExpiredProcessings, deleteStaleRateLimitCounts, deleteStaleUploads, foldInboxCounts } from "./retention.usecases";

let database: Database;
const NOW = new Date("2026-11-21T12:00:00Z");
const daysAgo = (days: number) => new Date(NOW.getTime() - days * 24 * 60 * 60 * 1000);

async function seedOwner(planId: "free" | "pro") {
  const { id: userId } = await seedUser(database, { name: planId, planId });
  const { id: emailCallbackId } = await seedEmailCallback(database, { userId, webhookUrl: "https://x.test/h" });
  const processing = async (ageDays: number, status = "success") => {
    const id = createId("emailProcessing");
    await seedDatabase(database, {
      processings: [
        { id, emailCallbackId, fromAddress: "a@b.test", recipient: "r@hookmail.test", status, createdAt: daysAgo(ageDays) },
      ],
    });
    await database.prisma.deliveryAttempt.create({
      data: { id: createId("deliveryAttempt"), emailProcessingId: id, durationMs: 5, statusCode: 200 },
    });
    return id;
  };
  return { processing, emailCallbackId };
}

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.close());

describe("deleteExpiredProcessings", () => {
  it("deletes free rows past 30 days and pro rows past 90 days, with their attempts, in batches", async () => {
    const free = await seedOwner("free");
    const pro = await seedOwner("pro");
    const freeKept = await free.processing(29);
    const freeExpired = [
      await free.processing(31),
      await free.processing(45, "error"),
      await free.processing(100, "not-processed"),
    ];
    const freePending = await free.processing(40, "pending");
    const proKept = [await pro.processing(31), await pro.processing(89)];
    const proExpired = await pro.processing(91);

    const deleted = await deleteExpiredProcessings({
      repository: createRetentionRepository(database.executor),
      now: NOW,
      batchSize: 2,
    });
    expect(deleted).toBe(4);

    const remaining = (await database.prisma.emailProcessing.findMany({ select: { id: true } })).map(({ id }) => id);
    expect(remaining).toEqual(expect.arrayContaining([freeKept, freePending, ...proKept]));
    for (const id of [...freeExpired, proExpired]) expect(remaining).not.toContain(id);
    expect(
      await database.prisma.deliveryAttempt.count({ where: { emailProcessingId: { in: [...freeExpired, proExpired] } } }),
    ).toBe(0);
  });
});

describe("foldInboxCounts", () => {
  const countRows = (emailCallbackId: string) =>
    database.executor.query<{ hour: Date; delta: number }>(
      `SELECT hour, delta FROM email_processing_count WHERE "emailCallbackId" = $1 ORDER BY hour`,
      [emailCallbackId],
    );

  it("folds every address's count rows into one per hour, keeping the totals, in batches", async () => {
    const owners = [await seedOwner("free"), await seedOwner("free"), await seedOwner("pro")];
    for (const owner of owners) {
      // Three mails an hour ago and two ten hours ago, each written by its own statement (its own delta row), then one deleted.
      const recent = [await owner.processing(0.04), await owner.processing(0.04), await owner.processing(0.04)];
      for (let mail = 0; mail < 2; mail += 1) await owner.processing(0.4);
      await database.prisma.emailProcessing.delete({ where: { id: recent[0]! } });
    }
    const callbackIds = owners.map(({ emailCallbackId }) => emailCallbackId);
    for (const callbackId of callbackIds) expect(await countRows(callbackId)).toHaveLength(6);

    expect(
      await foldInboxCounts({ repository: createRetentionRepository(database.executor), batchSize: 2 }),
    ).toBeGreaterThanOrEqual(3);
    for (const callbackId of callbackIds) {
      const rows = await countRows(callbackId);
      expect(rows.map(({ delta }) => delta)).toEqual([2, 2]);
    }
    expect(await foldInboxCounts({ repository: createRetentionRepository(database.executor) })).toBe(0);
  });
});

describe("deleteStaleRateLimitCounts", () => {
  it("deletes the rate-limit counters whose window ended more than the longest window ago, and keeps the others", async () => {
    const hoursAgo = (hours: number) => new Date(NOW.getTime() - hours * 60 * 60 * 1000);
    await database.prisma.actionRateLimit.createMany({
      data: [
        { key: "test-mail:stale", windowStart: hoursAgo(25), count: 10 },
        { key: "failed-sign-in:stale", windowStart: hoursAgo(2), count: 3 },
        { key: "password-reset-mail:current", windowStart: hoursAgo(0.5), count: 5 },
      ],
    });
    expect(await deleteStaleRateLimitCounts({ repository: createRetentionRepository(database.executor), now: NOW })).toBe(2);
    const kept = await database.prisma.actionRateLimit.findMany({ select: { key: true } });
    expect(kept.map(({ key }) => key)).toEqual(["password-reset-mail:current"]);
  });
});

describe("deleteStaleUploads", () => {
  it("deletes the large-value slices staged over an hour ago and never written, and keeps the recent ones", async () => {
    const staged = (uploadId: string, createdAt: Date) =>
      database.executor.query(
        "INSERT INTO value_upload_slice (upload_id, part, seq, bytes, created_at) VALUES ($1, 0, 0, $2, $3)",
        [uploadId, Buffer.from("slice"), createdAt.toISOString()],
      );
    await staged("stale", new Date(NOW.getTime() - 2 * 60 * 60 * 1000));
    await staged("recent", new Date(NOW.getTime() - 5 * 60 * 1000));
    expect(await deleteStaleUploads({ repository: createRetentionRepository(database.executor), now: NOW })).toBe(1);
    const kept = await database.executor.query<{ upload_id: string }>("SELECT upload_id FROM value_upload_slice");
    expect(kept.map((row) => row.upload_id)).toEqual(["recent"]);
  });
});
