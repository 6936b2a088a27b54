// One benchmark in two checkouts of the project, in alternation: before, after, before, after, …
// A change is measured against its parent on this shared machine, whose speed drifts within the
// hour, so the two sides take turns rather than running one after the other in blocks
// (bench/RESULTS.md: Commands).
//
//   npx tsx bench/compare-commits.ts <before> <after> <benchmark file> [--runs N]
//     [--metric "name=regular expression"]… [--worktrees-dir dir] [--log-dir dir] [--keep]
//
// <before> and <after> are each an existing checkout directory ("." for this one) or a git
// revision. A revision is checked out in a detached worktree (<worktrees-dir>/compare-<commit>,
// beside this checkout by default) with a copy of this checkout's node_modules and its own Prisma
// client; the worktrees made here are removed at the end, unless --keep (a kept one is reused).
// Each run is the benchmark file in its own process (`node --import tsx <file>`) in that checkout,
// with this process's environment (BENCH_ROUNDS, BENCH_MAILS, … the same for both sides); its
// output is kept in --log-dir. Each --metric reads one figure from a run's output: the first group
// of its regular expression. The end prints each run's figures and, per metric, the median of each
// side with its spread and after / before, as Markdown tables.
import { execFileSync, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { formatSpread, median } from "./bench-database";

type SideLabel = "before" | "after";
type Side = { label: SideLabel; dir: string; commit: string; dirty: boolean; madeHere: boolean };
type Metric = { name: string; pattern: RegExp };
type Run = { round: number; side: SideLabel; startedAt: Date; load: number; seconds: number; figures: number[] };

const projectDir = process.cwd();
const git = (cwd: string, ...args: string[]) => execFileSync("git", args, { cwd, encoding: "utf8" }).trim();

function parseMetric(spec: string): Metric {
  const at = spec.indexOf("=");
  if (at <= 0) throw new Error(`--metric "${spec}": expected "name=regular expression"`);
  return { name: spec.slice(0, at), pattern: new RegExp(spec.slice(at + 1), "m") };
}

/** A directory is used as it is; a revision gets its own worktree (made by prepareWorktree). */
function resolveSide(label: SideLabel, spec: string, worktreesDir: string): Side {
  if (fs.existsSync(spec) && fs.statSync(spec).isDirectory()) {
    const dir = path.resolve(spec);
    const dirty = git(dir, "status", "--porcelain", "--untracked-files=no") !== "";
    return { label, dir, commit: git(dir, "rev-parse", "--short", "HEAD"), dirty, madeHere: false };
  }
  const commit = git(projectDir, "rev-parse", "--short", `${spec}^{commit}`);
  return { label, dir: path.join(worktreesDir, `compare-${commit}`), commit, dirty: false, madeHere: true };
}

function prepareWorktree(side: Side) {
  if (fs.existsSync(side.dir)) {
    const commit = git(side.dir, "rev-parse", "--short", "HEAD");
    if (commit !== side.commit) throw new Error(`${side.dir} holds ${commit}, not ${side.commit}: remove it first`);
    console.log(`${side.label}: reusing the worktree ${side.dir}`);
    side.madeHere = false;
    return;
  }
  console.log(`${side.label}: checking out ${side.commit} in ${side.dir}, with a copy of node_modules`);
  git(projectDir, "worktree", "add", "--detach", side.dir, side.commit);
  execFileSync("cp", ["-a", path.join(projectDir, "node_modules"), path.join(side.dir, "node_modules")]);
  execFileSync(process.execPath, ["scripts/prisma-generate.mjs"], { cwd: side.dir, stdio: "inherit" });
}

function runBenchmark(side: Side, benchmark: string, logFile: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", benchmark], {
      cwd: side.dir,
      env: process.env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    const log = fs.createWriteStream(logFile);
    let output = "";
    for (const stream of [child.stdout, child.stderr]) {
      stream.on("data", (chunk: Buffer) => {
        output += chunk.toString();
        log.write(chunk);
      });
    }
    child.on("error", reject);
    child.on("close", (code, signal) => {
      log.end();
      if (code === 0) resolve(output);
      else reject(new Error(`${benchmark} in ${side.dir} exited with ${code ?? signal} (its output: ${logFile})`));
    });
  });
}

function readFigure(output: string, metric: Metric): number {
  const value = Number(metric.pattern.exec(output)?.[1]);
  if (Number.isNaN(value)) console.error(`  no figure for "${metric.name}" (${metric.pattern}) in this run's output`);
  return value;
}

const clock = (date: Date) => date.toISOString().slice(11, 19);

function printTables(sides: Record<SideLabel, Side>, metrics: Metric[], runs: Run[]) {
  const describeSide = (side: Side) => `${side.commit}${side.dirty ? " + uncommitted changes" : ""}`;
  console.log(
    `\nbefore: ${describeSide(sides.before)} (${sides.before.dir}); after: ${describeSide(sides.after)} (${sides.after.dir})\n`,
  );
  console.log(`| round | side | start (UTC) | load average | seconds | ${metrics.map((metric) => metric.name).join(" | ")} |`);
  console.log(`|---|---|---|---|---|${metrics.map(() => "---|").join("")}`);
  for (const run of runs) {
    const figures = run.figures.map((figure) => String(figure)).join(" | ");
    console.log(
      `| ${run.round} | ${run.side} | ${clock(run.startedAt)} | ${run.load.toFixed(2)} | ${run.seconds.toFixed(0)} | ${figures} |`,
    );
  }
  console.log("\n| figure | before: median (min–max) | after: median (min–max) | after / before |\n|---|---|---|---|");
  for (const [index, metric] of metrics.entries()) {
    const of = (label: SideLabel) =>
      runs.filter((run) => run.side === label && !Number.isNaN(run.figures[index])).map((run) => run.figures[index]!);
    const [before, after] = [of("before"), of("after")];
    if (before.length === 0 || after.length === 0) {
      console.log(`| ${metric.name} | not read | not read | |`);
      continue;
    }
    const change = median(after) / median(before);
    console.log(`| ${metric.name} | ${formatSpread(before)} | ${formatSpread(after)} | ${change.toFixed(3)} |`);
  }
}

async function main() {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      runs: { type: "string", default: "5" },
      metric: { type: "string", multiple: true, default: [] },
      "worktrees-dir": { type: "string", default: path.dirname(projectDir) },
      "log-dir": { type: "string", default: path.join(os.tmpdir(), `hookmail-compare-${Date.now()}`) },
      keep: { type: "boolean", default: false },
    },
  });
  const [beforeSpec, afterSpec, benchmark] = positionals;
  if (!beforeSpec || !afterSpec || !benchmark) {
    throw new Error(
      "usage: npx tsx bench/compare-commits.ts <before> <after> <benchmark file> [--runs N] [--metric name=regex]…",
    );
  }
  const rounds = Number(values.runs);
  const metrics = values.metric.map(parseMetric);
  const logDir = values["log-dir"];
  fs.mkdirSync(logDir, { recursive: true });
  const sides: Record<SideLabel, Side> = {
    before: resolveSide("before", beforeSpec, values["worktrees-dir"]),
    after: resolveSide("after", afterSpec, values["worktrees-dir"]),
  };
  const runs: Run[] = [];
  try {
    for (const side of Object.values(sides)) if (side.madeHere) prepareWorktree(side);
    for (let round = 1; round <= rounds; round++) {
      for (const side of [sides.before, sides.after]) {
        const startedAt = new Date();
        const load = os.loadavg()[0]!;
        const logFile = path.join(logDir, `${round}-${side.label}.log`);
        const output = await runBenchmark(side, benchmark, logFile);
        const seconds = (Date.now() - startedAt.getTime()) / 1000;
        const figures = metrics.map((metric) => readFigure(output, metric));
        runs.push({ round, side: side.label, startedAt, load, seconds, figures });
        const read = metrics.map((metric, index) => `${metric.name} ${figures[index]}`).join(", ");
        console.log(
          `round ${round} of ${rounds}, ${side.label} (${side.commit}): ${seconds.toFixed(0)} s, load ${load.toFixed(2)}; ${read}`,
        );
      }
    }
  } finally {
    printTables(sides, metrics, runs);
    console.log(`\nruns' output: ${logDir}`);
    for (const side of Object.values(sides)) {
      if (side.madeHere && !values.keep && fs.existsSync(side.dir)) git(projectDir, "worktree", "remove", "--force", side.dir);
    }
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
