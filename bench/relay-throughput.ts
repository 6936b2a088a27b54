// Relay throughput and latency: N ~10 KB mails over C pooled SMTP sessions through the
// full product in one process (SMTP listener → pipeline recording in the database → delivery
// worker, signed → loopback sink answering 200), on PGlite and, when DATABASE_URL is set, on
// PostgreSQL; beside it the bare pipeline (bench/bare-pipeline.ts, run first and last); then POST
// /api/inbound/raw.
// Each path: a closed-loop run at C concurrent senders (maximum rate), then an open-loop run at
// half that rate for the latency goals.
//   BENCH_MAILS (default 500), BENCH_CONCURRENCY (default 8), BENCH_DATABASES (default
//   "pglite,postgres"; postgres only when DATABASE_URL is set).
import os from "node:os";
import path from "node:path";
import { loadConfig, setProcessConfig } from "@/modules/config/config";
import { migrateDatabase, openDatabase, setProcessDatabase, type Database } from "@/modules/db/db";
import { createDeliveryWorker, setDeliveryDispatcher } from "@/modules/delivery/delivery-worker";
import { isKnownRecipientAddress, receiveMessage } from "@/modules/inbound/receive-message";
import { createId } from "@/modules/shared/ids";
import { createSmtpListener } from "@/modules/smtp/smtp-listener";
import { createPostgresDatabase } from "@/tests/support/test-database";
import { POST as inboundPost } from "@/app/api/inbound/[provider]/route";
import { startBarePipeline } from "./bare-pipeline";
import {
  benchMail,
  benchMailRaw,
  drive,
  now,
  printPhase,
  smtpClient,
  stampEndOfData,
  startSink,
  summarize,
  type PhaseResult,
  type Sink,
} from "./common";

const MAILS = Number(process.env.BENCH_MAILS ?? 500);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 8);
const WARMUP = 20;
const DRAIN_TIMEOUT_MS = 180_000;
const ADDRESS = "bench@hookmail.test";
const INBOUND_SECRET = "bench-inbound-secret-0123456789";

const config = loadConfig({
  DATA_DIR: path.join(os.tmpdir(), "hookmail-bench"),
  EMAIL_DOMAINS: "hookmail.test",
  WEBHOOK_ALLOW_PRIVATE_TARGETS: "true",
  WEBHOOK_TIMEOUT_MS: "10000",
  INBOUND_SECRET,
  MAX_MESSAGE_BYTES: String(2 * 1024 * 1024),
});
setProcessConfig(config);

let phaseCounter = 0;
const idsFor = (tag: string, count: number) => {
  phaseCounter += 1;
  return Array.from({ length: count }, (_, i) => `${tag}-${phaseCounter}-${i}`);
};

/** A closed-loop run at CONCURRENCY, then an open-loop run at half the measured rate. */
async function measure(label: string, sink: Sink, send: (id: string) => Promise<void>, tag: string): Promise<{ max: PhaseResult; half: PhaseResult }> {
  const warm = idsFor(`${tag}w`, WARMUP);
  await drive({ ids: warm, concurrency: CONCURRENCY, send });
  await sink.waitFor(warm, DRAIN_TIMEOUT_MS);

  const ids = idsFor(tag, MAILS);
  const startedAt = now();
  const { errors } = await drive({ ids, concurrency: CONCURRENCY, send });
  await sink.waitFor(ids.slice(0, ids.length), DRAIN_TIMEOUT_MS).catch((error: Error) => console.error(`  ${error.message}`));
  const max = summarize(`${label} @ max (C=${CONCURRENCY})`, ids, startedAt, sink, errors);
  printPhase(max);

  const rate = max.mailsPerSecond / 2;
  const halfIds = idsFor(`${tag}h`, Math.max(50, Math.floor(MAILS / 2)));
  const halfStart = now();
  const half = await drive({ ids: halfIds, concurrency: CONCURRENCY, rate, send });
  await sink.waitFor(halfIds, DRAIN_TIMEOUT_MS).catch((error: Error) => console.error(`  ${error.message}`));
  const halfResult = summarize(`${label} @ ${rate.toFixed(1)}/s (half max)`, halfIds, halfStart, sink, half.errors);
  printPhase(halfResult);
  return { max, half: halfResult };
}

const smtpSender = (port: number) => {
  const client = smtpClient(port, CONCURRENCY);
  return { send: async (id: string) => void (await client.sendMail(benchMail(id, ADDRESS))), close: () => client.close() };
};

async function benchBare(sink: Sink) {
  const bare = await startBarePipeline({ webhookUrl: sink.url, onEndOfData: stampEndOfData });
  const sender = smtpSender(bare.port);
  try {
    return await measure("bare pipeline (SMTP)", sink, sender.send, "bare");
  } finally {
    sender.close();
    await bare.close();
  }
}

async function openBenchDatabase(kind: "pglite" | "postgres"): Promise<Database> {
  if (kind === "pglite") {
    const database = await openDatabase({ kind: "pglite", dataDir: null });
    await migrateDatabase(database, () => undefined);
    return database;
  }
  const { url, drop } = await createPostgresDatabase(process.env.DATABASE_URL!);
  const database = await openDatabase({ kind: "postgres", url, poolSize: 10 });
  await migrateDatabase(database, () => undefined);
  return { ...database, close: async () => { await database.close(); await drop(); } };
}

async function benchProduct(kind: "pglite" | "postgres", sink: Sink) {
  const database = await openBenchDatabase(kind);
  setProcessDatabase(database);
  const worker = createDeliveryWorker({ database, config, log: () => undefined });
  setDeliveryDispatcher(worker);
  const userId = createId("user");
  await database.prisma.user.create({ data: { id: userId, email: "bench@example.com", name: "Bench" } });
  await database.prisma.emailCallback.create({
    data: { id: createId("emailCallback"), userId, domain: "hookmail.test", username: "bench", webhookUrl: sink.url, webhookSecret: "bench-webhook-secret-0123456789" },
  });
  const listener = createSmtpListener({
    config: { ...config, smtp: { ...config.smtp, host: "127.0.0.1", port: 0 } },
    isAcceptableRecipient: isKnownRecipientAddress,
    receive: (args) => {
      stampEndOfData(args.raw);
      return receiveMessage(args);
    },
    log: (message, error) => console.error(`  ${message}`, error),
  });
  await listener.listen();
  const sender = smtpSender(listener.getPort());
  try {
    const smtp = await measure(`product SMTP, ${kind}`, sink, sender.send, `smtp-${kind}`);
    const raw = await measure(
      `product POST /api/inbound/raw, ${kind}`,
      sink,
      async (id) => {
        const body = await benchMailRaw(id, ADDRESS);
        const request = new Request("http://localhost:3000/api/inbound/raw", {
          method: "POST",
          headers: { authorization: `Bearer ${INBOUND_SECRET}`, "content-type": "message/rfc822", "x-envelope-to": ADDRESS },
          body: new Uint8Array(body),
        });
        stampEndOfData(body);
        const response = await inboundPost(request, { params: Promise.resolve({ provider: "raw" }) });
        if (response.status !== 200) throw new Error(`raw route answered ${response.status}: ${await response.text()}`);
      },
      `raw-${kind}`,
    );
    await worker.whenIdle();
    const recorded = await database.prisma.emailProcessing.count({ where: { status: "success" } });
    const total = await database.prisma.emailProcessing.count();
    console.log(`  ${kind}: ${recorded} of ${total} processings recorded as success`);
    return { smtp, raw };
  } finally {
    sender.close();
    await listener.close();
    await worker.stop();
    setDeliveryDispatcher(undefined);
    await database.close();
  }
}

const fmt = (n: number) => n.toFixed(1);

async function main() {
  console.log(`relay-throughput: ${MAILS} mails of ~10 KB, ${CONCURRENCY} concurrent senders; node ${process.version}, ${os.cpus().length} CPUs`);
  const sample = await benchMailRaw("sample-0", ADDRESS);
  console.log(`  message size: ${sample.length} bytes`);
  const sink = await startSink();
  try {
    // The bare pipeline runs first and last: its rate moves from run to run, and the ratio is taken
    // against the better of the two (the stricter reading).
    const bareFirst = await benchBare(sink);
    const wanted = (process.env.BENCH_DATABASES ?? "pglite,postgres").split(",").map((kind) => kind.trim());
    const kinds = (["pglite", "postgres"] as const).filter((kind) => wanted.includes(kind) && (kind === "pglite" || process.env.DATABASE_URL));
    if (!process.env.DATABASE_URL) console.log("  (DATABASE_URL unset: PostgreSQL skipped)");
    const products: { kind: string; smtp: { max: PhaseResult; half: PhaseResult }; raw: { max: PhaseResult; half: PhaseResult } }[] = [];
    for (const kind of kinds) products.push({ kind, ...(await benchProduct(kind, sink)) });
    const bareLast = await benchBare(sink);
    const bareRate = Math.max(bareFirst.max.mailsPerSecond, bareLast.max.mailsPerSecond);
    const summary: string[] = [];
    for (const { kind, smtp, raw } of products) {
      for (const [name, result] of [[`SMTP ${kind}`, smtp], [`raw ${kind}`, raw]] as const) {
        const ratio = result.max.mailsPerSecond / bareRate;
        const { p50, p99 } = result.half.latency;
        summary.push(
          `  ${name.padEnd(16)} ${fmt(result.max.mailsPerSecond)} mails/s, ratio ${ratio.toFixed(2)} (goal ≥ 0.7: ${ratio >= 0.7 ? "met" : "NOT met"}) | at half max: p50 ${fmt(p50)} ms (≤ 15: ${p50 <= 15 ? "met" : "NOT met"}), p99 ${fmt(p99)} ms (≤ 60: ${p99 <= 60 ? "met" : "NOT met"})`,
        );
      }
    }
    console.log(
      `summary (product / bare pipeline; bare at max ${fmt(bareFirst.max.mailsPerSecond)} first and ${fmt(bareLast.max.mailsPerSecond)} last, ratios against ${fmt(bareRate)} mails/s; bare at half max p50 ${fmt(bareFirst.half.latency.p50)} p99 ${fmt(bareFirst.half.latency.p99)} ms):`,
    );
    for (const line of summary) console.log(line);
  } finally {
    await sink.close();
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
