// The real app as `npm start` runs it (`node --import tsx server.ts` from the project root, NODE_ENV
// production, all roles), in a child process on free loopback ports and a temporary DATA_DIR, on
// the database it is given, or without one on the zero-config default: no DATABASE_URL and no
// AUTH_SECRET, so the app starts its own embedded PostgreSQL server in DATA_DIR/postgres and
// generates its secret there. It can be killed (SIGKILL) and started again on the same ports,
// database and DATA_DIR. Its output goes to DATA_DIR/app.log (RELIABILITY_VERBOSE=1 also echoes it).
// DATA_DIR is made under os.tmpdir(): run as root, the embedded server runs as the `hookmail-db` user,
// who must be able to pass through every directory above it.

import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { findFreePort } from "@/modules/shared/net/free-port";
import { startDnsServer } from "@/tests/support/dns-server";
import { stopLeftoverServer } from "./embedded-server-processes";
import type { CleanUp } from "./reliability-setup";

export const PROJECT_ROOT = path.resolve(import.meta.dirname, "../../..");

/** The first start may build the app (modules/server/build.ts): that takes minutes on a busy machine. */
export const APP_READY_TIMEOUT_MS = 600_000;

export type AppExit = { pid: number; code: number | null; signal: NodeJS.Signals | null; wasExpected: boolean; at: number };

export type AppStart = { pid: number; startedAt: number; readyAfterMs: number };

export type AppProcess = {
  baseUrl: string;
  smtpPort: number;
  inboundSecret: string;
  emailDomain: string;
  dataDir: string;
  logFile: string;
  /** The pid of the process running now (undefined while none runs). */
  currentPid: () => number | undefined;
  isRunning: () => boolean;
  /** Every start, in order, with how long it took to answer /api/health. */
  starts: AppStart[];
  /** Every exit, in order; `wasExpected` is false for an exit this helper did not cause. */
  exits: AppExit[];
  /** Starts the app (again) on the same ports, database and DATA_DIR; resolves once /api/health answers 200. */
  start: () => Promise<AppStart>;
  /** SIGKILL, and resolves once the process is gone. */
  kill: () => Promise<void>;
  /** SIGTERM (SIGKILL after 15 s), and resolves once the process is gone. */
  stop: () => Promise<void>;
  readLog: () => string;
  /** Removes DATA_DIR (call after stop), stopping first an embedded server left running there. */
  removeDataDir: () => Promise<void>;
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The environment of the app: this process's (for PATH and the like) minus what would change the app's behaviour. */
function buildEnvironment(overrides: Record<string, string>): NodeJS.ProcessEnv {
  const environment: NodeJS.ProcessEnv = { ...process.env };
  for (const name of Object.keys(environment)) {
    if (name.startsWith("VITEST") || ["HOOKMAIL_ROLES", "NODE_OPTIONS", "TEST", "DATABASE_URL", "AUTH_SECRET"].includes(name))
      delete environment[name];
  }
  return { ...environment, ...overrides };
}

export async function createAppProcess({
  databaseUrl,
  emailDomain = "hookmail.test",
  extraEnvironment = {},
}: {
  /** The app's database; undefined for the embedded server the app starts in its DATA_DIR. */
  databaseUrl?: string;
  emailDomain?: string;
  extraEnvironment?: Record<string, string>;
}): Promise<AppProcess> {
  const [port, smtpPort] = [await findFreePort(), await findFreePort()];
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "hookmail-reliability-"));
  const logFile = path.join(dataDir, "app.log");
  const inboundSecret = `inbound-${randomBytes(12).toString("hex")}`;
  const baseUrl = `http://127.0.0.1:${port}`;
  const dns = await startDnsServer();
  const environment = buildEnvironment({
    NODE_ENV: "production",
    NEXT_TELEMETRY_DISABLED: "1",
    ...(databaseUrl ? { DATABASE_URL: databaseUrl, AUTH_SECRET: randomBytes(32).toString("base64") } : {}),
    BASE_URL: baseUrl,
    PORT: String(port),
    SMTP_PORT: String(smtpPort),
    SMTP_HOST: "127.0.0.1",
    DATA_DIR: dataDir,
    EMAIL_DOMAINS: emailDomain,
    // The checks on each mail run, asking a DNS server on loopback (it knows no name): nothing
    // reaches a real resolver, and every mail gets its verdicts (none, mostly) as in production.
    DNS_SERVERS: dns.address,
    INBOUND_SECRET: inboundSecret,
    WEBHOOK_ALLOW_PRIVATE_TARGETS: "true",
    AUTH_RATE_LIMIT_ENABLED: "false",
    ...extraEnvironment,
  });
  const log = fs.createWriteStream(logFile, { flags: "a" });
  const isVerbose = process.env.RELIABILITY_VERBOSE === "1";

  let child: ChildProcess | undefined;
  let expectedExitPid: number | undefined;
  const starts: AppStart[] = [];
  const exits: AppExit[] = [];

  const isRunning = () => child !== undefined && child.exitCode === null && child.signalCode === null;

  const waitForExit = (target: ChildProcess) =>
    target.exitCode !== null || target.signalCode !== null
      ? Promise.resolve()
      : new Promise<void>((resolve) => target.once("exit", () => resolve()));

  async function isHealthy(): Promise<boolean> {
    try {
      const response = await fetch(`${baseUrl}/api/health`, { signal: AbortSignal.timeout(5_000) });
      await response.arrayBuffer();
      return response.status === 200;
    } catch {
      return false;
    }
  }

  async function start(): Promise<AppStart> {
    if (isRunning()) throw new Error("the app is already running");
    const startedAt = Date.now();
    const appProcess = spawn(process.execPath, ["--import", "tsx", "server.ts"], {
      cwd: PROJECT_ROOT,
      env: environment,
      stdio: ["ignore", "pipe", "pipe"],
    });
    child = appProcess;
    const pid = appProcess.pid ?? -1;
    log.write(`\n===== start pid ${pid} at ${new Date(startedAt).toISOString()} =====\n`);
    for (const stream of [appProcess.stdout, appProcess.stderr]) {
      stream?.on("data", (chunk: Buffer) => {
        log.write(chunk);
        if (isVerbose) process.stderr.write(`[app ${pid}] ${chunk.toString()}`);
      });
    }
    appProcess.once("exit", (code, signal) => {
      exits.push({ pid, code, signal, wasExpected: expectedExitPid === pid, at: Date.now() });
      log.write(`===== pid ${pid} exited (code ${code}, signal ${signal}) =====\n`);
    });

    const deadline = startedAt + APP_READY_TIMEOUT_MS;
    while (Date.now() < deadline) {
      if (appProcess.exitCode !== null || appProcess.signalCode !== null) {
        throw new Error(`the app (pid ${pid}) exited before it was ready; last output:\n${tail(readLog(), 4_000)}`);
      }
      if (await isHealthy()) {
        const started = { pid, startedAt, readyAfterMs: Date.now() - startedAt };
        starts.push(started);
        return started;
      }
      await sleep(250);
    }
    throw new Error(
      `the app (pid ${pid}) was not ready after ${APP_READY_TIMEOUT_MS} ms; last output:\n${tail(readLog(), 4_000)}`,
    );
  }

  async function kill() {
    const appProcess = child;
    if (!appProcess || !isRunning()) return;
    expectedExitPid = appProcess.pid;
    appProcess.kill("SIGKILL");
    await waitForExit(appProcess);
  }

  async function stop() {
    const appProcess = child;
    if (!appProcess || !isRunning()) return;
    expectedExitPid = appProcess.pid;
    const killTimer = setTimeout(() => appProcess.kill("SIGKILL"), 15_000);
    appProcess.kill("SIGTERM");
    await waitForExit(appProcess);
    clearTimeout(killTimer);
  }

  function readLog(): string {
    try {
      return fs.readFileSync(logFile, "utf8");
    } catch {
      return "";
    }
  }

  return {
    baseUrl,
    smtpPort,
    inboundSecret,
    emailDomain,
    dataDir,
    logFile,
    currentPid: () => (isRunning() ? child?.pid : undefined),
    isRunning,
    starts,
    exits,
    start,
    kill,
    stop,
    readLog,
    removeDataDir: async () => {
      log.end();
      await dns.close();
      await stopLeftoverServer(dataDir);
      if (process.env.RELIABILITY_KEEP_DATA === "1") return;
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** createAppProcess with its stop and the removal of its DATA_DIR among `cleanUps`, then its first start. */
export async function startAppProcess(
  cleanUps: CleanUp[],
  options: Parameters<typeof createAppProcess>[0],
): Promise<{ app: AppProcess; firstStart: AppStart }> {
  const app = await createAppProcess(options);
  cleanUps.push(() => app.removeDataDir());
  cleanUps.push(() => app.stop());
  return { app, firstStart: await app.start() };
}

export function tail(text: string, characters: number): string {
  return text.length <= characters ? text : `…${text.slice(-characters)}`;
}
