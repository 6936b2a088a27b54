// The inbox's pages and total on a fresh database, whatever writes or removes the processings: the
// total is the number of the callback's rows, and walking every page gives each row once, newest
// first, across hours and ties. The counts behind them (email_processing_count, kept by triggers)
// follow inserts of the inbound pipeline, bulk inserts, deletes, moves, truncation and the owner's
// deletion; folding them changes nothing; the migration counts the rows that were already there.

import { cp, mkdtemp, readdir, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Database, MIGRATIONS_DIR, openDatabase } from "@/modules/db/db";
import { applyMigrations } from "@/modules/db/migrations";
import { createInboundRepository, type NewProcessing } from "@/modules/inbound/inbound.repository";
import { createId } from "@/modules/shared/ids";
import { silentLogger } from "@/modules/shared/logging/logger";
import { createTestDatabase, createTestDatabaseUrl } from "@/tests/support/test-database";
import { createProcessingsRepository, type ProcessingsRepository } from "./processings.repository";
import { listEmailProcessings, PROCESSING_COUNT_FOLD_THRESHOLD } from "./processings.usecases";

let database: Database;
let repository: ProcessingsRepository;

beforeAll(async () => {
  database = await createTestDatabase();
  repository = createProcessingsRepository(database);
});
afterAll(() => database.close());

const HOUR_MS = 3_600_000;
const START = Date.parse("2026-11-01T00:00:00.000Z");

async function seedOwnerAndCallback(db: Database = database) {
  const userId = createId("user");
  const emailCallbackId = createId("emailCallback");
  await db.executor.query(`INSERT INTO "user" (id, name, email, "updatedAt") VALUES ($1, 'Inbox owner', $2, now())`, [
    userId,
    `${userId.toLowerCase()}@example.com`,
  ]);
  await db.executor.query(
    `INSERT INTO email_callback (id, "userId", domain, username, "webhookUrl", "updatedAt")
     VALUES ($1, $2, 'hookmail.test', $3, 'https://hooks.example.com/in', now())`,
    [emailCallbackId, userId, `inbox-${emailCallbackId.slice(4, 16).toLowerCase()}`],
  );
  return { userId, emailCallbackId };
}

const newProcessing = (emailCallbackId: string, createdAt: Date, overrides: Partial<NewProcessing> = {}): NewProcessing => ({
  id: createId("emailProcessing"),
  emailCallbackId,
  fromAddress: "bob@example.org",
  subject: `Sent ${createdAt.toISOString()}`,
  messageId: null,
  recipient: "inbox@hookmail.test",
  tag: null,
  status: "pending",
  error: null,
  rawMessage: null,
  payload: null,
  nextAttemptAt: createdAt,
  // Its delivery to the address's first endpoint, which the address's trigger named after it.
  deliveries: [{ id: createId("delivery"), endpointId: `ept_${emailCallbackId.slice("ecb_".length)}` }],
  lockedUntil: null,
  createdAt,
  ...overrides,
});

/** Written the way the inbound pipeline writes them: one INSERT statement per processing. */
async function receive(rows: NewProcessing[], db: Database = database) {
  await createInboundRepository({ executor: db.executor }).createProcessings(rows, { duplicatesSince: new Date(0) });
}

/** Written in one multi-row INSERT statement (Prisma's createMany), their deliveries in another. */
async function bulkInsert(rows: NewProcessing[], db: Database = database) {
  await db.prisma.emailProcessing.createMany({
    data: rows.map(({ rawMessage: _raw, payload: _payload, deliveries: _deliveries, lockedUntil: _lockedUntil, ...row }) => row),
  });
  await db.prisma.delivery.createMany({
    data: rows.flatMap((row) =>
      row.deliveries.map((delivery) => ({
        ...delivery,
        emailProcessingId: row.id,
        status: row.status,
        nextAttemptAt: row.nextAttemptAt,
      })),
    ),
  });
}

async function countRows(emailCallbackId: string, db: Database = database) {
  const [row] = await db.executor.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM email_processing WHERE "emailCallbackId" = $1`,
    [emailCallbackId],
  );
  return row!.n;
}

async function countCountRows(emailCallbackId: string) {
  const [row] = await database.executor.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM email_processing_count WHERE "emailCallbackId" = $1`,
    [emailCallbackId],
  );
  return row!.n;
}

const listPage = (emailCallbackId: string, userId: string, pageIndex: number, pageSize: number) =>
  listEmailProcessings({ emailCallbackId, userId, pageIndex, pageSize, repository });

/** Every page in turn, until an empty one. */
async function walkInbox(emailCallbackId: string, userId: string, pageSize: number) {
  const ids: string[] = [];
  const totals = new Set<number>();
  for (let pageIndex = 0; ; pageIndex += 1) {
    const page = await listPage(emailCallbackId, userId, pageIndex, pageSize);
    totals.add(page.emailProcessingsCount);
    if (page.emailProcessings.length === 0) return { ids, totals };
    expect(page.emailProcessings.length).toBeLessThanOrEqual(pageSize);
    ids.push(...page.emailProcessings.map(({ id }) => id));
  }
}

async function newestFirstIds(emailCallbackId: string) {
  const rows = await database.executor.query<{ id: string }>(
    `SELECT id FROM email_processing WHERE "emailCallbackId" = $1 ORDER BY "createdAt" DESC, id DESC`,
    [emailCallbackId],
  );
  return rows.map(({ id }) => id);
}

describe("the inbox pages and total", () => {
  it("give every row once, newest first, across hours, ties and both ways of writing rows", async () => {
    const { userId, emailCallbackId } = await seedOwnerAndCallback();
    const other = await seedOwnerAndCallback();
    // 5 hours with 0 to 40 rows each, several rows sharing one instant (ties go by id, descending),
    // some received one by one and some inserted in bulk; another callback's rows in between.
    const perHour = [40, 1, 0, 23, 7];
    const rows = perHour.flatMap((count, hour) =>
      Array.from({ length: count }, (_, index) =>
        newProcessing(emailCallbackId, new Date(START + hour * HOUR_MS + Math.floor(index / 3) * 1000)),
      ),
    );
    await receive(rows.filter((_, index) => index % 2 === 0));
    await bulkInsert(rows.filter((_, index) => index % 2 === 1));
    await receive(
      Array.from({ length: 9 }, (_, index) => newProcessing(other.emailCallbackId, new Date(START + index * 1800_000))),
    );

    const expected = await newestFirstIds(emailCallbackId);
    expect(expected).toHaveLength(71);
    for (const pageSize of [15, 50, 100, 7]) {
      const { ids, totals } = await walkInbox(emailCallbackId, userId, pageSize);
      expect(ids).toEqual(expected);
      expect([...totals]).toEqual([71]);
    }
  });

  it("answer an empty page with the total past the last page, and an empty inbox with 0", async () => {
    const { userId, emailCallbackId } = await seedOwnerAndCallback();
    expect(await listPage(emailCallbackId, userId, 0, 15)).toEqual({
      emailProcessings: [],
      emailProcessingsCount: 0,
      pageIndex: 0,
      pageSize: 15,
    });
    await receive([newProcessing(emailCallbackId, new Date(START)), newProcessing(emailCallbackId, new Date(START + 1))]);
    expect(await listPage(emailCallbackId, userId, 1, 2)).toEqual({
      emailProcessings: [],
      emailProcessingsCount: 2,
      pageIndex: 1,
      pageSize: 2,
    });
  });

  it("give each row its recipient as the sender wrote it, filtered or not (a catch-all's inbox shows it)", async () => {
    const { userId, emailCallbackId } = await seedOwnerAndCallback();
    await receive([
      newProcessing(emailCallbackId, new Date(START), { recipient: "orders-42@xn--bcher-kva.example" }),
      newProcessing(emailCallbackId, new Date(START + 1), { recipient: "Hello+news@xn--bcher-kva.example" }),
    ]);
    const page = await listPage(emailCallbackId, userId, 0, 15);
    expect(page.emailProcessings.map(({ recipient }) => recipient)).toEqual([
      "Hello+news@xn--bcher-kva.example",
      "orders-42@xn--bcher-kva.example",
    ]);
    const filtered = await listEmailProcessings({
      emailCallbackId,
      userId,
      pageIndex: 0,
      pageSize: 15,
      filter: { q: "bob@" },
      repository,
    });
    expect(filtered.emailProcessings.map(({ recipient }) => recipient)).toEqual(
      page.emailProcessings.map(({ recipient }) => recipient),
    );
  });

  it("answer email_callback.not_found for another user's callback, with no rows", async () => {
    const { emailCallbackId } = await seedOwnerAndCallback();
    const stranger = await seedOwnerAndCallback();
    await receive([newProcessing(emailCallbackId, new Date(START))]);
    await expect(listPage(emailCallbackId, stranger.userId, 0, 15)).rejects.toMatchObject({ code: "email_callback.not_found" });
  });
});

describe("the counts behind the total", () => {
  it("subtract deleted rows, one by one or in a batch, and nothing of other callbacks", async () => {
    const { userId, emailCallbackId } = await seedOwnerAndCallback();
    const other = await seedOwnerAndCallback();
    const rows = Array.from({ length: 30 }, (_, index) => newProcessing(emailCallbackId, new Date(START + index * 600_000)));
    await bulkInsert(rows);
    await receive([newProcessing(other.emailCallbackId, new Date(START))]);
    await database.prisma.emailProcessing.delete({ where: { id: rows[0]!.id } });
    await database.executor.query(`DELETE FROM email_processing WHERE id = ANY($1::text[])`, [
      rows.slice(10, 20).map(({ id }) => id),
    ]);

    expect((await listPage(emailCallbackId, userId, 0, 100)).emailProcessingsCount).toBe(19);
    expect(await countRows(emailCallbackId)).toBe(19);
    expect((await listPage(other.emailCallbackId, other.userId, 0, 100)).emailProcessingsCount).toBe(1);
    expect((await walkInbox(emailCallbackId, userId, 15)).ids).toEqual(await newestFirstIds(emailCallbackId));
  });

  it("follow a row moved to another hour or callback, and ignore updates of other columns", async () => {
    const { userId, emailCallbackId } = await seedOwnerAndCallback();
    const other = await seedOwnerAndCallback();
    const [moved, retimed] = [
      newProcessing(emailCallbackId, new Date(START)),
      newProcessing(emailCallbackId, new Date(START + 1000)),
    ];
    await receive([moved!, retimed!, newProcessing(emailCallbackId, new Date(START + 2000))]);
    const countRowsBefore = await countCountRows(emailCallbackId);
    await database.prisma.emailProcessing.updateMany({
      where: { emailCallbackId },
      data: { status: "error", error: "webhook-failed" },
    });
    expect(await countCountRows(emailCallbackId)).toBe(countRowsBefore);

    await database.prisma.emailProcessing.update({
      where: { id: retimed!.id },
      data: { createdAt: new Date(START + 5 * HOUR_MS) },
    });
    await database.prisma.emailProcessing.update({ where: { id: moved!.id }, data: { emailCallbackId: other.emailCallbackId } });

    const page = await listPage(emailCallbackId, userId, 0, 15);
    expect(page.emailProcessingsCount).toBe(2);
    expect(page.emailProcessings.map(({ id }) => id)).toEqual(await newestFirstIds(emailCallbackId));
    expect(page.emailProcessings[0]!.id).toBe(retimed!.id);
    expect((await listPage(other.emailCallbackId, other.userId, 0, 15)).emailProcessingsCount).toBe(1);
  });

  it("go with the owner: deleting the user deletes the callback, its rows and its counts", async () => {
    const { userId, emailCallbackId } = await seedOwnerAndCallback();
    await receive([newProcessing(emailCallbackId, new Date(START)), newProcessing(emailCallbackId, new Date(START + HOUR_MS))]);
    await database.prisma.user.delete({ where: { id: userId } });
    expect(await countRows(emailCallbackId)).toBe(0);
    expect(await countCountRows(emailCallbackId)).toBe(0);
  });

  it("are folded into one row per hour once they pile up, with the same total and pages", async () => {
    const { userId, emailCallbackId } = await seedOwnerAndCallback();
    // One INSERT statement each: one count row each, in three hours.
    const rows = Array.from({ length: PROCESSING_COUNT_FOLD_THRESHOLD + 10 }, (_, index) =>
      newProcessing(emailCallbackId, new Date(START + (index % 3) * HOUR_MS + index)),
    );
    await receive(rows);
    expect(await countCountRows(emailCallbackId)).toBe(rows.length);
    const expected = await newestFirstIds(emailCallbackId);

    const first = await listPage(emailCallbackId, userId, 0, 100);
    expect(await countCountRows(emailCallbackId)).toBe(3);
    expect(first.emailProcessingsCount).toBe(rows.length);
    expect((await walkInbox(emailCallbackId, userId, 100)).ids).toEqual(expected);
  });

  // Last of the file's tests on the shared database: it empties the table.
  it("are cleared when the processings table is truncated", async () => {
    const { userId, emailCallbackId } = await seedOwnerAndCallback();
    await receive([newProcessing(emailCallbackId, new Date(START))]);
    await database.executor.exec("TRUNCATE email_processing CASCADE");
    expect((await listPage(emailCallbackId, userId, 0, 15)).emailProcessingsCount).toBe(0);
    expect(await countCountRows(emailCallbackId)).toBe(0);
  });
});

describe("the inbox-counts migration", () => {
  it("counts the processings written before it", async () => {
    const { database: legacy, close } = await openUnmigratedDatabase();
    const before = await mkdtemp(path.join(os.tmpdir(), "hookmail-migrations-"));
    try {
      const names = (await readdir(MIGRATIONS_DIR)).filter((name) => !name.endsWith(".toml")).sort();
      const countsMigration = names.findIndex((name) => name.endsWith("_inbox_counts"));
      for (const name of names.slice(0, countsMigration))
        await cp(path.join(MIGRATIONS_DIR, name), path.join(before, name), { recursive: true });
      await applyMigrations({ executor: legacy.executor, migrationsDir: before, logger: silentLogger });
      const { userId, emailCallbackId } = await seedOwnerAndCallback(legacy);
      // Written by plain SQL at that schema (today's inbound repository writes tables it did not have).
      for (let index = 0; index < 12; index += 1) {
        await legacy.executor.query(
          `INSERT INTO email_processing (id, "emailCallbackId", "fromAddress", subject, recipient, status, "createdAt", "updatedAt")
           VALUES ($1, $2, 'bob@example.org', 'Sent before the counts', 'inbox@hookmail.test', 'success', $3, $3)`,
          [createId("emailProcessing"), emailCallbackId, new Date(START + index * 1800_000).toISOString()],
        );
      }

      await applyMigrations({ executor: legacy.executor, migrationsDir: MIGRATIONS_DIR, logger: silentLogger });
      const legacyRepository = createProcessingsRepository(legacy);
      const page = await listEmailProcessings({
        emailCallbackId,
        userId,
        pageIndex: 1,
        pageSize: 5,
        repository: legacyRepository,
      });
      expect(page.emailProcessingsCount).toBe(12);
      expect(page.emailProcessings).toHaveLength(5);
    } finally {
      await rm(before, { recursive: true, force: true });
      await close();
    }
  });
});

async function openUnmigratedDatabase(): Promise<{ database: Database; close: () => Promise<void> }> {
  const { url, drop } = await createTestDatabaseUrl({ migrated: false });
  const unmigrated = await openDatabase({ url, poolSize: 2 });
  return {
    database: unmigrated,
    close: async () => {
      await unmigrated.close();
      await drop();
    },
  };
}
