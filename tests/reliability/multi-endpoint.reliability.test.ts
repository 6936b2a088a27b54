// Exactly once per endpoint, through a crash: 400 mails to addresses with two endpoints each (800
// deliveries), two worker processes, one of them killed with SIGKILL mid-run and a third started. Every
// delivery must end recorded once as a success, each mail reaching each of its endpoints; the receiver
// may see a delivery twice only when the killed worker had sent it and died before recording the
// answer (no sender can know whether such a request arrived), and never two attempts of one delivery
// at once.
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

const MAIL_COUNT = 400;
const CALLBACK_COUNT = 8;
const LEASE_MS = 12_000;
const COMPLETION_TIMEOUT_MS = 150_000;
const ROOT = path.resolve(import.meta.dirname, "../..");
const { cleanUps } = setUpReliabilityTest();

type Arrival = { worker: string; inFlight: number };

/** A loopback receiver with two paths (the two endpoints); per `<path> <webhook-id>`, every request's worker and the in-flight peak. */
async function startSink() {
  const arrivals = new Map<string, Arrival[]>();
  const inFlight = new Map<string, number>();
  let maxInFlight = 0;
  const server = http.createServer((request, response) => {
    const key = `${request.url} ${String(request.headers["webhook-id"] ?? "")}`;
    const now = (inFlight.get(key) ?? 0) + 1;
    inFlight.set(key, now);
    maxInFlight = Math.max(maxInFlight, now);
    arrivals.set(key, [...(arrivals.get(key) ?? []), { worker: String(request.headers["x-test-worker"]), inFlight: now }]);
    let isDone = false;
    response.on("close", () => {
      if (isDone) return;
      isDone = true;
      inFlight.set(key, (inFlight.get(key) ?? 1) - 1);
    });
    request.resume();
    request.on("end", () => setTimeout(() => response.end("ok"), 5 + Math.floor(Math.random() * 30)));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (route: string) => `http://127.0.0.1:${port}${route}`,
    arrivals,
    maxInFlight: () => maxInFlight,
    requestCount: () => [...arrivals.values()].reduce((sum, list) => sum + list.length, 0),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** The mails, each due now with a delivery to each of its address's two endpoints. */
async function seedMails(database: Database, sink: Awaited<ReturnType<typeof startSink>>) {
  const now = new Date();
  const { id: userId } = await seedUser(database, { name: "Reliability" });
  const { emailCallbacks } = await seedDatabase(database, {
    emailCallbacks: Array.from({ length: CALLBACK_COUNT }, (_, index) => ({
      userId,
      username: `two-${index}`,
      webhookUrl: sink.url("/app"),
      webhookSecret: "reliability-secret-123456",
    })),
  });
  const archives = new Map<string, string>();
  for (const { id } of emailCallbacks) {
    const endpoint = await database.prisma.endpoint.create({
      data: {
        id: createId("endpoint"),
        emailCallbackId: id,
        url: sink.url("/archive"),
        format: "raw",
        signingScheme: "hmac",
        secret: "archive-secret-123456",
      },
    });
    archives.set(id, endpoint.id);
  }
  const rows = Array.from({ length: MAIL_COUNT }, (_, index) => {
    const id = createId("emailProcessing");
    const emailCallbackId = emailCallbacks[index % CALLBACK_COUNT]!.id;
    return {
      id,
      emailCallbackId,
      fromAddress: "bob@example.org",
      subject: `Mail ${index}`,
      recipient: `two-${index % CALLBACK_COUNT}@hookmail.test`,
      status: "pending",
      payload: new Uint8Array(Buffer.from(JSON.stringify({ type: "email.received", data: { id, emailCallbackId } }))),
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
  await database.prisma.delivery.createMany({
    data: rows.map((row) => ({
      id: createId("delivery"),
      emailProcessingId: row.id,
      endpointId: archives.get(row.emailCallbackId)!,
      status: "pending",
      nextAttemptAt: now,
    })),
  });
  return rows.map((row) => row.id);
}

type WorkerChild = ChildProcessByStdio<Writable, Readable, null>;

function startWorker(url: string, name: string): Promise<WorkerChild> {
  const child = spawn(
    process.execPath,
    ["--import", "tsx", "tests/reliability/worker-process.ts", url, name, "100", String(LEASE_MS)],
    {
      cwd: ROOT,
      stdio: ["pipe", "pipe", "inherit"],
    },
  );
  cleanUps.push(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  });
  return new Promise((resolve, reject) => {
    let output = "";
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (!output.includes("ready")) return;
      child.stdout.off("data", onData);
      child.stdin.write("go\n");
      resolve(child);
    };
    child.stdout.on("data", onData);
    child.once("exit", (code) => reject(new Error(`${name} exited with ${code} before it was ready`)));
  });
}

async function waitFor(condition: () => Promise<boolean> | boolean, timeoutMs: number) {
  const startedAt = Date.now();
  while (!(await condition())) {
    if (Date.now() - startedAt > timeoutMs) return false;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return true;
}

describe("two endpoints per address, a worker killed mid-run", () => {
  it(
    `delivers each of ${MAIL_COUNT} mails to each of its two endpoints, recorded once, through a SIGKILL`,
    async () => {
      const sink = await startSink();
      cleanUps.push(() => sink.close());
      const { url, drop } = await createTestDatabaseUrl();
      cleanUps.push(drop);
      const database = await openDatabase({ url, poolSize: 2 });
      cleanUps.push(() => database.close());
      const ids = await seedMails(database, sink);

      const doomed = await startWorker(url, "worker-a");
      const survivor = await startWorker(url, "worker-b");
      // Kill one worker once the run is well under way, attempts in its hands, and start another.
      expect(await waitFor(() => sink.requestCount() >= 200, 60_000)).toBe(true);
      doomed.kill("SIGKILL");
      const late = await startWorker(url, "worker-c");

      const allDone = await waitFor(
        async () => (await database.prisma.emailProcessing.count({ where: { status: "success" } })) === MAIL_COUNT,
        COMPLETION_TIMEOUT_MS,
      );
      for (const child of [survivor, late]) child.kill("SIGTERM");
      expect(allDone).toBe(true);

      // Each mail reached each of its two endpoints.
      const expected = ids.flatMap((id) => [`/app ${id}`, `/archive ${id}`]).sort();
      expect([...sink.arrivals.keys()].sort()).toEqual(expected);
      // Never two attempts of one delivery at once; a second request only after the killed worker sent the first.
      expect(sink.maxInFlight()).toBe(1);
      const repeated = [...sink.arrivals.entries()].filter(([, list]) => list.length > 1);
      for (const [key, list] of repeated) expect({ key, first: list[0]!.worker }).toEqual({ key, first: "worker-a" });
      // Recorded once each: every delivery a success, each mail a success whose attempts are its deliveries'.
      const deliveries = await database.prisma.delivery.findMany({
        select: { status: true, lockedUntil: true, attemptCount: true },
      });
      expect(deliveries).toHaveLength(MAIL_COUNT * 2);
      expect(deliveries.filter((row) => row.status !== "success" || row.lockedUntil !== null || row.attemptCount < 1)).toEqual(
        [],
      );
      const successes = await database.prisma.deliveryAttempt.count({ where: { statusCode: 200 } });
      expect(successes).toBe(MAIL_COUNT * 2);
      console.log(
        `multi-endpoint: ${sink.requestCount()} requests for ${MAIL_COUNT * 2} deliveries; ${repeated.length} sent again after worker-a was killed`,
      );
    },
    COMPLETION_TIMEOUT_MS + 90_000,
  );
});
