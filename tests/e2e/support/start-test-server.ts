// Starts the app as `npm start` does, on a database of its own: a fresh DATA_DIR for the embedded
// PGlite, or a fresh database on the PostgreSQL server of DATABASE_URL (dropped on exit).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createPostgresDatabase } from "../../support/test-database";

const environment = process.env as Record<string, string | undefined>;
environment.NODE_ENV ??= "production";
environment.EMAIL_DOMAINS ??= "hookmail.test";

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "hookmail-e2e-"));
environment.DATA_DIR = dataDir;
let dropDatabase: (() => Promise<void>) | undefined;
if (environment.DATABASE_URL) {
  const database = await createPostgresDatabase(environment.DATABASE_URL);
  environment.DATABASE_URL = database.url;
  dropDatabase = database.drop;
}

async function cleanUp() {
  await dropDatabase?.().catch(() => undefined);
  fs.rmSync(dataDir, { recursive: true, force: true });
}
const { startHookmail } = await import("../../../modules/server/start");
await startHookmail({ projectDir: path.resolve(import.meta.dirname, "../../.."), afterShutdown: cleanUp });
