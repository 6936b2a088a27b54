// The embedded PostgreSQL server of the zero-config default (docs/scaling.md: The embedded server),
// each test with a DATA_DIR and a server of its own: first start initialises it owner-only, it
// listens on loopback only with a password, processes sharing a DATA_DIR share one server that the
// last one stops, and a postmaster.pid left by a dead server does not keep it from starting. As
// root (containers, CI) the server runs as an unprivileged account (its own tests:
// embedded-server-privileges.integration.test.ts).
import { spawn } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { createDataDir, setUpCleanUpsAfterEach } from "@/tests/support/embedded-data-dir";
import { modeOf } from "@/tests/support/file-modes";
import { openConfiguredDatabase } from "./db";
import {
  type EmbeddedServer,
  POSTGRES_DIRECTORY,
  POSTGRES_PASSWORD_FILE,
  readServerLock,
  startEmbeddedServer,
} from "./embedded-server";
import { APP_ROLE } from "./embedded-server-roles";

const TIMEOUT = { timeout: 120_000 };
const isRoot = typeof process.getuid === "function" && process.getuid() === 0;
const cleanUps = setUpCleanUpsAfterEach();

async function start(dataDir: string): Promise<EmbeddedServer> {
  const server = await startEmbeddedServer({ dataDir, settings: { fsync: "off" } });
  let released = false;
  cleanUps.push(async () => {
    if (!released) await server.release();
  });
  return {
    ...server,
    release: async () => {
      released = true;
      return server.release();
    },
  };
}

async function query<T extends pg.QueryResultRow>(url: string, sql: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(sql)).rows;
  } finally {
    await client.end();
  }
}

/** Whether the process runs (a stopped server's process may linger as a zombie its parent never reaped). */
function isAlive(pid: number): boolean {
  try {
    return !/^State:\s+Z/m.test(fs.readFileSync(`/proc/${pid}/status`, "utf8"));
  } catch {
    return false;
  }
}

/**
 * Gives a stopped server's process a moment to end: `pg_ctl stop --wait` returns once the server
 * removed its lock file, which it does just before it exits (a busy machine shows the gap).
 */
async function waitForExit(pid: number, timeoutMs = 5_000) {
  const deadline = Date.now() + timeoutMs;
  while (isAlive(pid) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
}

function ownerOf(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
  return Number(status.match(/^Uid:\s+(\d+)/m)?.[1]);
}

describe("the embedded PostgreSQL server", () => {
  it("initialises DATA_DIR/postgres on first start, owner-only, with a generated password file 0600", TIMEOUT, async () => {
    const dataDir = createDataDir(cleanUps);
    const server = await start(dataDir);
    const clusterDir = path.join(dataDir, POSTGRES_DIRECTORY);

    expect(server.startedHere).toBe(true);
    expect(fs.existsSync(path.join(clusterDir, "PG_VERSION"))).toBe(true);
    expect(modeOf(clusterDir)).toBe(0o700);
    expect(modeOf(path.join(dataDir, POSTGRES_PASSWORD_FILE))).toBe(0o600);
    // Nothing else is left behind by the initialisation (its scratch directory is gone).
    expect(fs.readdirSync(dataDir).sort()).toEqual([POSTGRES_DIRECTORY, POSTGRES_PASSWORD_FILE]);
    // Only the server's user may enter DATA_DIR: 0700, or 0710 for the server's group when root.
    expect(modeOf(dataDir)).toBe(isRoot ? 0o710 : 0o700);

    const [setting] = await query<{ server_version: string }>(server.url, "SHOW server_version");
    expect(setting?.server_version).toMatch(/^18\./);
  });

  it("listens on loopback only, with no Unix socket, and refuses a wrong password", TIMEOUT, async () => {
    const server = await start(createDataDir(cleanUps));

    // unix_socket_directories is for superusers to read.
    const settings = await query<{ name: string; setting: string }>(
      server.adminUrlFor("postgres"),
      "SELECT name, setting FROM pg_settings WHERE name IN ('listen_addresses', 'unix_socket_directories') ORDER BY name",
    );
    expect(settings).toEqual([
      { name: "listen_addresses", setting: "127.0.0.1" },
      { name: "unix_socket_directories", setting: "" },
    ]);
    const wrong = new URL(server.url);
    wrong.password = "not-the-password";
    await expect(query(wrong.toString(), "SELECT 1")).rejects.toThrow(/password authentication failed/);
  });

  it.runIf(isRoot)("runs the server as an unprivileged account when started by root", TIMEOUT, async () => {
    const dataDir = createDataDir(cleanUps);
    await start(dataDir);
    const clusterDir = path.join(dataDir, POSTGRES_DIRECTORY);
    const lock = readServerLock(clusterDir)!;

    const postgresUid = fs.statSync(clusterDir).uid;
    expect(postgresUid).not.toBe(0);
    expect(ownerOf(lock.pid)).toBe(postgresUid);
    // DATA_DIR stays root's; the server's group may only pass through it.
    expect(fs.statSync(dataDir).uid).toBe(0);
    expect(fs.statSync(dataDir).gid).toBe(fs.statSync(clusterDir).gid);
  });

  it.runIf(isRoot)("refuses, naming it, a DATA_DIR the server's user cannot reach", TIMEOUT, async () => {
    const closed = fs.mkdtempSync(path.join(os.tmpdir(), "hookmail-closed-"));
    cleanUps.push(() => fs.rmSync(closed, { recursive: true, force: true }));
    fs.chmodSync(closed, 0o700);

    await expect(startEmbeddedServer({ dataDir: path.join(closed, "data") })).rejects.toThrow(
      `cannot pass through ${closed} to reach DATA_DIR`,
    );
  });

  it("stops the server on release when no other process holds it", TIMEOUT, async () => {
    const dataDir = createDataDir(cleanUps);
    const server = await start(dataDir);
    const { pid } = readServerLock(path.join(dataDir, POSTGRES_DIRECTORY))!;

    expect(await server.release()).toEqual({ stopped: true, otherProcesses: 0 });
    expect(readServerLock(path.join(dataDir, POSTGRES_DIRECTORY))).toBeNull();
    await waitForExit(pid);
    expect(isAlive(pid)).toBe(false);
  });

  it("keeps the data, the password and the database across a stop and a start", TIMEOUT, async () => {
    const dataDir = createDataDir(cleanUps);
    const first = await start(dataDir);
    await query(first.url, "CREATE TABLE kept (note text); INSERT INTO kept VALUES ('still here')");
    await first.release();

    const second = await start(dataDir);
    expect(second.startedHere).toBe(true);
    expect(await query(second.url, "SELECT note FROM kept")).toEqual([{ note: "still here" }]);
  });

  it("shares one server between processes of one DATA_DIR, and only the last one to let go stops it", TIMEOUT, async () => {
    const dataDir = createDataDir(cleanUps);
    const first = await start(dataDir);
    const second = await start(dataDir);
    const { pid } = readServerLock(path.join(dataDir, POSTGRES_DIRECTORY))!;

    expect([first.startedHere, second.startedHere]).toEqual([true, false]);
    expect(new URL(second.url).port).toBe(new URL(first.url).port);

    expect(await first.release()).toEqual({ stopped: false, otherProcesses: 1 });
    expect(isAlive(pid)).toBe(true);
    expect(await query(second.url, "SELECT 1 AS ok")).toEqual([{ ok: 1 }]);

    expect(await second.release()).toEqual({ stopped: true, otherProcesses: 0 });
    expect(isAlive(pid)).toBe(false);
  });

  it("initialises and starts one server when two processes start on a fresh DATA_DIR at once", TIMEOUT, async () => {
    const dataDir = createDataDir(cleanUps);
    const servers = await Promise.all([start(dataDir), start(dataDir)]);

    expect(servers.map((server) => server.startedHere).sort()).toEqual([false, true]);
    expect(new URL(servers[0].url).port).toBe(new URL(servers[1].url).port);
    expect(fs.readdirSync(dataDir).sort()).toEqual([POSTGRES_DIRECTORY, POSTGRES_PASSWORD_FILE]);
  });

  it("starts after a crash whose postmaster.pid names a process that is not PostgreSQL (a reused pid)", TIMEOUT, async () => {
    const dataDir = createDataDir(cleanUps);
    const clusterDir = path.join(dataDir, POSTGRES_DIRECTORY);
    const first = await start(dataDir);
    const lockFile = fs.readFileSync(path.join(clusterDir, "postmaster.pid"), "utf8");
    await first.release();
    // The file as a server that died with the machine left it, its pid now another program's.
    const other = spawn("sleep", ["60"], { stdio: "ignore" });
    cleanUps.push(() => void other.kill());
    const stale = lockFile.split("\n");
    stale[0] = String(other.pid);
    fs.writeFileSync(path.join(clusterDir, "postmaster.pid"), stale.join("\n"));
    expect(readServerLock(clusterDir)).toMatchObject({ pid: other.pid, isAlive: false });

    const second = await start(dataDir);

    expect(second.startedHere).toBe(true);
    expect(readServerLock(clusterDir)).toMatchObject({ status: "ready", isAlive: true });
    expect(isAlive(other.pid!)).toBe(true);
  });

  it("uses again the server a killed process left running, rather than starting a second one", TIMEOUT, async () => {
    const dataDir = createDataDir(cleanUps);
    const clusterDir = path.join(dataDir, POSTGRES_DIRECTORY);
    // The process that started it is gone without releasing it: its keeper connection ends.
    const keeper = await startEmbeddedServer({ dataDir, settings: { fsync: "off" } });
    const { pid } = readServerLock(clusterDir)!;
    await query(
      keeper.adminUrlFor("postgres"),
      "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'hookmail-keeper'",
    );

    const next = await start(dataDir);

    expect(next.startedHere).toBe(false);
    expect(readServerLock(clusterDir)!.pid).toBe(pid);
    expect(await next.release()).toEqual({ stopped: true, otherProcesses: 0 });
  });

  it("is the database of a process without DATABASE_URL, and closing that database lets go of the server", TIMEOUT, async () => {
    const dataDir = createDataDir(cleanUps);
    const database = await openConfiguredDatabase({ databaseUrl: undefined, dataDir });
    const { pid } = readServerLock(path.join(dataDir, POSTGRES_DIRECTORY))!;

    expect(database.description).toMatch(
      new RegExp(`^embedded PostgreSQL in ${dataDir} \\(PostgreSQL hookmail on 127\\.0\\.0\\.1:\\d+\\)$`),
    );
    expect(await database.executor.query("SELECT current_user AS name")).toEqual([{ name: APP_ROLE }]);

    await database.close();
    await waitForExit(pid);
    expect(isAlive(pid)).toBe(false);
  });
});

describe("the port", () => {
  it(
    "is a free loopback port chosen at each start, so a port taken meanwhile does not stop the next start",
    TIMEOUT,
    async () => {
      const dataDir = createDataDir(cleanUps);
      const first = await start(dataDir);
      const port = Number(new URL(first.url).port);
      await first.release();
      const squatter = net.createServer();
      await new Promise<void>((resolve) => squatter.listen(port, "127.0.0.1", resolve));
      cleanUps.push(() => new Promise<void>((resolve) => squatter.close(() => resolve())));

      const second = await start(dataDir);

      expect(Number(new URL(second.url).port)).not.toBe(port);
    },
  );
});
