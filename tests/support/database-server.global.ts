// Vitest's global setup: one PostgreSQL server for the run and one migrated template database on
// it, provided to every test file (tests/support/test-database.ts). Without DATABASE_URL the
// server is the embedded one the product itself runs (in a scratch DATA_DIR, stopped at the end);
// with DATABASE_URL, its server. Tests read process.env here on purpose: the choice is the test
// runner's, not the app's.

import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { migrateDatabase, openDatabase } from "@/modules/db/db";
import { startEmbeddedServer } from "@/modules/db/embedded-server";
import { silentLogger } from "@/modules/shared/logging/logger";
import { createDatabaseOnServer } from "./server-database";

export default async function setup(project: TestProject) {
  const teardown: (() => Promise<void>)[] = [];
  let adminUrl = process.env.DATABASE_URL;
  if (!adminUrl) {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "hookmail-test-server-"));
    const server = await startEmbeddedServer({
      dataDir,
      // A throwaway server: no waiting on the disk. The product's server keeps every default.
      settings: { fsync: "off", synchronous_commit: "off", full_page_writes: "off" },
    });
    adminUrl = server.adminUrlFor("postgres");
    teardown.push(async () => {
      await server.release();
      fs.rmSync(dataDir, { recursive: true, force: true });
    });
  }
  const template = await createDatabaseOnServer(adminUrl);
  const database = await openDatabase({ url: template.url, poolSize: 1 });
  try {
    await migrateDatabase(database, silentLogger);
  } finally {
    await database.close();
  }
  teardown.unshift(template.drop);
  project.provide("testDatabaseServer", { adminUrl, templateDatabase: template.name });

  return async () => {
    for (const step of teardown) await step().catch((error: unknown) => console.error("test database teardown:", error));
  };
}
