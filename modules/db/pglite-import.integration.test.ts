// Carrying an earlier version's PGlite database over to PostgreSQL (docs/scaling.md: Upgrading from
// a version that ran PGlite): a PGlite database one migration behind, as the earlier version left
// it, is imported into a fresh database of the test server. Every row arrives with every value
// exact (binary messages, arrays, timestamps, unicode), the inbox counts are rebuilt, and a target
// that already has accounts is refused without a change.

import { randomBytes } from "node:crypto";
import { cp, mkdtemp, readdir, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type Database, MIGRATIONS_DIR, openDatabase } from "@/modules/db/db";
import { applyMigrations } from "@/modules/db/migrations";
import { silentLogger } from "@/modules/shared/logging/logger";
import { createTestDatabaseUrl } from "@/tests/support/test-database";
import { importPgliteDatabase, openPgliteDatabase, PgliteImportError } from "./pglite-import";
import type { SqlExecutor } from "./sql-executor";

const TIMEOUT = { timeout: 120_000 };
const RAW = randomBytes(3 * 1024 * 1024);
const PAYLOAD = Buffer.from(JSON.stringify({ subject: "Ça marche — 日本語", text: 'a\\b "quoted" (parens) {braces}' }));
const PROCESSINGS = 40;

let scratch: string;
let source: { executor: SqlExecutor; close: () => Promise<void> };
let target: Database;
let dropTarget: () => Promise<void>;

beforeEach(async () => {
  scratch = await mkdtemp(path.join(os.tmpdir(), "hookmail-pglite-import-"));
  source = await openPgliteDatabase(path.join(scratch, "pglite"));
  await migrateToEarlierVersion(source.executor);
  await seed(source.executor);
  const { url, drop } = await createTestDatabaseUrl({ migrated: false });
  target = await openDatabase({ url, poolSize: 2 });
  dropTarget = drop;
}, TIMEOUT.timeout);

afterEach(async () => {
  await source?.close();
  await target?.close();
  await dropTarget?.();
  await rm(scratch, { recursive: true, force: true });
});

describe("importing an earlier version's PGlite database", () => {
  it("copies every row of every table with every value exact", TIMEOUT, async () => {
    const imported = await importPgliteDatabase({ source: source.executor, target });

    expect(Object.fromEntries(imported.map(({ table, rows }) => [table, rows]))).toEqual({
      account: 1,
      action_rate_limit: 0,
      api_key: 1,
      delivery_attempt: PROCESSINGS,
      email_callback: 2,
      email_processing: PROCESSINGS,
      mailgun_token: 0,
      rate_limit: 0,
      session: 1,
      user: 1,
      verification: 0,
    });
    for (const table of imported.map((entry) => entry.table)) {
      expect({ table, rows: await dumpTable(target.executor, table) }).toEqual({
        table,
        rows: await dumpTable(source.executor, table),
      });
    }
    const [processing] = await target.executor.query<{ rawMessage: Buffer; payload: Buffer }>(
      `SELECT "rawMessage", "payload" FROM email_processing WHERE id = 'ep_0'`,
    );
    expect(Buffer.compare(processing!.rawMessage, RAW)).toBe(0);
    expect(processing!.payload.toString()).toBe(PAYLOAD.toString());
  });

  it("rebuilds the inbox counts from the copied processings", TIMEOUT, async () => {
    await importPgliteDatabase({ source: source.executor, target });

    const counts = await target.executor.query<{ emailCallbackId: string; total: number }>(
      `SELECT "emailCallbackId", sum(delta)::int AS total FROM email_processing_count GROUP BY 1 ORDER BY 1`,
    );
    expect(counts).toEqual([
      { emailCallbackId: "ec_a", total: PROCESSINGS / 2 },
      { emailCallbackId: "ec_b", total: PROCESSINGS / 2 },
    ]);
  });

  it("refuses a target that already has accounts, and changes nothing in it", TIMEOUT, async () => {
    await applyMigrations({ executor: target.executor, migrationsDir: MIGRATIONS_DIR, logger: silentLogger });
    await target.executor.query(
      `INSERT INTO "user" (id, name, email, "updatedAt") VALUES ('u_there', 'There', 'there@example.com', now())`,
    );

    await expect(importPgliteDatabase({ source: source.executor, target })).rejects.toThrow(PgliteImportError);
    await expect(importPgliteDatabase({ source: source.executor, target })).rejects.toThrow("already holds 1 account(s)");
    expect(await target.executor.query(`SELECT id FROM "user"`)).toEqual([{ id: "u_there" }]);
    expect(await target.executor.query(`SELECT id FROM email_callback`)).toEqual([]);
  });
});

/** Every migration but the last, as a database of the earlier version stands. */
async function migrateToEarlierVersion(executor: SqlExecutor) {
  const earlier = path.join(scratch, "migrations");
  const names = (await readdir(MIGRATIONS_DIR)).filter((name) => !name.endsWith(".toml")).sort();
  for (const name of names.slice(0, -1)) await cp(path.join(MIGRATIONS_DIR, name), path.join(earlier, name), { recursive: true });
  await applyMigrations({ executor, migrationsDir: earlier, logger: silentLogger });
}

async function seed(executor: SqlExecutor) {
  await executor.exec(`
    INSERT INTO "user" (id, name, email, "emailVerified", "planId", locale, "createdAt", "updatedAt")
      VALUES ('u_1', 'Zoë O''Brien', 'zoe@example.com', true, 'pro', 'fr', '2026-01-02 03:04:05.678', '2026-01-02 03:04:05.678');
    INSERT INTO session (id, "expiresAt", token, "createdAt", "updatedAt", "userId")
      VALUES ('s_1', '2027-01-01 00:00:00', 'token-1', now(), now(), 'u_1');
    INSERT INTO account (id, "accountId", "providerId", "userId", password, "createdAt", "updatedAt")
      VALUES ('a_1', 'u_1', 'credential', 'u_1', 'scrypt:hash', now(), now());
    INSERT INTO email_callback (id, "userId", domain, username, "webhookUrl", "webhookSecret", "allowedOrigins", "updatedAt")
      VALUES ('ec_a', 'u_1', 'hookmail.test', 'alpha', 'https://example.com/hook', 'whsec-a', ARRAY['a@example.com', 'b,"c"@example.com'], now()),
             ('ec_b', 'u_1', 'hookmail.test', 'beta', 'https://example.com/hook2', NULL, ARRAY[]::text[], now());
    INSERT INTO api_key (id, "userId", name, prefix, "hashedKey") VALUES ('k_1', 'u_1', 'CI key', 'hm_live_ab', 'sha256:xyz');
  `);
  for (let index = 0; index < PROCESSINGS; index += 1) {
    await executor.query(
      `INSERT INTO email_processing (id, "emailCallbackId", "fromAddress", subject, recipient, status, "rawMessage", payload, "createdAt", "updatedAt")
       VALUES ($1, $2, 'bob@example.org', $3, 'alpha@hookmail.test', 'success', $4, $5, $6, $6)`,
      [
        `ep_${index}`,
        index % 2 === 0 ? "ec_a" : "ec_b",
        `Sujet n°${index} \\ "tab"\t`,
        index === 0 ? RAW : null,
        PAYLOAD,
        new Date(Date.UTC(2026, 0, 1, index)),
      ],
    );
    await executor.query(
      `INSERT INTO delivery_attempt (id, "emailProcessingId", "statusCode", "durationMs", "responseBody") VALUES ($1, $2, 200, 12, 'ok')`,
      [`da_${index}`, `ep_${index}`],
    );
  }
}

/** A table's rows as text, in a stable order: equal on both sides when every value is. */
async function dumpTable(executor: SqlExecutor, table: string): Promise<string[]> {
  const rows = await executor.query<{ row: string }>(`SELECT t::text AS row FROM "${table}" t`);
  return rows.map((row) => row.row).sort();
}
