// The migration runner against a fresh empty database on the test server for each test (dropped
// after it), reached through a pool as the app does.

import { createHash } from "node:crypto";
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createMemoryLogger, silentLogger } from "@/tests/support/memory-logger";

import { createTestDatabaseUrl } from "@/tests/support/test-database";
import { applyMigrations, MIGRATION_ERROR_CODES, MigrationError } from "./migrations";
import { createPgExecutor, type SqlExecutor } from "./sql-executor";

const PROJECT_MIGRATIONS_DIR = fileURLToPath(new URL("../../prisma/migrations", import.meta.url));
const SCHEMA_TABLES = [
  "user",
  "session",
  "account",
  "verification",
  "rate_limit",
  "email_callback",
  "email_processing",
  "delivery_attempt",
  "api_key",
];
const TEST_TIMEOUT = { timeout: 60_000 };

type TestDatabase = { executor: SqlExecutor; close(): Promise<void> };

describe("applyMigrations", () => {
  let database: TestDatabase;
  let migrationsDir: string | undefined;

  beforeEach(async () => {
    database = await openEmptyDatabase();
  }, TEST_TIMEOUT.timeout);

  afterEach(async () => {
    await database.close();
    if (migrationsDir) await rm(migrationsDir, { recursive: true, force: true });
    migrationsDir = undefined;
  }, TEST_TIMEOUT.timeout);

  it("applies every migration of prisma/migrations and creates the schema's tables", TEST_TIMEOUT, async () => {
    const expected = await listMigrationNames(PROJECT_MIGRATIONS_DIR);

    const { applied } = await applyMigrations({ ...quietRun(database), migrationsDir: PROJECT_MIGRATIONS_DIR });

    expect(expected.length).toBeGreaterThan(0);
    expect(applied).toEqual(expected);
    expect(await listTables(database.executor)).toEqual(expect.arrayContaining(SCHEMA_TABLES));
  });

  it("a second run applies nothing, and each migration has one finished row with its sha256", TEST_TIMEOUT, async () => {
    await applyMigrations({ ...quietRun(database), migrationsDir: PROJECT_MIGRATIONS_DIR });

    const { applied } = await applyMigrations({ ...quietRun(database), migrationsDir: PROJECT_MIGRATIONS_DIR });

    expect(applied).toEqual([]);
    const rows = await findMigrationRows(database.executor);
    const expected = await Promise.all(
      (await listMigrationNames(PROJECT_MIGRATIONS_DIR)).map(async (name) => ({
        migration_name: name,
        checksum: await computeFileChecksum(path.join(PROJECT_MIGRATIONS_DIR, name, "migration.sql")),
        is_finished: true,
        is_rolled_back: false,
        applied_steps_count: 1,
        logs: null,
      })),
    );
    expect(rows).toEqual(expected);
  });

  it(
    "a failing migration throws a MigrationError naming it, rolls its changes back and is recorded failed",
    TEST_TIMEOUT,
    async () => {
      migrationsDir = await createMigrationsDir({
        "20260101000000_first": 'CREATE TABLE "first_table" ("id" TEXT PRIMARY KEY);',
        "20260102000000_broken": 'CREATE TABLE "partial_table" ("id" TEXT);\nCREATE TABLE "first_table" ("id" TEXT);',
      });

      const run = applyMigrations({ ...quietRun(database), migrationsDir });

      await expect(run).rejects.toThrow(MigrationError);
      await expect(run).rejects.toMatchObject({
        code: MIGRATION_ERROR_CODES.FAILED,
        migrationName: "20260102000000_broken",
        message: 'Migration 20260102000000_broken failed: relation "first_table" already exists',
      });
      const tables = await listTables(database.executor);
      expect(tables).toContain("first_table");
      expect(tables).not.toContain("partial_table");
      const rows = await findMigrationRows(database.executor);
      expect(rows.map(({ migration_name, is_finished }) => ({ migration_name, is_finished }))).toEqual([
        { migration_name: "20260101000000_first", is_finished: true },
        { migration_name: "20260102000000_broken", is_finished: false },
      ]);
      expect(rows[1]?.logs).toContain('relation "first_table" already exists');
    },
  );

  it("refuses to run while a failed migration is not marked rolled back, and applies it once it is", TEST_TIMEOUT, async () => {
    migrationsDir = await createMigrationsDir({ "20260101000000_broken": "SELECT * FROM missing_table;" });
    await expect(applyMigrations({ ...quietRun(database), migrationsDir })).rejects.toThrow(MigrationError);

    const blockedRun = applyMigrations({ ...quietRun(database), migrationsDir });

    await expect(blockedRun).rejects.toMatchObject({
      code: MIGRATION_ERROR_CODES.BLOCKED_BY_FAILED,
      migrationName: "20260101000000_broken",
    });
    await expect(blockedRun).rejects.toThrow(/20260101000000_broken failed on an earlier run.*not marked as rolled back/);
    await expect(blockedRun).rejects.toThrow(/UPDATE "_prisma_migrations" SET rolled_back_at = now\(\)/);

    await writeFile(path.join(migrationsDir, "20260101000000_broken", "migration.sql"), "CREATE TABLE fixed (id TEXT);");
    await database.executor.exec(
      `UPDATE "_prisma_migrations" SET rolled_back_at = now() WHERE migration_name = '20260101000000_broken'`,
    );
    const { applied } = await applyMigrations({ ...quietRun(database), migrationsDir });
    expect(applied).toEqual(["20260101000000_broken"]);
  });

  it("warns about a migration edited after it was applied and does not apply it again", TEST_TIMEOUT, async () => {
    migrationsDir = await createMigrationsDir({ "20260101000000_first": "CREATE TABLE first_table (id TEXT);" });
    await applyMigrations({ ...quietRun(database), migrationsDir });
    await writeFile(path.join(migrationsDir, "20260101000000_first", "migration.sql"), "CREATE TABLE other (id TEXT);");
    const { logger, entries } = createMemoryLogger();

    const { applied } = await applyMigrations({ executor: database.executor, migrationsDir, logger });

    expect(applied).toEqual([]);
    expect(entries).toEqual([
      expect.objectContaining({
        msg: expect.stringMatching(/^Warning: a migration was modified after it was applied/),
        migration: "20260101000000_first",
      }),
    ]);
  });

  it("concurrent runs apply each migration once", TEST_TIMEOUT, async () => {
    const runs = await Promise.all(
      [1, 2, 3].map(() => applyMigrations({ ...quietRun(database), migrationsDir: PROJECT_MIGRATIONS_DIR })),
    );

    const appliedByAnyRun = runs.flatMap((run) => run.applied);
    expect(appliedByAnyRun).toEqual(await listMigrationNames(PROJECT_MIGRATIONS_DIR));
    expect(await findMigrationRows(database.executor)).toHaveLength(appliedByAnyRun.length);
  });
});

function quietRun(database: TestDatabase) {
  return { executor: database.executor, logger: silentLogger };
}

/** A new empty database on the test server, reached through a pool (as the app does). */
async function openEmptyDatabase(): Promise<TestDatabase> {
  const { url, drop } = await createTestDatabaseUrl({ migrated: false });
  const pool = new pg.Pool({ connectionString: url, max: 5 });
  pool.on("error", () => undefined); // dropping the database ends idle connections on purpose
  return {
    executor: createPgExecutor(pool),
    close: async () => {
      await pool.end();
      await drop();
    },
  };
}

async function createMigrationsDir(scripts: Record<string, string>): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), "hookmail-migrations-"));
  for (const [name, sql] of Object.entries(scripts)) {
    await mkdir(path.join(dir, name));
    await writeFile(path.join(dir, name, "migration.sql"), sql);
  }
  await writeFile(path.join(dir, "migration_lock.toml"), 'provider = "postgresql"\n');
  return dir;
}

async function listMigrationNames(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  return entries
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
}

async function computeFileChecksum(file: string): Promise<string> {
  return createHash("sha256")
    .update(await readFile(file))
    .digest("hex");
}

async function listTables(executor: SqlExecutor): Promise<string[]> {
  const rows = await executor.query<{ table_name: string }>(
    `SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() ORDER BY table_name`,
  );
  return rows.map((row) => row.table_name);
}

async function findMigrationRows(executor: SqlExecutor) {
  return executor.query<{
    migration_name: string;
    checksum: string;
    is_finished: boolean;
    is_rolled_back: boolean;
    applied_steps_count: number;
    logs?: string | null;
  }>(
    `SELECT migration_name, checksum, finished_at IS NOT NULL AS is_finished,
            rolled_back_at IS NOT NULL AS is_rolled_back, applied_steps_count, logs
       FROM "_prisma_migrations" ORDER BY started_at, migration_name`,
  );
}
