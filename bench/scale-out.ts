// Scale-out throughput: the real product started as separate OS processes, as production
// runs them (`node --import tsx server.ts`, HOOKMAIL_ROLES=smtp,worker, NODE_ENV=production), on one
// throwaway database on the embedded PostgreSQL server of the default (or DATABASE_URL's server). A closed-loop run of BENCH_MAILS ~10 KB mails against ONE such
// process, then against TWO (senders split evenly over their SMTP ports, the same total number of
// SMTP sessions), each mail relayed to a loopback sink in this process. Prints the accepted and
// delivered rates, client-send → sink latency, the speed-up two/one, the CPU each product process,
// the database's backends and this process used per mail (from /proc), and checks that every mail
// was recorded once as a success and that no webhook-id reached the sink twice.
//   DATABASE_URL (a PostgreSQL server; without it an embedded server in a throwaway DATA_DIR), BENCH_MAILS (default 1000),
//   BENCH_CONCURRENCY (SMTP sessions in all, default 8).

import { type ChildProcessByStdio, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import type { Readable } from "node:stream";
import pg from "pg";
import { type Database, migrateDatabase, openDatabase } from "@/modules/db/db";
import { createId } from "@/modules/shared/ids";
import { silentLogger } from "@/modules/shared/logging/logger";
import { findFreePort } from "@/modules/shared/net/free-port";
import { seedDatabase } from "../tests/support/seed";
import { createDatabaseOn, findDatabaseUrlServer, startEmbeddedBenchServer } from "./bench-database";
import { benchMail, benchMailRaw, drive, now, percentile, type Sink, smtpClient, startSink } from "./common";
import { type CpuUse, diffCpu, snapshotCpu } from "./cpu-usage";
import { BENCH_ADDRESS, BENCH_DOMAIN, CONCURRENCY, DRAIN_TIMEOUT_MS } from "./settings";

const MAILS = Number(process.env.BENCH_MAILS ?? 1000);
const WARMUP_PER_PROCESS = 20;
const START_TIMEOUT_MS = 90_000;
const STOP_TIMEOUT_MS = 15_000;
const ROOT = path.resolve(import.meta.dirname, "..");
const SMTP_READY_LINE = "Receiving mail by SMTP on";

type Child = ChildProcessByStdio<null, Readable, Readable>;
type ProductProcess = { name: string; pid: number; port: number; stop: () => Promise<void> };

/** Everything to undo, run in reverse order at the end, on failure and on SIGINT/SIGTERM. */
const cleanUps: (() => Promise<void> | void)[] = [];
const children = new Set<Child>();

let cleaning: Promise<void> | undefined;
/** Runs the clean-up steps once, however many ways (signal, failure, the end) ask for it. */
function cleanUp(): Promise<void> {
  cleaning ??= (async () => {
    while (cleanUps.length > 0) {
      const step = cleanUps.pop()!;
      try {
        await step();
      } catch (error) {
        console.error("  clean-up step failed:", error);
      }
    }
  })();
  return cleaning;
}

// Last resort: never leave a product process behind, whatever way this process ends.
process.on("exit", () => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
});
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    console.error(`\n${signal}: cleaning up`);
    void cleanUp().finally(() => process.exit(1));
  });
}

// --- Product processes ---------------------------------------------------------------------------

/** Resolves once a TCP client on `port` reads the SMTP greeting (220). */
function waitForSmtpGreeting(port: number, timeoutMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, "127.0.0.1");
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no SMTP greeting on port ${port} within ${timeoutMs} ms`));
    }, timeoutMs);
    socket.once("data", (chunk: Buffer) => {
      clearTimeout(timer);
      socket.end("QUIT\r\n");
      if (chunk.toString("latin1").startsWith("220")) resolve();
      else reject(new Error(`port ${port} greeted with ${JSON.stringify(chunk.toString("latin1").trim())}`));
    });
    socket.once("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
  });
}

function stopChild(child: Child): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const killTimer = setTimeout(() => child.kill("SIGKILL"), STOP_TIMEOUT_MS);
    child.once("exit", () => {
      clearTimeout(killTimer);
      resolve();
    });
    child.kill("SIGTERM");
  });
}

/** `node --import tsx server.ts` with roles smtp,worker, as production runs it; resolves once its SMTP port greets. */
async function startProductProcess({
  name,
  databaseUrl,
  authSecret,
}: {
  name: string;
  databaseUrl: string;
  authSecret: string;
}): Promise<ProductProcess> {
  const port = await findFreePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `hookmail-scale-out-${name}-`));
  cleanUps.push(() => fs.rmSync(dataDir, { recursive: true, force: true }));
  const child: Child = spawn(process.execPath, ["--import", "tsx", "server.ts"], {
    cwd: ROOT,
    stdio: ["ignore", "pipe", "pipe"],
    env: {
      ...process.env,
      NODE_ENV: "production",
      HOOKMAIL_ROLES: "smtp,worker",
      DATABASE_URL: databaseUrl,
      AUTH_SECRET: authSecret,
      DATA_DIR: dataDir,
      EMAIL_DOMAINS: BENCH_DOMAIN,
      MAIL_AUTH_CHECKS: "false",
      SMTP_HOST: "127.0.0.1",
      SMTP_PORT: String(port),
      WEBHOOK_ALLOW_PRIVATE_TARGETS: "true",
    },
  });
  children.add(child);
  child.once("exit", () => children.delete(child));
  const stop = () => stopChild(child);
  cleanUps.push(stop);
  createInterface({ input: child.stderr }).on("line", (line) => console.error(`    [${name}] ${line}`));
  const lines = createInterface({ input: child.stdout });
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`${name} did not report its SMTP listener within ${START_TIMEOUT_MS} ms`)),
      START_TIMEOUT_MS,
    );
    lines.on("line", (line) => {
      console.log(`    [${name}] ${line}`);
      if (line.includes(SMTP_READY_LINE)) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once("exit", (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`${name} exited (${code ?? signal}) before its SMTP listener was ready`));
    });
  });
  await waitForSmtpGreeting(port, 10_000);
  return { name, pid: child.pid!, port, stop };
}

// --- Database ------------------------------------------------------------------------------------

async function seedCallback(database: Database, webhookUrl: string) {
  const userId = createId("user");
  await seedDatabase(database, {
    users: [{ id: userId, email: "scale-out@example.com", name: "Scale-out bench" }],
    emailCallbacks: [
      { userId, domain: BENCH_DOMAIN, username: "bench", webhookUrl, webhookSecret: "bench-webhook-secret-0123456789" },
    ],
  });
}

/** Polls until `expected` processings are recorded as success (or the drain timeout passes). */
async function waitForSuccessCount(admin: pg.Client, expected: number): Promise<number> {
  const startedAt = Date.now();
  for (;;) {
    const { rows } = await admin.query<{ count: string }>("SELECT count(*) FROM email_processing WHERE status = 'success'");
    const done = Number(rows[0]!.count);
    if (done >= expected || Date.now() - startedAt > DRAIN_TIMEOUT_MS) return done;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

type RecordCheck = {
  mails: number;
  missing: number;
  duplicated: number;
  notSuccess: number;
  extraAttempts: number;
  unexpectedRows: number;
};

/** Every mail sent so far must be one processing row, recorded as success; extra attempts (retries) are counted. */
async function checkRecords(database: Database, sentIds: string[]): Promise<RecordCheck> {
  const rows = await database.prisma.emailProcessing.findMany({
    select: { subject: true, status: true, _count: { select: { deliveryAttempts: true } } },
  });
  const bySubject = new Map<string, typeof rows>();
  for (const row of rows) bySubject.set(row.subject, [...(bySubject.get(row.subject) ?? []), row]);
  const check: RecordCheck = {
    mails: sentIds.length,
    missing: 0,
    duplicated: 0,
    notSuccess: 0,
    extraAttempts: 0,
    unexpectedRows: 0,
  };
  const sent = new Set(sentIds.map((id) => `Bench message ${id}`));
  for (const subject of sent) {
    const found = bySubject.get(subject) ?? [];
    if (found.length === 0) check.missing += 1;
    if (found.length > 1) check.duplicated += 1;
    for (const row of found) {
      if (row.status !== "success") check.notSuccess += 1;
      check.extraAttempts += Math.max(0, row._count.deliveryAttempts - 1);
    }
  }
  for (const subject of bySubject.keys()) if (!sent.has(subject)) check.unexpectedRows += 1;
  return check;
}

// --- One phase -----------------------------------------------------------------------------------

type PhaseFigures = {
  label: string;
  processCount: number;
  mails: number;
  sendErrors: number;
  acceptedPerSecond: number;
  deliveredPerSecond: number;
  delivered: number;
  latency: { p50: number; p95: number; p99: number };
  cpu: CpuUse;
};

let idCounter = 0;
const makeIds = (tag: string, count: number) => Array.from({ length: count }, () => `${tag}-${idCounter++}`);

async function runPhase({
  processCount,
  databaseUrl,
  authSecret,
  admin,
  sink,
  acceptedSoFar,
}: {
  processCount: number;
  databaseUrl: string;
  authSecret: string;
  admin: pg.Client;
  sink: Sink;
  /** Every mail the product accepted so far, warm-ups and earlier phases included. */
  acceptedSoFar: string[];
}): Promise<PhaseFigures> {
  const label = `${processCount} process${processCount > 1 ? "es" : ""}`;
  console.log(`\n${label} (roles smtp,worker each), ${MAILS} mails over ${CONCURRENCY} SMTP sessions in all:`);
  const products = await Promise.all(
    Array.from({ length: processCount }, (_, index) => startProductProcess({ name: `p${index + 1}`, databaseUrl, authSecret })),
  );
  const sessionsPerProcess = Math.max(1, Math.round(CONCURRENCY / processCount));
  const senders = products.map(({ port }) => smtpClient(port, sessionsPerProcess));
  try {
    /**
     * Splits ids evenly over the processes, each part sent closed-loop over its own pooled sessions;
     * answers the ids the product accepted (250), in the order given.
     */
    const sendAll = async (ids: string[]) => {
      const accepted = new Set<string>();
      const parts = products.map((_, index) => ids.filter((__, i) => i % processCount === index));
      await Promise.all(
        parts.map((part, index) =>
          drive({
            ids: part,
            concurrency: sessionsPerProcess,
            send: async (id) => {
              await senders[index]!.sendMail(benchMail(id, BENCH_ADDRESS));
              accepted.add(id);
            },
          }),
        ),
      );
      return ids.filter((id) => accepted.has(id));
    };

    const warm = makeIds(`warm${processCount}`, WARMUP_PER_PROCESS * processCount);
    const warmAccepted = await sendAll(warm);
    acceptedSoFar.push(...warmAccepted);
    if (warmAccepted.length < warm.length) {
      throw new Error(
        `warm-up: the product refused ${warm.length - warmAccepted.length} of ${warm.length} mails (its log is above)`,
      );
    }
    await sink.waitFor(warm, DRAIN_TIMEOUT_MS);
    await waitForSuccessCount(admin, acceptedSoFar.length);

    const ids = makeIds(`run${processCount}`, MAILS);
    const before = await snapshotCpu(products, admin);
    const startedAt = now();
    const accepted = await sendAll(ids);
    const lastAcceptedAt = now();
    acceptedSoFar.push(...accepted);
    const sendErrors = ids.length - accepted.length;
    await sink.waitFor(accepted, DRAIN_TIMEOUT_MS).catch((error: Error) => console.error(`  ${error.message}`));
    await waitForSuccessCount(admin, acceptedSoFar.length);
    const after = await snapshotCpu(products, admin);

    const delivered = accepted.filter((id) => sink.arrivals.has(id));
    const lastArrival = Math.max(...delivered.map((id) => sink.arrivals.get(id)!));
    const latencies = delivered
      .filter((id) => sink.sentAt.has(id))
      .map((id) => sink.arrivals.get(id)! - sink.sentAt.get(id)!)
      .sort((a, b) => a - b);
    const figures: PhaseFigures = {
      label,
      processCount,
      mails: ids.length,
      sendErrors,
      acceptedPerSecond: accepted.length / ((lastAcceptedAt - startedAt) / 1000),
      deliveredPerSecond: delivered.length / ((lastArrival - startedAt) / 1000),
      delivered: delivered.length,
      latency: { p50: percentile(latencies, 50), p95: percentile(latencies, 95), p99: percentile(latencies, 99) },
      cpu: diffCpu(products, before, after),
    };
    printPhase(figures);
    return figures;
  } finally {
    for (const sender of senders) sender.close();
    await Promise.all(products.map((product) => product.stop()));
  }
}

// --- Output --------------------------------------------------------------------------------------

const fmt = (value: number, digits = 1) => (Number.isFinite(value) ? value.toFixed(digits) : "n/a");
const msPerMail = (seconds: number, mails: number) => fmt((seconds * 1000) / mails, 2);

function printPhase(figures: PhaseFigures) {
  const { cpu, mails } = figures;
  console.log(
    `  ${figures.label}: ${figures.delivered}/${mails} delivered${figures.sendErrors ? ` (${figures.sendErrors} send errors)` : ""}; ` +
      `accepted ${fmt(figures.acceptedPerSecond)} mails/s, delivered to the sink ${fmt(figures.deliveredPerSecond)} mails/s`,
  );
  console.log(
    `  client-send → sink: p50 ${fmt(figures.latency.p50)} ms, p95 ${fmt(figures.latency.p95)} ms, p99 ${fmt(figures.latency.p99)} ms`,
  );
  const perProcessMails = mails / figures.processCount;
  const productSeconds = cpu.products.reduce((sum, { seconds }) => sum + seconds, 0);
  console.log(`  CPU over ${fmt(cpu.wallSeconds)} s (send start → all recorded as success), per mail:`);
  for (const { name, seconds } of cpu.products) {
    console.log(
      `    product ${name}: ${fmt(seconds, 2)} s = ${msPerMail(seconds, perProcessMails)} ms per mail it took (${fmt(seconds / cpu.wallSeconds, 2)} cores)`,
    );
  }
  console.log(`    product, all processes: ${msPerMail(productSeconds, mails)} ms per mail`);
  console.log(
    `    PostgreSQL backends of the bench database: ${fmt(cpu.postgresSeconds, 2)} s = ${msPerMail(cpu.postgresSeconds, mails)} ms per mail`,
  );
  console.log(
    `    bench process (senders + sink): ${fmt(cpu.benchSeconds, 2)} s = ${msPerMail(cpu.benchSeconds, mails)} ms per mail`,
  );
  const cores = splitMachineCores(cpu);
  console.log(
    `    this bench's processes in all (product, its PostgreSQL backends, senders + sink): ${msPerMail(cores.ownSeconds, mails)} ms per mail`,
  );
  console.log(
    `    PostgreSQL background processes (server-wide: WAL writer, checkpointer, …): ${fmt(cpu.postgresBackgroundSeconds, 2)} s = ` +
      `${msPerMail(cpu.postgresBackgroundSeconds, mails)} ms per mail`,
  );
  console.log(
    `    machine (${fmt(cpu.machineCores, 0)} cores): ${fmt(cores.own, 2)} cores used by this bench's processes, ` +
      `${fmt(cores.postgresBackground, 2)} by PostgreSQL's background processes, ${fmt(cores.other, 2)} by other work, ` +
      `${fmt(cores.idle, 2)} idle (of which ${fmt(cores.iowait, 2)} waiting for I/O)` +
      (cores.other > 0.25 ? " — other work competed for the CPU: the rates are lower than on a quiet machine" : ""),
  );
}

/** The machine's cores over a phase: used by this bench's processes, by PostgreSQL's background processes, by anything else, idle. */
function splitMachineCores(cpu: CpuUse) {
  const productSeconds = cpu.products.reduce((sum, { seconds }) => sum + seconds, 0);
  const ownSeconds = productSeconds + cpu.postgresSeconds + cpu.benchSeconds;
  const busy = cpu.machineBusySeconds / cpu.wallSeconds;
  const own = ownSeconds / cpu.wallSeconds;
  const postgresBackground = cpu.postgresBackgroundSeconds / cpu.wallSeconds;
  return {
    ownSeconds,
    own,
    postgresBackground,
    other: Math.max(0, busy - own - postgresBackground),
    idle: Math.max(0, cpu.machineCores - busy),
    iowait: cpu.machineIowaitSeconds / cpu.wallSeconds,
  };
}

function printRecordCheck(label: string, records: RecordCheck, sink: Sink): boolean {
  const duplicateWebhookIds = [...sink.byWebhookId.values()].filter((count) => count > 1).length;
  const duplicateBenchIds = [...sink.byBenchId.values()].filter((count) => count > 1).length;
  const isRecordedOnce =
    records.missing === 0 && records.duplicated === 0 && records.notSuccess === 0 && records.unexpectedRows === 0;
  const isDeliveredOnce = duplicateWebhookIds === 0 && duplicateBenchIds === 0;
  console.log(
    `  after ${label}: ${records.mails} mails accepted so far (warm-ups included): ` +
      `${records.missing} not recorded, ${records.duplicated} recorded twice, ${records.notSuccess} rows not success, ` +
      `${records.unexpectedRows} unexpected rows → recorded as success exactly once: ${isRecordedOnce ? "met" : "NOT met"}`,
  );
  console.log(
    `    sink: ${sink.byWebhookId.size} distinct webhook-ids, ${duplicateWebhookIds} arrived more than once, ` +
      `${duplicateBenchIds} mails arrived more than once → no webhook-id twice: ${isDeliveredOnce ? "met" : "NOT met"}; ` +
      `retried attempts: ${records.extraAttempts}`,
  );
  return isRecordedOnce && isDeliveredOnce;
}

// --- Main ----------------------------------------------------------------------------------------

async function main(): Promise<number> {
  const sample = await benchMailRaw("sample-0", BENCH_ADDRESS);
  console.log(
    `scale-out: ${MAILS} mails of ${sample.length} bytes per phase, ${CONCURRENCY} SMTP sessions in all; ` +
      `node ${process.version}, ${os.cpus().length} CPUs shared by the senders, the sink, PostgreSQL and the product processes`,
  );

  const sink = await startSink();
  cleanUps.push(() => sink.close());
  const server = findDatabaseUrlServer() ?? (await startEmbeddedBenchServer());
  cleanUps.push(() => server.stop());
  console.log(
    `  on ${server.kind === "embedded" ? "the embedded PostgreSQL server (DATABASE_URL unset)" : "the PostgreSQL server of DATABASE_URL"}`,
  );
  const { url, drop } = await createDatabaseOn(server.adminUrl);
  cleanUps.push(drop);
  console.log(`  throwaway database ${new URL(url).pathname.slice(1)} (dropped at the end)`);
  const database = await openDatabase({ url, poolSize: 2 });
  cleanUps.push(() => database.close());
  await migrateDatabase(database, silentLogger);
  await seedCallback(database, sink.url);
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  cleanUps.push(() => admin.end());

  const authSecret = randomBytes(32).toString("base64url");
  const acceptedSoFar: string[] = [];
  const phases: PhaseFigures[] = [];
  let isCorrect = true;
  for (const processCount of [1, 2]) {
    const figures = await runPhase({ processCount, databaseUrl: url, authSecret, admin, sink, acceptedSoFar });
    // Checked once the phase's processes have stopped, over every mail accepted so far.
    const records = await checkRecords(database, acceptedSoFar);
    phases.push(figures);
    isCorrect =
      printRecordCheck(figures.label, records, sink) &&
      isCorrect &&
      figures.sendErrors === 0 &&
      figures.delivered === figures.mails;
  }

  const [one, two] = phases as [PhaseFigures, PhaseFigures];
  const speedUp = two.deliveredPerSecond / one.deliveredPerSecond;
  const withOne = splitMachineCores(one.cpu);
  const withTwo = splitMachineCores(two.cpu);
  // At the same CPU per mail, and with the other work unchanged, a second process can only turn the
  // idle cores into mails: the speed-up is capped at (cores used + idle cores) / cores used.
  const ceiling = (withOne.own + withOne.idle) / withOne.own;
  console.log("\nsummary:");
  console.log(
    `  delivered: one process ${fmt(one.deliveredPerSecond)} mails/s, two processes ${fmt(two.deliveredPerSecond)} mails/s → speed-up ${fmt(speedUp, 2)} ` +
      `(accepted: ${fmt(one.acceptedPerSecond)} → ${fmt(two.acceptedPerSecond)}, ×${fmt(two.acceptedPerSecond / one.acceptedPerSecond, 2)})`,
  );
  console.log(
    `  client-send → sink p50/p95/p99: one ${fmt(one.latency.p50)}/${fmt(one.latency.p95)}/${fmt(one.latency.p99)} ms, ` +
      `two ${fmt(two.latency.p50)}/${fmt(two.latency.p95)}/${fmt(two.latency.p99)} ms`,
  );
  console.log(
    `  CPU per mail, all of this bench's processes: one ${msPerMail(withOne.ownSeconds, one.mails)} ms, two ${msPerMail(withTwo.ownSeconds, two.mails)} ms; ` +
      `cores used / other work / idle: one ${fmt(withOne.own, 2)} / ${fmt(withOne.other, 2)} / ${fmt(withOne.idle, 2)}, ` +
      `two ${fmt(withTwo.own, 2)} / ${fmt(withTwo.other, 2)} / ${fmt(withTwo.idle, 2)}`,
  );
  if (withOne.other > 0.25 || withTwo.other > 0.25) {
    console.log(
      `  other work held ${fmt(withOne.other, 2)} / ${fmt(withTwo.other, 2)} cores during the phases: the rates are lower than on a quiet machine, ` +
        `and the speed-up partly measures the larger share of a contended CPU that more processes get; run again on a quiet machine`,
    );
  } else {
    console.log(
      `  with one process ${fmt(withOne.idle, 2)} of ${fmt(one.cpu.machineCores, 0)} cores were idle: at the same CPU per mail a second process can add at most ` +
        `×${fmt(ceiling, 2)} here; a speed-up near 2 needs a core per product process, with room left for PostgreSQL, the senders and the sink`,
    );
  }
  console.log(
    `  correctness (every mail accepted, recorded once as success and delivered; no webhook-id twice): ${isCorrect ? "met" : "NOT met"}`,
  );
  return isCorrect ? 0 : 1;
}

main().then(
  async (code) => {
    await cleanUp();
    process.exit(code);
  },
  async (error: unknown) => {
    console.error(error);
    await cleanUp();
    process.exit(1);
  },
);
