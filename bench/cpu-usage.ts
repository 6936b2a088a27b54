// CPU time from /proc for the benchmarks: of processes (utime + stime, all threads), of PostgreSQL's
// backends and background processes, and of the whole machine, taken as snapshots and diffed.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import type pg from "pg";
import { now } from "./common";

/** A process whose CPU is measured, by its name in the output. */
export type MeasuredProcess = { name: string; pid: number };

const CLOCK_TICKS_PER_SECOND = readClockTicksPerSecond();

function readClockTicksPerSecond(): number {
  try {
    return Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim()) || 100;
  } catch {
    return 100;
  }
}

/** utime + stime of a process (all its threads), in seconds; undefined once it is gone. */
function readProcessCpuSeconds(pid: number): number | undefined {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    // Fields after "(comm)": state is field 3, utime field 14, stime field 15.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS_PER_SECOND;
  } catch {
    return undefined;
  }
}

/** Busy and total CPU seconds of the whole machine (all cores), from the first line of /proc/stat. */
function readMachineCpuSeconds(): { busy: number; iowait: number; total: number } {
  const [, ...values] = fs.readFileSync("/proc/stat", "utf8").split("\n")[0]!.trim().split(/\s+/);
  const [user, nice, system, idle, iowait, irq, softirq, steal] = values.map(Number) as number[];
  const busy = user! + nice! + system! + irq! + softirq! + steal!;
  return {
    busy: busy / CLOCK_TICKS_PER_SECOND,
    iowait: iowait! / CLOCK_TICKS_PER_SECOND,
    total: (busy + idle! + iowait!) / CLOCK_TICKS_PER_SECOND,
  };
}

/**
 * CPU seconds of PostgreSQL's processes: the backends connected to the bench database (except
 * `admin`'s own), and the server-wide background processes (WAL writer, checkpointer, …).
 */
async function readPostgresCpu(admin: pg.Client): Promise<{ backends: Map<number, number>; background: Map<number, number> }> {
  const { rows } = await admin.query<{ pid: number; isBackend: boolean }>(
    `SELECT pid, datname IS NOT NULL AS "isBackend" FROM pg_stat_activity
     WHERE (datname = current_database() AND pid <> pg_backend_pid()) OR datname IS NULL`,
  );
  const backends = new Map<number, number>();
  const background = new Map<number, number>();
  for (const { pid, isBackend } of rows) {
    const seconds = readProcessCpuSeconds(pid);
    if (seconds !== undefined) (isBackend ? backends : background).set(pid, seconds);
  }
  return { backends, background };
}

/** The CPU seconds the processes of `after` used since `before` (all of it for those that started since). */
function sumCpuSince(before: Map<number, number>, after: Map<number, number>): number {
  let seconds = 0;
  for (const [pid, total] of after) seconds += total - (before.get(pid) ?? 0);
  return seconds;
}

/**
 * CPU seconds used so far by this process (all its threads) and, given `admin` (a connection to the
 * measured database), by PostgreSQL's backends on that database and its background processes. A
 * phase's cost is the difference of two readings, as long as no backend closes in between (a pool's
 * connections stay open).
 */
export async function readCpuSecondsSoFar(admin?: pg.Client): Promise<{ process: number; postgres: number }> {
  const usage = process.cpuUsage();
  let postgres = 0;
  if (admin) {
    const { backends, background } = await readPostgresCpu(admin);
    for (const processSeconds of [...backends.values(), ...background.values()]) postgres += processSeconds;
  }
  return { process: (usage.user + usage.system) / 1e6, postgres };
}

export type CpuSnapshot = {
  at: number;
  products: Map<number, number | undefined>;
  postgres: { backends: Map<number, number>; background: Map<number, number> };
  machine: { busy: number; iowait: number; total: number };
  bench: NodeJS.CpuUsage;
};

export async function snapshotCpu(products: MeasuredProcess[], admin: pg.Client): Promise<CpuSnapshot> {
  return {
    at: now(),
    products: new Map(products.map(({ pid }) => [pid, readProcessCpuSeconds(pid)])),
    postgres: await readPostgresCpu(admin),
    machine: readMachineCpuSeconds(),
    bench: process.cpuUsage(),
  };
}

export type CpuUse = {
  wallSeconds: number;
  products: { name: string; seconds: number }[];
  /** Backends present at the end; a backend that closed during the phase is not counted. */
  postgresSeconds: number;
  /** PostgreSQL's server-wide background processes (other databases' load drives them too). */
  postgresBackgroundSeconds: number;
  benchSeconds: number;
  machineBusySeconds: number;
  machineIowaitSeconds: number;
  machineCores: number;
};

export function diffCpu(products: MeasuredProcess[], before: CpuSnapshot, after: CpuSnapshot): CpuUse {
  const _bench = process.cpuUsage(before.bench);
  return {
    wallSeconds: (after.at - before.at) / 1000,
    products: products.map(({ name, pid }) => ({
      name,
      seconds: (after.products.get(pid) ?? NaN) - (before.products.get(pid) ?? NaN),
    })),
    postgresSeconds: sumCpuSince(before.postgres.backends, after.postgres.backends),
    postgresBackgroundSeconds: sumCpuSince(before.postgres.background, after.postgres.background),
    benchSeconds: (after.bench.user + after.bench.system - before.bench.user - before.bench.system) / 1e6,
    machineBusySeconds: after.machine.busy - before.machine.busy,
    machineIowaitSeconds: after.machine.iowait - before.machine.iowait,
    machineCores: (after.machine.total - before.machine.total) / ((after.at - before.at) / 1000),
  };
}
