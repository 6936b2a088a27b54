// The embedded PostgreSQL server an app runs in DATA_DIR/postgres, seen from outside as an operator
// sees it (README: Run it): its postmaster.pid, its processes, and a connection with the password
// the app generated.
import fs from "node:fs";
import path from "node:path";
import { POSTGRES_DIRECTORY, POSTGRES_PASSWORD_FILE, readServerLock, type ServerLock } from "@/modules/db/embedded-server";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function getClusterDir(dataDir: string): string {
  return path.join(dataDir, POSTGRES_DIRECTORY);
}

/** What DATA_DIR/postgres/postmaster.pid says (null: no such file). */
export function readEmbeddedServerLock(dataDir: string): ServerLock | null {
  return readServerLock(getClusterDir(dataDir));
}

/** The `hookmail` database of the server running in DATA_DIR, as `psql` would reach it. */
export function getEmbeddedDatabaseUrl(dataDir: string): string {
  const lock = readEmbeddedServerLock(dataDir);
  if (!lock?.isAlive) throw new Error(`no embedded PostgreSQL runs in ${dataDir}`);
  const password = fs.readFileSync(path.join(dataDir, POSTGRES_PASSWORD_FILE), "utf8").trim();
  return `postgres://hookmail:${encodeURIComponent(password)}@127.0.0.1:${lock.port}/hookmail`;
}

type ProcessStatus = { state: string; parentPid: number; commandLine: string };

function readProcessStatus(pid: number): ProcessStatus | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    // "pid (command) state ppid …": the command may hold spaces and parentheses.
    const [state = "", parentPid] = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const commandLine = fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").replaceAll("\0", " ");
    return { state, parentPid: Number(parentPid), commandLine };
  } catch {
    return null;
  }
}

/** Of `pids`, those alive. A zombie is dead already: a killed postmaster waits as one until the machine's init reaps it. */
export function findLiveProcesses(pids: number[]): number[] {
  return pids.filter((pid) => {
    const status = readProcessStatus(pid);
    return status !== null && status.state !== "Z";
  });
}

function listAllPids(): number[] {
  return fs
    .readdirSync("/proc")
    .filter((entry) => /^\d+$/.test(entry))
    .map(Number);
}

/**
 * The running server's processes: the postmaster of postmaster.pid and its children (each of
 * which PostgreSQL puts in a session of its own, so they are found by parent, not by group).
 */
export function listServerProcesses(dataDir: string): number[] {
  const lock = readEmbeddedServerLock(dataDir);
  if (!lock?.isAlive) return [];
  const children = listAllPids().filter((pid) => readProcessStatus(pid)?.parentPid === lock.pid);
  return findLiveProcesses([lock.pid, ...children]);
}

/** Live processes whose command line names DATA_DIR/postgres (a postmaster of that cluster). */
export function findProcessesNamingCluster(dataDir: string): number[] {
  const clusterDir = getClusterDir(dataDir);
  return findLiveProcesses(listAllPids().filter((pid) => readProcessStatus(pid)?.commandLine.includes(clusterDir)));
}

/** SIGKILL to every process of the server at once, as when the machine loses power (short of the disk): postmaster.pid stays behind. */
export async function killServer(dataDir: string): Promise<void> {
  const pids = listServerProcesses(dataDir);
  for (const pid of pids) process.kill(pid, "SIGKILL");
  await waitForProcessesToEnd(pids, 10_000);
}

/** Waits until none of `pids` is alive (or the time is up), and answers those still alive. */
export async function waitForProcessesToEnd(pids: number[], timeoutMs: number): Promise<number[]> {
  const deadline = Date.now() + timeoutMs;
  let left = findLiveProcesses(pids);
  while (left.length > 0 && Date.now() < deadline) {
    await sleep(50);
    left = findLiveProcesses(left);
  }
  return left;
}

/** Clean-up after a failed test: stops a server the app left running (fast shutdown), so DATA_DIR can go. */
export async function stopLeftoverServer(dataDir: string): Promise<void> {
  const pids = listServerProcesses(dataDir);
  if (pids.length === 0) return;
  process.kill(pids[0] as number, "SIGINT");
  const left = await waitForProcessesToEnd(pids, 30_000);
  for (const pid of left) process.kill(pid, "SIGKILL");
}
