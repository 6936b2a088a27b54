// Test databases, all on one PostgreSQL server for the whole run: the embedded server that the
// global setup (tests/support/database-server.global.ts) starts, or the server of DATABASE_URL when
// it is set. Every test file gets a fresh database of its own, copied from a template the global
// setup migrated once (CREATE DATABASE … TEMPLATE), and dropped when the file closes it.
import { inject } from "vitest";
import { type Database, openDatabase } from "@/modules/db/db";
import { createDatabaseOnServer } from "./server-database";

export type TestDatabaseServer = {
  /** A connection string to the server's maintenance database (`postgres`), for CREATE/DROP DATABASE. */
  adminUrl: string;
  /** The migrated template every fresh database is copied from. */
  templateDatabase: string;
};

declare module "vitest" {
  export interface ProvidedContext {
    testDatabaseServer: TestDatabaseServer;
  }
}

export function getTestDatabaseServer(): TestDatabaseServer {
  return inject("testDatabaseServer");
}

/** A fresh migrated database of its own, dropped on close. */
export async function createTestDatabase({ poolSize = 4 }: { poolSize?: number } = {}): Promise<Database> {
  const { url, drop } = await createTestDatabaseUrl();
  const database = await openDatabase({ url, poolSize });
  return {
    ...database,
    close: async () => {
      await database.close();
      await drop();
    },
  };
}

/**
 * A fresh database and its connection string, for tests that open several connections to it or
 * hand it to another process: migrated (a copy of the template), or empty for the migration tests.
 */
export async function createTestDatabaseUrl({ migrated = true }: { migrated?: boolean } = {}): Promise<{
  url: string;
  drop: () => Promise<void>;
}> {
  const { adminUrl, templateDatabase } = getTestDatabaseServer();
  return createDatabaseOnServer(adminUrl, migrated ? templateDatabase : undefined);
}

/**
 * Two separate connection pools to one fresh migrated database, as two processes have (the second
 * stands for another worker); `close` closes both and drops the database.
 */
export async function createTestDatabasePair(): Promise<{
  database: Database;
  otherDatabase: Database;
  close: () => Promise<void>;
}> {
  const { url, drop } = await createTestDatabaseUrl();
  const database = await openDatabase({ url, poolSize: 4 });
  const otherDatabase = await openDatabase({ url, poolSize: 4 });
  return {
    database,
    otherDatabase,
    close: async () => {
      await otherDatabase.close();
      await database.close();
      await drop();
    },
  };
}
