// Starts the app as `npm start` does, on a database of its own (a fresh DATA_DIR for PGlite, or a
// fresh database on the PostgreSQL server of DATABASE_URL, dropped on exit), with its outgoing
// mail sent over real SMTP to a loopback sink whose catch the tests read over HTTP
// (GET http://127.0.0.1:$E2E_SINK_HTTP_PORT/mails?to=<address>).
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { startSmtpSink } from "../../support/smtp-sink";
import { createPostgresDatabase } from "../../support/test-database";

const environment = process.env as Record<string, string | undefined>;
environment.NODE_ENV ??= "production";
environment.EMAIL_DOMAINS ??= "hookmail.test";

const sink = await startSmtpSink();
environment.SMTP_URL = sink.url;
environment.MAIL_FROM = "Hookmail <no-reply@hookmail.test>";
const sinkApi = http.createServer((request, response) => {
  const url = new URL(request.url ?? "/", "http://127.0.0.1");
  const to = url.searchParams.get("to")?.toLowerCase();
  const mails = sink.messages.filter((mail) => !to || mail.envelopeTo.some((address) => address.toLowerCase() === to));
  response.setHeader("Content-Type", "application/json");
  response.end(JSON.stringify(mails));
});
await new Promise<void>((resolve) => sinkApi.listen(Number(environment.E2E_SINK_HTTP_PORT), "127.0.0.1", resolve));

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "hookmail-e2e-"));
environment.DATA_DIR = dataDir;
let dropDatabase: (() => Promise<void>) | undefined;
if (environment.DATABASE_URL) {
  const database = await createPostgresDatabase(environment.DATABASE_URL);
  environment.DATABASE_URL = database.url;
  dropDatabase = database.drop;
}

async function cleanUp() {
  sinkApi.close();
  await sink.close().catch(() => undefined);
  await dropDatabase?.().catch(() => undefined);
  fs.rmSync(dataDir, { recursive: true, force: true });
}

const { startHookmail } = await import("../../../modules/server/start");
await startHookmail({ projectDir: path.resolve(import.meta.dirname, "../../.."), afterShutdown: cleanUp });
