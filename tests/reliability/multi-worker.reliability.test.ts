// Multi-worker reliability: two worker processes (each its own pool) poll one PostgreSQL database
// holding 1,000 due deliveries. Every delivery must reach the webhook exactly once — never two
// attempts of one webhook-id in flight at the same time, none skipped — and be recorded once as a
// success after a single attempt. The database is a fresh migrated one on the test run's server.
import { type ChildProcessByStdio, spawn } from "node:child_process";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import type { Readable, Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { type Database, openDatabase } from "@/modules/db/db";
import { createId } from "@/modules/shared/ids";
import { seedDatabase, seedDeliveriesOf, seedUser } from "@/tests/support/seed";
import { createTestDatabaseUrl } from "@/tests/support/test-database";
import { setUpReliabilityTest } from "./support/reliability-setup";

const DELIVERY_COUNT = 1000;
const CALLBACK_COUNT = 10;
const WORKER_NAMES = ["worker-a", "worker-b"] as const;
const COMPLETION_TIMEOUT_MS = 120_000;
const ROOT = path.resolve(import.meta.dirname, "../..");
const { cleanUps } = setUpReliabilityTest();

type IdStats = { requests: number; inFlight: number; maxInFlight: number; workers: string[] };

/** A loopback webhook that answers 200 after 1–20 ms and keeps, per webhook-id, the request count and in-flight peak. */
async function startCountingSink() {
  const stats = new Map<string, IdStats>();
  let inFlight = 0;
  let maxInFlight = 0;
  const server = http.createServer((request, response) => {
    const id = String(request.headers["webhook-id"] ?? "");
    const worker = String(request.headers["x-test-worker"] ?? "unknown");
    const entry = stats.get(id) ?? { requests: 0, inFlight: 0, maxInFlight: 0, workers: [] };
    stats.set(id, entry);
    entry.requests += 1;
    entry.inFlight += 1;
    entry.maxInFlight = Math.max(entry.maxInFlight, entry.inFlight);
    entry.workers.push(worker);
    inFlight += 1;
    maxInFlight = Math.max(maxInFlight, inFlight);
    let isDone = false;
    const done = () => {
      if (isDone) return;
      isDone = true;
      entry.inFlight -= 1;
      inFlight -= 1;
    };
    response.on("close", done);
    request.resume();
    request.on("end", () => {
      setTimeout(
        () => {
          response.writeHead(200, { "content-type": "text/plain" });
          response.end("ok", done);
        },
        1 + Math.floor(Math.random() * 20),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    stats,
    maxInFlight: () => maxInFlight,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

async function seedDueDeliveries(database: Database, webhookUrl: string): Promise<string[]> {
  const now = new Date();
  const { id: userId } = await seedUser(database, { name: "Reliability" });
  const { emailCallbacks } = await seedDatabase(database, {
    emailCallbacks: Array.from({ length: CALLBACK_COUNT }, (_, index) => ({
      userId,
      username: `multi-${index}`,
      webhookUrl,
      webhookSecret: "reliability-secret-123456",
    })),
  });
  const callbackIds = emailCallbacks.map((callback) => callback.id);
  const rows = Array.from({ length: DELIVERY_COUNT }, (_, index) => {
    const id = createId("emailProcessing");
    const emailCallbackId = callbackIds[index % CALLBACK_COUNT] as string;
    const payload = JSON.stringify({
      type: "email.received",
      timestamp: now.toISOString(),
      data: {
        id,
        emailCallbackId,
        address: `multi-${index % CALLBACK_COUNT}@hookmail.test`,
        subject: `Mail ${index}`,
        text: "hello",
        attachments: [],
      },
    });
    return {
      id,
      emailCallbackId,
      fromAddress: "bob@example.org",
      subject: `Mail ${index}`,
      recipient: `multi-${index % CALLBACK_COUNT}@hookmail.test`,
      status: "pending",
      payload: new Uint8Array(Buffer.from(payload, "utf8")),
      rawMessage: new Uint8Array(Buffer.from(`Subject: Mail ${index}\r\n\r\nhello\r\n`)),
      nextAttemptAt: now,
      attemptCount: 0,
      error: null,
      webhookResponseStatusCode: null,
      deliveredAt: null,
    };
  });
  await database.prisma.emailProcessing.createMany({ data: rows });
  await seedDeliveriesOf(database, rows);
  return rows.map((row) => row.id);
}

type WorkerChild = ChildProcessByStdio<Writable, Readable, null>;

function startWorkerProcess(url: string, name: string): Promise<WorkerChild> {
  const child = spawn(process.execPath, ["--import", "tsx", "tests/reliability/worker-process.ts", url, name, "100"], {
    cwd: ROOT,
    stdio: ["pipe", "pipe", "inherit"],
  });
  cleanUps.push(() => stopWorkerProcess(child));
  return new Promise((resolve, reject) => {
    let output = "";
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes("ready")) {
        child.stdout.off("data", onData);
        resolve(child);
      }
    };
    child.stdout.on("data", onData);
    child.once("exit", (code) => reject(new Error(`${name} exited with ${code} before it was ready`)));
  });
}

function stopWorkerProcess(child: WorkerChild): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const killTimer = setTimeout(() => child.kill("SIGKILL"), 10_000);
    child.once("exit", () => {
      clearTimeout(killTimer);
      resolve();
    });
    child.kill("SIGTERM");
  });
}

async function waitForAllSuccess(database: Database, startedAt: number): Promise<number> {
  for (;;) {
    const done = await database.prisma.emailProcessing.count({ where: { status: "success" } });
    if (done >= DELIVERY_COUNT) return done;
    if (Date.now() - startedAt > COMPLETION_TIMEOUT_MS) return done;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

describe("multi-worker delivery (two processes, one PostgreSQL)", () => {
  it(
    `delivers each of ${DELIVERY_COUNT} due deliveries exactly once, never concurrently, none skipped`,
    async () => {
      const sink = await startCountingSink();
      cleanUps.push(() => sink.close());
      const { url, drop } = await createTestDatabaseUrl();
      cleanUps.push(drop);
      const database = await openDatabase({ url, poolSize: 2 });
      cleanUps.push(() => database.close());
      const ids = await seedDueDeliveries(database, sink.url);

      const workers = await Promise.all(WORKER_NAMES.map((name) => startWorkerProcess(url, name)));
      const startedAt = Date.now();
      for (const worker of workers) worker.stdin.write("go\n");

      const done = await waitForAllSuccess(database, startedAt);
      const elapsedMs = Date.now() - startedAt;
      await Promise.all(workers.map((worker) => stopWorkerProcess(worker)));

      const split = new Map<string, number>(WORKER_NAMES.map((name) => [name, 0]));
      for (const entry of sink.stats.values()) {
        for (const worker of entry.workers) split.set(worker, (split.get(worker) ?? 0) + 1);
      }
      const requestCount = [...sink.stats.values()].reduce((sum, entry) => sum + entry.requests, 0);
      const maxInFlightPerId = Math.max(0, ...[...sink.stats.values()].map((entry) => entry.maxInFlight));
      console.log(
        [
          `multi-worker: ${done}/${DELIVERY_COUNT} success in ${elapsedMs} ms (${((done / elapsedMs) * 1000).toFixed(0)} deliveries/s)`,
          `  requests at the sink: ${requestCount}, distinct webhook-ids: ${sink.stats.size}`,
          `  max in flight per webhook-id: ${maxInFlightPerId}, max in flight overall: ${sink.maxInFlight()}`,
          `  split: ${[...split].map(([name, count]) => `${name} ${count} (${((count / Math.max(1, requestCount)) * 100).toFixed(1)}%)`).join(", ")}`,
        ].join("\n"),
      );

      expect(done).toBe(DELIVERY_COUNT);
      // None skipped: every seeded id reached the sink, and nothing else did.
      expect(sink.stats.size).toBe(DELIVERY_COUNT);
      expect([...sink.stats.keys()].sort()).toEqual([...ids].sort());
      // None delivered twice, at the same time or one after the other.
      expect(maxInFlightPerId).toBe(1);
      expect([...sink.stats.entries()].filter(([, entry]) => entry.requests !== 1)).toEqual([]);
      expect(requestCount).toBe(DELIVERY_COUNT);

      // Recorded exactly once, as a success after a single attempt.
      const processings = await database.prisma.emailProcessing.findMany({
        select: { id: true, status: true, attemptCount: true, _count: { select: { deliveryAttempts: true } } },
      });
      expect(processings).toHaveLength(DELIVERY_COUNT);
      const wrong = processings.filter(
        (row) => row.status !== "success" || row.attemptCount !== 1 || row._count.deliveryAttempts !== 1,
      );
      expect(wrong).toEqual([]);
      // Each mail's one delivery too, its claim released.
      const deliveries = await database.prisma.delivery.findMany({
        select: { status: true, attemptCount: true, lockedUntil: true },
      });
      expect(deliveries).toHaveLength(DELIVERY_COUNT);
      expect(deliveries.filter((row) => row.status !== "success" || row.attemptCount !== 1 || row.lockedUntil !== null)).toEqual(
        [],
      );
      const attempts = await database.prisma.deliveryAttempt.count({ where: { statusCode: 200 } });
      expect(attempts).toBe(DELIVERY_COUNT);

      // Both processes took part.
      for (const name of WORKER_NAMES) expect(split.get(name) ?? 0).toBeGreaterThan(0);
    },
    COMPLETION_TIMEOUT_MS + 60_000,
  );
});
