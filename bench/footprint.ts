// Footprint of a default install: the resident memory of an idle `npm start` and how long it takes
// to serve its first page.
//
// The real product is started as a user starts it: `npm start` in the project directory (a current
// production build is made first, outside any timing, when there is none), NODE_ENV=production,
// PORT and SMTP_PORT on free ports, a throwaway DATA_DIR under the system's temporary directory.
// The default has no DATABASE_URL: the product runs its embedded PostgreSQL server in
// DATA_DIR/postgres. Beside it, alternating with it, the same install with DATABASE_URL set to a
// throwaway database on that URL's server (when DATABASE_URL is set for the benchmark).
//
// Memory (goal ≤ 450 MB for the default): once GET /login has answered 200 and the install has
// idled ~10 s, the PSS (proportional set size: shared pages split between the processes sharing
// them, so nothing is counted twice) of the product's node process and, for the default, of every
// process of its embedded server (the postmaster named by DATA_DIR/postgres/postmaster.pid and its
// children), from /proc/<pid>/smaps_rollup. With DATABASE_URL: the node process, and beside it the
// server's backends connected to the throwaway database (pg_stat_activity), which are this
// install's share of that server (its postmaster and background processes serve every database).
//
// Start time (goal ≤ 5 s, median of the default's starts): from spawning `npm start` to the first
// 200 of GET /login, on a fresh DATA_DIR that has been initialised once (a copy of one where the
// product ran and stopped: cluster initialised, migrations applied, server stopped). Printed for
// reference: the first-ever start on an empty DATA_DIR (initdb, migrations) — not part of the goal.
//   BENCH_FOOTPRINT_RUNS (starts of each side, default 5), BENCH_FOOTPRINT_IDLE_MS (default 10000).

import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { POSTGRES_DIRECTORY, readServerLock } from "@/modules/db/embedded-server";
import { buildApp, isBuildCurrent } from "@/modules/server/build";
import { describeError } from "@/modules/shared/errors/describe-error";
import { createLogger, loggerOptionsFromEnvironment } from "@/modules/shared/logging/logger";
import { findFreePort } from "@/modules/shared/net/free-port";
import { createDatabaseOn, formatSpread, median } from "./bench-database";
import { now } from "./common";

const GOAL_MB = 450;
const GOAL_START_SECONDS = 5;
const RUNS = Number(process.env.BENCH_FOOTPRINT_RUNS ?? 5);
const IDLE_MS = Number(process.env.BENCH_FOOTPRINT_IDLE_MS ?? 10_000);
const START_TIMEOUT_MS = 180_000;
const STOP_TIMEOUT_MS = 30_000;
const POLL_INTERVAL_MS = 20;

const projectDir = process.env.BENCH_PROJECT_DIR ?? path.resolve(import.meta.dirname, "..");
/** Decimal megabytes, as the goal is written. */
const MB = 1_000_000;
const mb = (bytes: number) => `${(bytes / MB).toFixed(1)} MB`;

// ---------------------------------------------------------------------------------------------
// /proc

/** A field of /proc/<pid>/smaps_rollup or /proc/<pid>/status, in bytes (0 when the process is gone). */
function readProcKib(pid: number, file: "smaps_rollup" | "status", field: string): number {
  try {
    const match = new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(fs.readFileSync(`/proc/${pid}/${file}`, "utf8"));
    return match ? Number(match[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

const readPss = (pid: number) => readProcKib(pid, "smaps_rollup", "Pss");
const readRss = (pid: number) => readProcKib(pid, "status", "VmRSS");

function readParentPid(pid: number): number | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    // The command name (2nd field) is in parentheses and may hold spaces: read after its last ")".
    return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
  } catch {
    return null;
  }
}

function readCommandLine(pid: number): string {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").replace(/\0/g, " ").trim();
  } catch {
    return "";
  }
}

/** The process and all its descendants. */
function listProcessTree(root: number): number[] {
  const parents = new Map<number, number>();
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    const parent = readParentPid(Number(entry));
    if (parent !== null) parents.set(Number(entry), parent);
  }
  const tree = [root];
  for (let index = 0; index < tree.length; index++) {
    for (const [pid, parent] of parents) if (parent === tree[index]) tree.push(pid);
  }
  return tree;
}

type ProcessMemory = { pid: number; command: string; pss: number; rss: number };
const measureProcesses = (pids: number[]): ProcessMemory[] =>
  pids.map((pid) => ({ pid, command: readCommandLine(pid), pss: readPss(pid), rss: readRss(pid) }));
const sumPss = (processes: ProcessMemory[]) => processes.reduce((sum, { pss }) => sum + pss, 0);

// ---------------------------------------------------------------------------------------------
// Starting and stopping the product

type Started = {
  /** Seconds from spawning `npm start` to the first 200 of GET /login. */
  startSeconds: number;
  /** The product's node process (`node --import tsx server.ts`, a child of npm's). */
  nodePid: number;
  /** npm's own process, which stays as the product's parent. */
  npmPid: number;
  output: () => string;
  stop: () => Promise<void>;
};

async function startProduct({ dataDir, databaseUrl }: { dataDir: string; databaseUrl?: string }): Promise<Started> {
  if (!isBuildCurrent(projectDir))
    throw new Error("the production build is not current (the sources changed during the run): start again");
  const [port, smtpPort] = [await findFreePort(), await findFreePort()];
  const environment: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: "production",
    NEXT_TELEMETRY_DISABLED: "1",
    PORT: String(port),
    SMTP_HOST: "127.0.0.1",
    SMTP_PORT: String(smtpPort),
    DATA_DIR: dataDir,
    BASE_URL: `http://127.0.0.1:${port}`,
  };
  delete environment.DATABASE_URL;
  delete environment.HOOKMAIL_ROLES;
  if (databaseUrl) environment.DATABASE_URL = databaseUrl;
  let output = "";
  const startedAt = now();
  // Its own process group: npm, its shell and the product are stopped together, as Ctrl-C would.
  const child: ChildProcess = spawn("npm", ["start"], {
    cwd: projectDir,
    env: environment,
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const hasExited = () => child.exitCode !== null || child.signalCode !== null;
  // npm may exit before the product has stopped its server: wait for every process of the group.
  const stop = async () => {
    const group = listProcessTree(child.pid!);
    signalGroup(child.pid!, "SIGTERM");
    const deadline = now() + STOP_TIMEOUT_MS;
    while (group.some(isAlive) && now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    if (group.some(isAlive)) signalGroup(child.pid!, "SIGKILL");
    stopLeftoverServer(dataDir);
  };
  try {
    const startSeconds = await waitForLogin(`http://127.0.0.1:${port}/login`, startedAt, hasExited);
    const nodePid = listProcessTree(child.pid!).find((pid) => / server\.ts\b/.test(readCommandLine(pid)) && pid !== child.pid);
    if (!nodePid) throw new Error("no `node … server.ts` process under npm start");
    return { startSeconds, nodePid, npmPid: child.pid!, output: () => output, stop };
  } catch (error) {
    await stop();
    throw new Error(`${describeError(error)}\n${output}`);
  }
}

async function waitForLogin(url: string, startedAt: number, hasExited: () => boolean): Promise<number> {
  while (now() - startedAt < START_TIMEOUT_MS) {
    if (hasExited()) throw new Error("npm start exited");
    const status = await fetch(url, { redirect: "manual", signal: AbortSignal.timeout(10_000) }).then(
      (response) => {
        void response.body?.cancel();
        return response.status;
      },
      () => 0,
    );
    if (status === 200) return (now() - startedAt) / 1000;
    await new Promise((resolve) => setTimeout(resolve, POLL_INTERVAL_MS));
  }
  throw new Error(`GET /login did not answer 200 within ${START_TIMEOUT_MS} ms`);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return !/^\S+ \(.*\) Z/.test(fs.readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return false;
  }
}

function signalGroup(groupId: number, signal: NodeJS.Signals) {
  try {
    process.kill(-groupId, signal);
  } catch {
    // already gone
  }
}

/** The product stops its server on SIGTERM; a product that had to be killed leaves it running. */
function stopLeftoverServer(dataDir: string) {
  const lock = readServerLock(path.join(dataDir, POSTGRES_DIRECTORY));
  if (!lock?.isAlive) return;
  console.error(`  the embedded server (pid ${lock.pid}) outlived the product: stopping it`);
  process.kill(lock.pid, "SIGINT");
}

function embeddedServerPids(dataDir: string): number[] {
  const lock = readServerLock(path.join(dataDir, POSTGRES_DIRECTORY));
  if (!lock?.isAlive) throw new Error(`no running embedded server in ${dataDir}`);
  return listProcessTree(lock.pid);
}

async function backendPidsOf(adminUrl: string, database: string): Promise<number[]> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ pid: number }>(
      "SELECT pid FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()",
      [database],
    );
    return rows.map((row) => row.pid);
  } finally {
    await client.end();
  }
}

// ---------------------------------------------------------------------------------------------
// The runs

type Side = "embedded" | "databaseUrl";
type Run = {
  side: Side;
  startSeconds: number;
  nodePss: number;
  npmPss: number;
  databasePss: number;
  databaseProcesses: number;
  nodeRss: number;
  databaseRss: number;
};

const freshDir = (tag: string) => fs.mkdtempSync(path.join(os.tmpdir(), `hookmail-footprint-${tag}-`));

/** A copy of an initialised DATA_DIR, owners and modes kept (as root, the cluster belongs to the server's user). */
function copyDataDir(from: string, tag: string): string {
  const to = freshDir(tag);
  execFileSync("cp", ["-a", `${from}/.`, to]);
  return to;
}

async function idleAndMeasure(started: Started, side: Side, databasePids: () => Promise<number[]>): Promise<Run> {
  await new Promise((resolve) => setTimeout(resolve, IDLE_MS));
  const node = measureProcesses(listProcessTree(started.nodePid));
  const database = measureProcesses(await databasePids());
  return {
    side,
    startSeconds: started.startSeconds,
    nodePss: sumPss(node),
    npmPss: readPss(started.npmPid),
    databasePss: sumPss(database),
    databaseProcesses: database.length,
    nodeRss: node.reduce((sum, { rss }) => sum + rss, 0),
    databaseRss: database.reduce((sum, { rss }) => sum + rss, 0),
  };
}

async function runEmbedded(initialised: string, index: number): Promise<Run> {
  const dataDir = copyDataDir(initialised, `embedded-${index}`);
  try {
    const started = await startProduct({ dataDir });
    try {
      return await idleAndMeasure(started, "embedded", async () => embeddedServerPids(dataDir));
    } finally {
      await started.stop();
    }
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

async function runWithDatabaseUrl(serverUrl: string, index: number): Promise<Run> {
  const dataDir = freshDir(`url-${index}`);
  const { name, url, drop } = await createDatabaseOn(serverUrl);
  try {
    const started = await startProduct({ dataDir, databaseUrl: url });
    try {
      return await idleAndMeasure(started, "databaseUrl", () => backendPidsOf(serverUrl, name));
    } finally {
      await started.stop();
    }
  } finally {
    await drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

function printRun(run: Run) {
  const databaseLabel = run.side === "embedded" ? "embedded server" : "its backends on DATABASE_URL's server";
  console.log(
    `  ${run.side === "embedded" ? "default (embedded)" : "DATABASE_URL      "}  start → /login 200 ${run.startSeconds.toFixed(2)} s | PSS node ${mb(run.nodePss)} + ${databaseLabel} ${mb(run.databasePss)} (${run.databaseProcesses} processes) = ${mb(run.nodePss + run.databasePss)}` +
      ` | RSS node ${mb(run.nodeRss)}, database ${mb(run.databaseRss)} | npm's own process ${mb(run.npmPss)} PSS`,
  );
}

async function main() {
  console.log(
    `footprint: \`npm start\` in ${projectDir}, NODE_ENV=production, ${RUNS} starts per side (alternating), idle ${IDLE_MS / 1000} s before measuring; node ${process.version}, ${os.cpus().length} CPUs, load average ${os.loadavg()[0]!.toFixed(2)}`,
  );
  if (!isBuildCurrent(projectDir)) await buildApp(projectDir, createLogger(loggerOptionsFromEnvironment(process.env)));
  const serverUrl = process.env.DATABASE_URL;
  if (!serverUrl) console.log("  (DATABASE_URL unset: only the default)");

  // The first-ever start: an empty DATA_DIR, the cluster initialised (initdb), migrations applied.
  const initialised = freshDir("initialised");
  const runs: Run[] = [];
  try {
    const first = await startProduct({ dataDir: initialised });
    await first.stop();
    console.log(
      `  first-ever start (empty DATA_DIR: initdb, migrations) → /login 200: ${first.startSeconds.toFixed(2)} s (reference, not the goal)`,
    );

    for (let index = 1; index <= RUNS; index++) {
      const sides: Side[] = serverUrl ? ["embedded", "databaseUrl"] : ["embedded"];
      for (const side of index % 2 ? sides : [...sides].reverse()) {
        const run = side === "embedded" ? await runEmbedded(initialised, index) : await runWithDatabaseUrl(serverUrl!, index);
        printRun(run);
        runs.push(run);
      }
    }
  } finally {
    fs.rmSync(initialised, { recursive: true, force: true });
  }

  const of = (side: Side) => runs.filter((run) => run.side === side);
  const embedded = of("embedded");
  const totals = embedded.map((run) => (run.nodePss + run.databasePss) / MB);
  const starts = embedded.map((run) => run.startSeconds);
  console.log(`summary (medians of ${embedded.length} starts, (min–max); load average ${os.loadavg()[0]!.toFixed(2)}):`);
  console.log(
    `  idle PSS, default (node + embedded server): ${formatSpread(totals, 1)} MB (goal ≤ ${GOAL_MB} MB: ${median(totals) <= GOAL_MB ? "met" : "NOT met"})` +
      ` = node ${formatSpread(
        embedded.map((run) => run.nodePss / MB),
        1,
      )} + server ${formatSpread(
        embedded.map((run) => run.databasePss / MB),
        1,
      )} MB`,
  );
  console.log(
    `  start → first 200 of /login, default, initialised DATA_DIR: ${formatSpread(starts)} s (goal ≤ ${GOAL_START_SECONDS} s: ${median(starts) <= GOAL_START_SECONDS ? "met" : "NOT met"})`,
  );
  const withUrl = of("databaseUrl");
  if (withUrl.length > 0) {
    console.log(
      `  idle PSS, with DATABASE_URL: node ${formatSpread(
        withUrl.map((run) => run.nodePss / MB),
        1,
      )} MB, + its backends ${formatSpread(
        withUrl.map((run) => run.databasePss / MB),
        1,
      )} MB` +
        ` = ${formatSpread(
          withUrl.map((run) => (run.nodePss + run.databasePss) / MB),
          1,
        )} MB (the server's own postmaster and background processes not counted)`,
    );
    console.log(`  start → first 200 of /login with DATABASE_URL: ${formatSpread(withUrl.map((run) => run.startSeconds))} s`);
    const ratios = embedded.map(
      (run, index) => (run.nodePss + run.databasePss) / (withUrl[index]!.nodePss + withUrl[index]!.databasePss),
    );
    console.log(`  default / DATABASE_URL, idle PSS per pair: ${formatSpread(ratios)}×`);
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
