// Throwaway databases on a PostgreSQL server, for tests and benchmarks alike (no test runner needed):
// created empty or as a copy of a template, dropped with their connections.
import { randomBytes } from "node:crypto";
import pg from "pg";

/** A new database on the server of `serverUrl` (empty, or a copy of `template`), and how to drop it. */
export async function createDatabaseOnServer(
  serverUrl: string,
  template?: string,
  { prefix = "hookmail_test" }: { prefix?: string } = {},
): Promise<{ name: string; url: string; drop: () => Promise<void> }> {
  const name = `${prefix}_${randomBytes(6).toString("hex")}`;
  await runOnServer(serverUrl, `CREATE DATABASE ${name}${template ? ` TEMPLATE ${template}` : ""}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    name,
    url: url.toString(),
    drop: () => runOnServer(serverUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
  };
}

async function runOnServer(serverUrl: string, sql: string) {
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(sql);
  } finally {
    await admin.end();
  }
}
