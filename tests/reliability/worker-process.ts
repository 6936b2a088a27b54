// Child process of the multi-worker reliability test: one delivery worker with a pool of its own on
// the PostgreSQL database it is given. Prints "ready" once connected, starts polling on "go" (a line
// on stdin, so that every worker starts together), and stops on SIGTERM (attempts in flight finish).
// Every webhook request carries `x-test-worker: <name>`, so the sink can tell the workers apart. An
// optional fourth argument sets the claims' lease.

import { createInterface } from "node:readline";
import { openDatabase } from "@/modules/db/db";
import { createDeliveryWorker } from "@/modules/delivery/delivery-worker";
import { postWebhook } from "@/modules/delivery/webhook-client";
import { createProcessMetrics } from "@/modules/metrics/metrics.registry";
import { createLogger } from "@/modules/shared/logging/logger";

const [url = "", name = "worker", pollIntervalArg = "100", leaseArg] = process.argv.slice(2);
if (!url) throw new Error("usage: worker-process.ts <postgres url> <name> [pollIntervalMs] [leaseMs]");

const database = await openDatabase({ url, poolSize: 4 });
await database.executor.query("SELECT 1");
const worker = createDeliveryWorker({
  metrics: createProcessMetrics(),
  database,
  config: { webhook: { timeoutMs: 10_000, allowPrivateTargets: true } },
  logger: createLogger({ destination: process.stderr }).child({ worker: name }),
  client: { postWebhook: (request) => postWebhook({ ...request, headers: { ...request.headers, "x-test-worker": name } }) },
  pollIntervalMs: Number(pollIntervalArg),
  // A short lease lets a test see a killed worker's claims taken over without waiting a minute.
  ...(leaseArg ? { leaseMs: Number(leaseArg) } : {}),
});

let isStopping = false;
const stop = async () => {
  if (isStopping) return;
  isStopping = true;
  await worker.stop();
  await database.close();
  process.stdout.write("stopped\n");
  process.exit(0);
};
process.on("SIGTERM", () => void stop());

createInterface({ input: process.stdin }).on("line", (line) => {
  if (line.trim() === "go") worker.start();
});
process.stdout.write("ready\n");
// The poll timer is unref'd: keep the process alive until it is told to stop.
setInterval(() => undefined, 60_000);
