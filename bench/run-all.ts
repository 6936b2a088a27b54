// `npm run bench`: runs each benchmark file in its own process, one after the other. Each runs on
// the zero-config default, an embedded PostgreSQL server in a throwaway DATA_DIR; with DATABASE_URL
// set, those that compare the two (relay-throughput, large-message, footprint) add that server's
// figures, and the others (inbox-at-scale, scale-out, event-loop) run on it instead.
// BENCH_ONLY=<file>[,<file>] runs some of them.
import { spawnSync } from "node:child_process";
import path from "node:path";

const ALL_BENCHMARKS = [
  "footprint.ts",
  "relay-throughput.ts",
  "large-message.ts",
  "inbox-at-scale.ts",
  "dashboard-weight.ts",
  "page-experience.ts",
  "scale-out.ts",
  "event-loop.ts",
  "processing-events.ts",
  "search-index.ts",
];
const only = process.env.BENCH_ONLY?.split(",").map((name) => name.trim().replace(/(\.ts)?$/, ".ts"));
const BENCHMARKS = only ? ALL_BENCHMARKS.filter((file) => only.includes(file)) : ALL_BENCHMARKS;

let failed = 0;
for (const file of BENCHMARKS) {
  console.log(`\n=== ${file} ===`);
  const result = spawnSync(process.execPath, ["--import", "tsx", path.join("bench", file)], {
    stdio: "inherit",
    env: process.env,
  });
  if (result.status !== 0) {
    failed += 1;
    console.error(`${file} exited with ${result.status ?? result.signal}`);
  }
}
process.exit(failed ? 1 : 0);
