// Carries the database of an earlier Hookmail (PGlite, in DATA_DIR/pglite) over to PostgreSQL
// (docs/scaling.md: Upgrading from a version that ran PGlite). Both sides are first brought to the
// same migrations, so their tables have the same columns in the same order; then every row is
// copied, table by table in foreign-key order, in one transaction on the target: an import that
// fails leaves the target as it was. Rows travel as PostgreSQL's own text form of a row
// (`SELECT t::text`, read back with `unnest($1::table[])`), which carries every type (bytea, jsonb,
// arrays, timestamps) exactly, in batches of a bounded size. The inbox counts are not copied: the
// triggers of email_processing rebuild them from the copied processings.
//
// PGlite is a development dependency: it is installed by `npm install`, not by `npm ci --omit=dev`.

import type { PGlite } from "@electric-sql/pglite";
import { type Logger, silentLogger } from "@/modules/shared/logging/logger";
import { type Database, MIGRATIONS_DIR } from "./db";
import { applyMigrations } from "./migrations";
import type { PreparedStatement, SqlExecutor } from "./sql-executor";

/** Tables not copied: the migration history (each side keeps its own) and what triggers derive. */
const NOT_COPIED = new Set(["_prisma_migrations", "email_processing_count", "processing_event", "processing_event_follower"]);
/** Rows are read and written in batches of about this many bytes (PostgreSQL's size of the rows). */
const BATCH_BYTES = 8 * 1024 * 1024;

export class PgliteImportError extends Error {}

export type ImportedTable = { table: string; rows: number };

/** Opens the PGlite database in `directory` (read and migrated in place, as the earlier version would). */
export async function openPgliteDatabase(directory: string): Promise<{ executor: SqlExecutor; close: () => Promise<void> }> {
  let PGliteClass: typeof PGlite;
  try {
    ({ PGlite: PGliteClass } = await import("@electric-sql/pglite"));
  } catch {
    throw new PgliteImportError(
      "Reading a PGlite database needs the @electric-sql/pglite package, a development dependency: run `npm install` (without --omit=dev) first.",
    );
  }
  const db = await PGliteClass.create(directory);
  return { executor: createPgliteExecutor(db), close: () => db.close() };
}

/**
 * Copies every row of `source` (an earlier version's PGlite database) into `target`, which must
 * hold no account yet. Both are migrated first. Answers the rows copied per table.
 */
export async function importPgliteDatabase({
  source,
  target,
  logger = silentLogger,
}: {
  source: SqlExecutor;
  target: Database;
  logger?: Logger;
}): Promise<ImportedTable[]> {
  await applyMigrations({ executor: source, migrationsDir: MIGRATIONS_DIR, logger });
  await applyMigrations({ executor: target.executor, migrationsDir: MIGRATIONS_DIR, logger });

  const [accounts] = await target.executor.query<{ count: number }>('SELECT count(*)::int AS count FROM "user"');
  if (accounts && accounts.count > 0) {
    throw new PgliteImportError(
      `The target database already holds ${accounts.count} account(s): import into a database that has none (a fresh DATA_DIR, or an empty DATABASE_URL).`,
    );
  }

  const tables = await listTablesInCopyOrder(target.executor);
  return target.executor.transaction(async (transaction) => {
    const imported: ImportedTable[] = [];
    for (const table of tables) {
      const rows = await copyTable(source, transaction, table);
      await resetSequences(transaction, table);
      imported.push({ table, rows });
      logger.info(`${table}: ${rows} row(s)`);
    }
    return imported;
  });
}

/** The target's tables, each after the tables its foreign keys point at. */
async function listTablesInCopyOrder(executor: SqlExecutor): Promise<string[]> {
  const tables = await executor.query<{ name: string }>(
    "SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename",
  );
  const references = await executor.query<{ child: string; parent: string }>(
    `SELECT child.relname AS child, parent.relname AS parent
       FROM pg_constraint c
       JOIN pg_class child ON child.oid = c.conrelid
       JOIN pg_class parent ON parent.oid = c.confrelid
       JOIN pg_namespace n ON n.oid = child.relnamespace
      WHERE c.contype = 'f' AND n.nspname = 'public' AND child.oid <> parent.oid`,
  );
  const ordered: string[] = [];
  const placed = new Set<string>();
  const pending = tables.map((table) => table.name).filter((name) => !NOT_COPIED.has(name));
  while (pending.length > 0) {
    const index = pending.findIndex((name) =>
      references.every(
        (reference) => reference.child !== name || placed.has(reference.parent) || NOT_COPIED.has(reference.parent),
      ),
    );
    if (index === -1) throw new PgliteImportError(`The tables ${pending.join(", ")} reference each other in a cycle.`);
    const [name] = pending.splice(index, 1) as [string];
    ordered.push(name);
    placed.add(name);
  }
  return ordered;
}

async function copyTable(source: SqlExecutor, target: SqlExecutor, table: string): Promise<number> {
  const quoted = `"${table.replaceAll('"', '""')}"`;
  const rows = await source.query<{ id: string; size: number }>(
    `SELECT ctid::text AS id, pg_column_size(t.*)::int AS size FROM ${quoted} t`,
  );
  let copied = 0;
  for (const batch of batchesOf(rows)) {
    const texts = await source.query<{ row: string }>(`SELECT t::text AS row FROM ${quoted} t WHERE ctid = ANY($1::tid[])`, [
      batch,
    ]);
    await target.query(`INSERT INTO ${quoted} SELECT * FROM unnest($1::${quoted}[])`, [texts.map((text) => text.row)]);
    copied += texts.length;
  }
  const [count] = await target.query<{ count: number }>(`SELECT count(*)::int AS count FROM ${quoted}`);
  if (count?.count !== rows.length) {
    throw new PgliteImportError(`${table}: ${rows.length} row(s) in the PGlite database, ${count?.count ?? 0} after the copy.`);
  }
  return copied;
}

function* batchesOf(rows: { id: string; size: number }[]): Generator<string[]> {
  let batch: string[] = [];
  let bytes = 0;
  for (const row of rows) {
    if (batch.length > 0 && bytes + row.size > BATCH_BYTES) {
      yield batch;
      batch = [];
      bytes = 0;
    }
    batch.push(row.id);
    bytes += row.size;
  }
  if (batch.length > 0) yield batch;
}

/** Serial columns continue after the copied ids. */
async function resetSequences(executor: SqlExecutor, table: string) {
  const columns = await executor.query<{ column: string; sequence: string }>(
    `SELECT a.attname AS column, pg_get_serial_sequence(quote_ident($1), a.attname) AS sequence
       FROM pg_attribute a
      WHERE a.attrelid = quote_ident($1)::regclass AND a.attnum > 0 AND NOT a.attisdropped
        AND pg_get_serial_sequence(quote_ident($1), a.attname) IS NOT NULL`,
    [table],
  );
  for (const { column, sequence } of columns) {
    await executor.query(
      `SELECT setval($1::regclass, coalesce((SELECT max("${column.replaceAll('"', '""')}") FROM "${table.replaceAll('"', '""')}"), 0) + 1, false)`,
      [sequence],
    );
  }
}

type PgliteRunner = {
  query<T>(sql: string, params?: unknown[]): Promise<{ rows: T[] }>;
  exec(sql: string): Promise<unknown>;
};

function createPgliteExecutor(db: PGlite): SqlExecutor {
  const wrap = (runner: PgliteRunner, inTransaction: boolean): SqlExecutor => {
    const executor: SqlExecutor = {
      query: async <T>(sql: string | PreparedStatement, params?: unknown[]) =>
        (await runner.query<T>(typeof sql === "string" ? sql : sql.text, params)).rows,
      exec: async (sql: string) => {
        await runner.exec(sql);
      },
      // PGlite is one connection: it is its own dedicated session.
      withConnection: (fn) => fn(executor),
      transaction: (fn, options) =>
        inTransaction
          ? fn(executor)
          : db.transaction(async (transaction) => {
              if (options?.opening) await transaction.exec(options.opening);
              return fn(wrap(transaction, true));
            }),
    };
    return executor;
  };
  return wrap(db, false);
}
