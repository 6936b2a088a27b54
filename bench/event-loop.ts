// Event-loop delay under hostile and large mail (docs/security.md): while the bad-input corpus of the
// reliability tests (fixture corpus, generated exotic messages, seeded mutations) and a 25 MiB
// message are received over SMTP and POST /api/inbound/raw, GET /api/health is polled every ~10 ms.
// Two heavier hostile messages are added (19,000 MIME parts; 8 MiB of HTML-only markup;
// BENCH_EVENT_LOOP_LOAD=large,corpus,heavy picks the parts). Printed: the health latency
// (p50/p99/max) beside the goal "p99 ≤ 50 ms", and the event-loop delay of the product's process
// (perf_hooks.monitorEventLoopDelay, measured inside it).
//
// The product runs in a child process of its own (event-loop.product.ts, forked with --product).
// Side by side, alternating, the same load with the message parsed on the main thread: a switch of
// this benchmark only (it sets the process's parser to the same code run in-thread), not a product
// setting. BENCH_EVENT_LOOP_ROUNDS (default 3) rounds of both; BENCH_EVENT_LOOP_MODES=pool runs the
// product's mode alone (when two checkouts are compared, say).
import { fork } from "node:child_process";
import os from "node:os";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import { buildHtmlOnlyMessage, buildLargeMessage, buildManyPartsMessage } from "../tests/support/heavy-messages";
import { startWebhookSink } from "../tests/support/webhook-sink";
import { findDatabaseUrlServer, startEmbeddedBenchServer } from "./bench-database";
import { percentile } from "./common";
import { type BenchMode, HTTP_USER, INBOUND_SECRET, MAX_MESSAGE_BYTES, SMTP_USER } from "./event-loop.product";

const HEALTH_INTERVAL_MS = 10;
const GOAL_P99_MS = 50;
const ROUNDS = Number(process.env.BENCH_EVENT_LOOP_ROUNDS ?? 3);
const MODES = (process.env.BENCH_EVENT_LOOP_MODES ?? "pool,main")
  .split(",")
  .filter((mode): mode is BenchMode => ["pool", "main"].includes(mode));
const CONCURRENCY_PER_ROUTE = 3;
const MUTATION_COUNT = 60;

type Delay = { p50: number; p99: number; max: number };
type Run = {
  mode: BenchMode;
  health: Delay & { count: number; failures: number };
  loop: Delay;
  seconds: number;
  answers: Record<string, number>;
};

// ---------------------------------------------------------------------------------------------
// The load (this process)

async function buildLoad() {
  const { createRandom, generateExoticMessages, loadFixtureCorpus, mutateMessages, MUTATION_BASE_FOLDERS } = await import(
    "@/tests/reliability/support/mail-corpus"
  );
  const fixtures = loadFixtureCorpus();
  const bases = fixtures.filter(({ name }) => MUTATION_BASE_FOLDERS.some((folder) => name.startsWith(`corpus/${folder}/`)));
  const corpus = [
    ...fixtures,
    ...generateExoticMessages({ oversizeBytes: MAX_MESSAGE_BYTES + 64 * 1024 }),
    ...mutateMessages({ bases, count: MUTATION_COUNT, random: createRandom(20261123) }),
  ].map(({ raw }) => raw);
  const to = "large@hookmail.test";
  return { corpus, large: buildLargeMessage({ to }), heavy: [buildManyPartsMessage({ to }), buildHtmlOnlyMessage({ to })] };
}

function startProduct(mode: BenchMode, sinkUrl: string, serverUrl: string) {
  const child = fork(fileURLToPath(new URL("./event-loop.product.ts", import.meta.url)), ["--product", mode, sinkUrl], {
    execArgv: [
      "--import",
      "tsx",
      ...(process.env.BENCH_EVENT_LOOP_PROFILE ? ["--cpu-prof", `--cpu-prof-dir=${process.env.BENCH_EVENT_LOOP_PROFILE}`] : []),
    ],
    env: { ...process.env, BENCH_SERVER_URL: serverUrl },
    stdio: ["inherit", "inherit", "inherit", "ipc"],
  });
  const next = <T>(key: string) =>
    new Promise<T>((resolve, reject) => {
      const onMessage = (message: Record<string, unknown>) => {
        if (!(key in message)) return;
        child.off("message", onMessage);
        resolve(message as T);
      };
      child.on("message", onMessage);
      child.once("exit", (code) => reject(new Error(`the product process exited with ${code}`)));
    });
  return { child, next };
}

/**
 * Polls the health route from a thread of its own, one request at a time, HEALTH_INTERVAL_MS apart:
 * the latencies are not those of this thread, busy sending 25 MiB.
 */
function startHealthPoller(url: string) {
  const poller = new Worker(
    `
    const http = require("node:http");
    const { parentPort, workerData } = require("node:worker_threads");
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const latencies = [];
    let failures = 0;
    let isPolling = true;
    parentPort.once("message", () => (isPolling = false));
    (async () => {
      while (isPolling) {
        const sentAt = performance.now();
        const status = await new Promise((resolve) => {
          const request = http.get(workerData.url, { agent }, (response) => {
            response.resume();
            response.on("end", () => resolve(response.statusCode));
          });
          request.on("error", () => resolve(0));
        });
        latencies.push(performance.now() - sentAt);
        if (status !== 200) failures += 1;
        await new Promise((resolve) => setTimeout(resolve, workerData.intervalMs));
      }
      agent.destroy();
      parentPort.postMessage({ latencies, failures });
    })();
    `,
    { eval: true, workerData: { url, intervalMs: HEALTH_INTERVAL_MS } },
  );
  return {
    stop: () =>
      new Promise<{ latencies: number[]; failures: number }>((resolve) => {
        poller.once("message", (result: { latencies: number[]; failures: number }) => {
          void poller.terminate();
          resolve(result);
        });
        poller.postMessage("stop");
      }),
  };
}

async function runOnce(
  mode: BenchMode,
  load: { corpus: Buffer[]; large: Buffer; heavy: Buffer[] },
  sinkUrl: string,
  serverUrl: string,
): Promise<Run> {
  const { sendRawSmtp, postRawInbound } = await import("@/tests/reliability/support/raw-senders");
  const product = startProduct(mode, sinkUrl, serverUrl);
  const { smtpPort, httpPort } = await product.next<{ smtpPort: number; httpPort: number }>("ready");
  const baseUrl = `http://127.0.0.1:${httpPort}`;
  const answers: Record<string, number> = {};
  const count = (answer: string) => (answers[answer] = (answers[answer] ?? 0) + 1);

  product.child.send({ command: "start" });
  await product.next("started");
  const startedAt = performance.now();
  const poller = startHealthPoller(`${baseUrl}/api/health`);
  const sendAll = async (messages: Buffer[], send: (raw: Buffer) => Promise<string>) => {
    let next = 0;
    await Promise.all(
      Array.from({ length: CONCURRENCY_PER_ROUTE }, async () => {
        while (next < messages.length) count(await send(messages[next++]!));
      }),
    );
  };
  const bySmtp = (raw: Buffer) =>
    sendRawSmtp({ port: smtpPort, from: "sender@example.org", to: [`${SMTP_USER}@hookmail.test`], raw }).then((outcome) =>
      outcome.kind === "reply" ? `smtp ${outcome.code}` : "smtp no-reply",
    );
  const byHttp = (raw: Buffer) =>
    postRawInbound({
      baseUrl,
      inboundSecret: INBOUND_SECRET,
      raw,
      envelopeFrom: "sender@example.org",
      envelopeTo: `${HTTP_USER}@hookmail.test`,
    }).then((outcome) => (outcome.kind === "response" ? `http ${outcome.status}` : "http no-response"));
  const parts = process.env.BENCH_EVENT_LOOP_LOAD?.split(",") ?? ["large", "corpus", "heavy"];
  await Promise.all([
    ...(parts.includes("large") ? [bySmtp(load.large).then(count), byHttp(load.large).then(count)] : []),
    ...(parts.includes("heavy") ? load.heavy.flatMap((raw) => [bySmtp(raw).then(count), byHttp(raw).then(count)]) : []),
    ...(parts.includes("corpus") ? [sendAll(load.corpus, bySmtp), sendAll(load.corpus, byHttp)] : []),
  ]);
  const { latencies, failures } = await poller.stop();
  const seconds = (performance.now() - startedAt) / 1000;
  product.child.send({ command: "stop" });
  const { loop } = await product.next<{ loop: Delay }>("loop");
  product.child.send({ command: "close" });
  await product.next("closed").catch(() => undefined);

  const sorted = latencies.sort((a, b) => a - b);
  return {
    mode,
    health: {
      p50: percentile(sorted, 50),
      p99: percentile(sorted, 99),
      max: sorted.at(-1) ?? NaN,
      count: sorted.length,
      failures,
    },
    loop,
    seconds,
    answers,
  };
}

const f = (ms: number) => ms.toFixed(1).padStart(7);
const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};
const verdict = (p99: number) => (p99 <= GOAL_P99_MS ? "met" : "NOT met");
const label = (mode: BenchMode) => (mode === "pool" ? "parse pool (the product)" : "main thread (bench switch)");

function printRun(index: number, run: Run) {
  const answers = Object.entries(run.answers)
    .sort()
    .map(([answer, n]) => `${answer}×${n}`)
    .join(" ");
  console.log(
    `  run ${index} ${label(run.mode).padEnd(27)} health p50 ${f(run.health.p50)} p99 ${f(run.health.p99)} max ${f(run.health.max)} ms (${run.health.count} polls, ${run.health.failures} not 200)` +
      ` | event-loop delay p50 ${f(run.loop.p50)} p99 ${f(run.loop.p99)} max ${f(run.loop.max)} ms | ${run.seconds.toFixed(1)} s | ${answers}`,
  );
}

async function main() {
  const load = await buildLoad();
  console.log(
    `event-loop: ${load.corpus.length} bad-input messages, one of ${(load.large.length / 1048576).toFixed(1)} MiB and two heavy ones (19,000 parts; 8 MiB HTML-only), each over SMTP and POST /api/inbound/raw (${CONCURRENCY_PER_ROUTE} at a time per route), GET /api/health every ${HEALTH_INTERVAL_MS} ms; ${ROUNDS} round(s) of ${MODES.join(" and ")}${MODES.length > 1 ? ", alternating" : ""}; node ${process.version}, ${os.availableParallelism()} CPUs`,
  );
  const server = findDatabaseUrlServer() ?? (await startEmbeddedBenchServer());
  console.log(
    `  on ${server.kind === "embedded" ? "the embedded PostgreSQL server (DATABASE_URL unset)" : "the PostgreSQL server of DATABASE_URL"}`,
  );
  const sink = await startWebhookSink({ keepBodies: false });
  const runs: Run[] = [];
  try {
    for (let round = 0; round < ROUNDS; round += 1) {
      const order = round % 2 === 0 ? MODES : [...MODES].reverse();
      for (const mode of order) {
        const run = await runOnce(mode, load, sink.url(), server.adminUrl);
        runs.push(run);
        printRun(runs.length, run);
      }
    }
  } finally {
    await sink.close();
    await server.stop();
  }
  console.log(`summary (goal: GET /api/health p99 ≤ ${GOAL_P99_MS} ms while the load is received; medians over the runs):`);
  const medians = (mode: BenchMode) => {
    const of = runs.filter((run) => run.mode === mode);
    return {
      health: {
        p50: median(of.map((run) => run.health.p50)),
        p99: median(of.map((run) => run.health.p99)),
        max: median(of.map((run) => run.health.max)),
      },
      loop: {
        p50: median(of.map((run) => run.loop.p50)),
        p99: median(of.map((run) => run.loop.p99)),
        max: median(of.map((run) => run.loop.max)),
      },
      worstHealthP99: Math.max(...of.map((run) => run.health.p99)),
    };
  };
  for (const mode of MODES) {
    const m = medians(mode);
    console.log(
      `  ${label(mode).padEnd(27)} health p50 ${f(m.health.p50)} p99 ${f(m.health.p99)} max ${f(m.health.max)} ms → ${verdict(m.health.p99)} (worst run p99 ${m.worstHealthP99.toFixed(1)} ms: ${verdict(m.worstHealthP99)})` +
        ` | event-loop delay p50 ${f(m.loop.p50)} p99 ${f(m.loop.p99)} max ${f(m.loop.max)} ms`,
    );
  }
  if (MODES.length < 2) return;
  const pool = medians("pool");
  const main = medians("main");
  const ratio = (mine: number, other: number) => `${(other / mine).toFixed(1)}×`;
  console.log(
    `  main thread / pool: health p99 ${ratio(pool.health.p99, main.health.p99)}, max ${ratio(pool.health.max, main.health.max)}; event-loop delay p99 ${ratio(pool.loop.p99, main.loop.p99)}, max ${ratio(pool.loop.max, main.loop.max)}`,
  );
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
