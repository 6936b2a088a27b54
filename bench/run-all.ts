// `npm run bench`: runs each benchmark file in its own process, one after the other.
import { spawnSync } from "node:child_process";
import path from "node:path";

const BENCHMARKS = ["relay-throughput.ts"];

let failed = 0;
for (const file of BENCHMARKS) {
  console.log(`\n=== ${file} ===`);
  const result = spawnSync(process.execPath, ["--import", "tsx", path.join("bench", file)], { stdio: "inherit", env: process.env });
  if (result.status !== 0) {
    failed += 1;
    console.error(`${file} exited with ${result.status ?? result.signal}`);
  }
}
process.exit(failed ? 1 : 0);
