// Applies the SQL migrations in prisma/migrations/<timestamp>_<name>/migration.sql, in order, and records
// them in Prisma's own `_prisma_migrations` table, so `prisma migrate deploy` stays interchangeable with
// this runner. Each migration runs in its own transaction; the whole run holds Prisma Migrate's advisory
// lock, so processes starting together against one PostgreSQL apply each migration once.

import { createHash, randomUUID } from "node:crypto";
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { describeError } from "@/modules/shared/errors/describe-error";
import { type Logger, silentLogger } from "@/modules/shared/logging/logger";

import type { SqlExecutor } from "./sql-executor";

/** Prisma Migrate's own lock key: this runner and `prisma migrate deploy` also exclude each other. */
const MIGRATIONS_ADVISORY_LOCK_KEY = 72707369;
const MIGRATION_SCRIPT_FILE = "migration.sql";
const MIGRATIONS_TABLE = "_prisma_migrations";

/** The DDL Prisma's schema engine uses for PostgreSQL (sql-schema-connector, flavour/postgres.rs). */
const CREATE_MIGRATIONS_TABLE_SQL = `CREATE TABLE ${MIGRATIONS_TABLE} (
    id                      VARCHAR(36) PRIMARY KEY NOT NULL,
    checksum                VARCHAR(64) NOT NULL,
    finished_at             TIMESTAMPTZ,
    migration_name          VARCHAR(255) NOT NULL,
    logs                    TEXT,
    rolled_back_at          TIMESTAMPTZ,
    started_at              TIMESTAMPTZ NOT NULL DEFAULT now(),
    applied_steps_count     INTEGER NOT NULL DEFAULT 0
);`;

export const MIGRATION_ERROR_CODES = {
  FAILED: "db.migration_failed",
  BLOCKED_BY_FAILED: "db.migration_blocked_by_failed",
  SCRIPT_MISSING: "db.migration_script_missing",
} as const;

export type MigrationErrorCode = (typeof MIGRATION_ERROR_CODES)[keyof typeof MIGRATION_ERROR_CODES];

export class MigrationError extends Error {
  readonly code: MigrationErrorCode;
  readonly migrationName: string;

  constructor(input: { code: MigrationErrorCode; migrationName: string; message: string; cause?: unknown }) {
    super(input.message, { cause: input.cause });
    this.name = "MigrationError";
    this.code = input.code;
    this.migrationName = input.migrationName;
  }
}

export type ApplyMigrationsInput = {
  executor: SqlExecutor;
  migrationsDir: string;
  /** Told each applied migration (info) and each mismatch of the history (warn). */
  logger?: Logger;
};

type MigrationScript = { name: string; sql: string; checksum: string };

type MigrationRecord = {
  id: string;
  migration_name: string;
  checksum: string;
  started_at: Date;
  finished_at: Date | null;
  rolled_back_at: Date | null;
  logs: string | null;
};

export async function applyMigrations({
  executor,
  migrationsDir,
  logger = silentLogger,
}: ApplyMigrationsInput): Promise<{ applied: string[] }> {
  const migrations = await readMigrationScripts(migrationsDir);
  return executor.withConnection((connection) =>
    withMigrationsLock(connection, logger, () => applyPendingMigrations({ connection, migrations, migrationsDir, logger })),
  );
}

async function applyPendingMigrations(input: {
  connection: SqlExecutor;
  migrations: MigrationScript[];
  migrationsDir: string;
  logger: Logger;
}): Promise<{ applied: string[] }> {
  const { connection, migrations, migrationsDir, logger } = input;
  await ensureMigrationsTable(connection);
  const records = await findMigrationRecords(connection);
  ensureNoUnresolvedFailure(records, migrationsDir);
  warnAboutHistoryMismatches({ migrations, records, logger });

  const finishedNames = new Set(records.filter(isFinished).map((record) => record.migration_name));
  const applied: string[] = [];
  for (const migration of migrations.filter((candidate) => !finishedNames.has(candidate.name))) {
    await applyMigration(connection, migration);
    logger.info({ migration: migration.name }, "Applied a migration");
    applied.push(migration.name);
  }
  return { applied };
}

/** The migration directories' names in the order they apply (none when the folder is missing). */
export async function listMigrationNames(migrationsDir: string): Promise<string[]> {
  const entries = await readdir(migrationsDir, { withFileTypes: true }).catch((error: unknown) => {
    if (isFileNotFound(error)) return [];
    throw error;
  });
  return entries
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
}

async function readMigrationScripts(migrationsDir: string): Promise<MigrationScript[]> {
  const names = await listMigrationNames(migrationsDir);
  return Promise.all(names.map((name) => readMigrationScript(migrationsDir, name)));
}

async function readMigrationScript(migrationsDir: string, name: string): Promise<MigrationScript> {
  const scriptPath = path.join(migrationsDir, name, MIGRATION_SCRIPT_FILE);
  const content = await readFile(scriptPath).catch((error: unknown) => {
    if (!isFileNotFound(error)) throw error;
    throw new MigrationError({
      code: MIGRATION_ERROR_CODES.SCRIPT_MISSING,
      migrationName: name,
      message: `Migration ${name} has no ${MIGRATION_SCRIPT_FILE} (expected ${scriptPath})`,
    });
  });
  return { name, sql: content.toString("utf8"), checksum: computeChecksum(content) };
}

/** Prisma's checksum: the SHA-256 of the script's bytes, in lowercase hex. */
function computeChecksum(content: Buffer): string {
  return createHash("sha256").update(content).digest("hex");
}

async function withMigrationsLock<T>(connection: SqlExecutor, logger: Logger, fn: () => Promise<T>): Promise<T> {
  const [attempt] = await connection.query<{ locked: boolean }>(
    `SELECT pg_try_advisory_lock(${MIGRATIONS_ADVISORY_LOCK_KEY}) AS locked`,
  );
  if (!attempt?.locked) {
    logger.info("Another process is applying migrations; waiting for it to finish");
    await connection.query(`SELECT pg_advisory_lock(${MIGRATIONS_ADVISORY_LOCK_KEY})`);
  }
  try {
    return await fn();
  } finally {
    await connection.query(`SELECT pg_advisory_unlock(${MIGRATIONS_ADVISORY_LOCK_KEY})`);
  }
}

async function ensureMigrationsTable(connection: SqlExecutor): Promise<void> {
  const [table] = await connection.query<{ present: boolean }>(
    `SELECT to_regclass('${MIGRATIONS_TABLE}') IS NOT NULL AS present`,
  );
  if (!table?.present) await connection.exec(CREATE_MIGRATIONS_TABLE_SQL);
}

async function findMigrationRecords(connection: SqlExecutor): Promise<MigrationRecord[]> {
  return connection.query<MigrationRecord>(
    `SELECT id, migration_name, checksum, started_at, finished_at, rolled_back_at, logs
       FROM ${MIGRATIONS_TABLE}
      ORDER BY started_at, migration_name`,
  );
}

function isFinished(record: MigrationRecord): boolean {
  return record.finished_at !== null && record.rolled_back_at === null;
}

function isUnresolvedFailure(record: MigrationRecord): boolean {
  return record.finished_at === null && record.rolled_back_at === null;
}

/** Like Prisma's P3009: nothing is applied while a failed migration is not marked as rolled back. */
function ensureNoUnresolvedFailure(records: MigrationRecord[], migrationsDir: string): void {
  const failure = records.find(isUnresolvedFailure);
  if (!failure) return;
  const name = failure.migration_name;
  throw new MigrationError({
    code: MIGRATION_ERROR_CODES.BLOCKED_BY_FAILED,
    migrationName: name,
    message: [
      `Migration ${name} failed on an earlier run (started ${formatTimestamp(failure.started_at)}) ` +
        `and is not marked as rolled back, so no migration was applied.`,
      `Its error: ${failure.logs ?? "(not recorded)"}`,
      `This runner applies each migration in a transaction, so the failed attempt left no changes ` +
        `(if \`prisma migrate deploy\` ran it, check for partial changes first). To resolve:`,
      `  1. fix ${path.join(migrationsDir, name, MIGRATION_SCRIPT_FILE)};`,
      `  2. mark the failed attempt as rolled back, with \`npx prisma migrate resolve --rolled-back ${name}\` or in SQL:`,
      `     UPDATE "${MIGRATIONS_TABLE}" SET rolled_back_at = now() ` +
        `WHERE migration_name = '${name}' AND finished_at IS NULL AND rolled_back_at IS NULL;`,
      `  3. start again: the migration is then applied anew.`,
    ].join("\n"),
  });
}

function warnAboutHistoryMismatches(input: { migrations: MigrationScript[]; records: MigrationRecord[]; logger: Logger }): void {
  const { migrations, records, logger } = input;
  const scriptsByName = new Map(migrations.map((migration) => [migration.name, migration]));
  for (const record of records.filter(isFinished)) {
    const script = scriptsByName.get(record.migration_name);
    if (!script) {
      logger.warn(
        { migration: record.migration_name },
        "Warning: a migration applied to the database is missing from the migrations directory",
      );
    } else if (script.checksum !== record.checksum) {
      logger.warn(
        { migration: record.migration_name, databaseChecksum: record.checksum, diskChecksum: script.checksum },
        "Warning: a migration was modified after it was applied; it is not applied again. Revert the edit and create a new migration instead.",
      );
    }
  }
}

async function applyMigration(connection: SqlExecutor, migration: MigrationScript): Promise<void> {
  const id = randomUUID();
  let startedAt: Date | null = null;
  await connection.exec("BEGIN");
  try {
    const [started] = await connection.query<{ started_at: Date }>(
      `INSERT INTO ${MIGRATIONS_TABLE} (id, checksum, migration_name, applied_steps_count)
       VALUES ($1, $2, $3, 0) RETURNING started_at`,
      [id, migration.checksum, migration.name],
    );
    startedAt = started?.started_at ?? null;
    await connection.exec(migration.sql);
    await connection.query(
      `UPDATE ${MIGRATIONS_TABLE} SET finished_at = clock_timestamp(), applied_steps_count = 1 WHERE id = $1`,
      [id],
    );
    await connection.exec("COMMIT");
  } catch (error) {
    await connection.exec("ROLLBACK");
    const reason = describeError(error);
    await recordFailedMigration(connection, { id, migration, startedAt, logs: reason });
    throw new MigrationError({
      code: MIGRATION_ERROR_CODES.FAILED,
      migrationName: migration.name,
      message: `Migration ${migration.name} failed: ${reason}`,
      cause: error,
    });
  }
}

/** Prisma's record of a failed migration: finished_at null, the error in logs. Written after the rollback. */
async function recordFailedMigration(
  connection: SqlExecutor,
  input: { id: string; migration: MigrationScript; startedAt: Date | null; logs: string },
): Promise<void> {
  await connection.query(
    `INSERT INTO ${MIGRATIONS_TABLE} (id, checksum, migration_name, logs, started_at, applied_steps_count)
     VALUES ($1, $2, $3, $4, COALESCE($5::timestamptz, now()), 0)`,
    [input.id, input.migration.checksum, input.migration.name, input.logs, input.startedAt],
  );
}

function formatTimestamp(value: Date | string): string {
  return value instanceof Date ? value.toISOString() : value;
}

export function isFileNotFound(error: unknown): boolean {
  return error instanceof Error && "code" in error && error.code === "ENOENT";
}
