// A fresh, migrated database for one test file: an in-memory PGlite, or a new database on the
// PostgreSQL server of DATABASE_URL (dropped afterwards) when the project runs on PostgreSQL.
// Tests read process.env here on purpose: the choice is the test runner's, not the app's.
import { randomBytes } from "node:crypto";
import pg from "pg";
import { migrateDatabase, openDatabase, type Database } from "@/modules/db/db";

export type TestDatabaseKind = "pglite" | "postgres";

export function getTestDatabaseKind(): TestDatabaseKind {
  return process.env.HOOKMAIL_TEST_DATABASE === "postgres" ? "postgres" : "pglite";
}

export async function createTestDatabase(kind: TestDatabaseKind = getTestDatabaseKind()): Promise<Database> {
  if (kind === "pglite") {
    const database = await openDatabase({ kind: "pglite", dataDir: null });
    await migrateDatabase(database, () => undefined);
    return database;
  }
  const serverUrl = process.env.DATABASE_URL;
  if (!serverUrl) throw new Error("HOOKMAIL_TEST_DATABASE=postgres needs DATABASE_URL");
  const { url, drop } = await createPostgresDatabase(serverUrl);
  const database = await openDatabase({ kind: "postgres", url, poolSize: 4 });
  await migrateDatabase(database, () => undefined);
  return {
    ...database,
    close: async () => {
      await database.close();
      await drop();
    },
  };
}

export async function createPostgresDatabase(serverUrl: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `hookmail_test_${randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const client = new pg.Client({ connectionString: serverUrl });
      await client.connect();
      try {
        await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await client.end();
      }
    },
  };
}
