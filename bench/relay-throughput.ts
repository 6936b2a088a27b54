// Relay throughput and latency: ~10 KB mails through the full product in one process (SMTP
// listener → pipeline recording in the database → delivery worker, signed → loopback sink answering
// 200), on the zero-config default (the embedded PostgreSQL server, started in a throwaway DATA_DIR
// without DATABASE_URL) and, when DATABASE_URL is set, on that server; then the same through
// POST /api/inbound/raw. Beside it the bare pipeline (bench/bare-pipeline.ts).
//
// The bare pipeline's rate moves from run to run on this shared machine, so the two sides are
// measured in alternation, in rounds: bare, product SMTP, product raw route, bare, … Each round
// gives a ratio (product / that round's bare); the summary is the median ratio with its spread.
// Every path is warmed up first (JIT, connections, caches) with mails that are not counted.
// After the rounds, an open-loop run at half the product's median rate gives the latency figures.
// Then the cost of the checks on each mail (SPF, DKIM, DMARC, ARC; docs/webhooks.md: Authentication):
// DKIM-signed mails from a domain whose records a DNS server on loopback serves, through product SMTP
// with the checks off and on, in alternation (BENCH_CHECK_ROUNDS rounds, default 3).
//   BENCH_MAILS (mails per run, default 1500), BENCH_ROUNDS (default 5), BENCH_CONCURRENCY
//   (default 8), BENCH_DATABASES (default "embedded,postgres"; postgres only when DATABASE_URL is set),
//   BENCH_ENDPOINTS (the bench address's endpoints, 1 or 2, default 1: with 2, a mail of the product
//   counts as arrived when both endpoints' requests have reached the sink). ACCEPT_GROUP_WINDOW_MS and
//   ACCEPT_GROUP_MAX are handed to the product's configuration (group commit of accepted mail); each
//   run of product SMTP or the raw route prints its mails per group write.

import os from "node:os";
import path from "node:path";
import { createTransport } from "nodemailer";
import pg from "pg";
import { POST as inboundPost } from "@/app/api/inbound/[provider]/route";
import { type Config, loadConfig } from "@/modules/config/config";
import { createInboundRepository } from "@/modules/inbound/inbound.repository";
import {
  checkRecipientAddress,
  type InboundPipeline,
  type ReceiveDependencies,
  receiveMessage,
} from "@/modules/inbound/receive-message";
import { createRecipientCache, withRecipientCache } from "@/modules/inbound/recipient-cache";
import { createServices, setServices } from "@/modules/server/services";
import { createLogger, loggerOptionsFromEnvironment, silentLogger } from "@/modules/shared/logging/logger";
import { createSmtpListener } from "@/modules/smtp/smtp-listener";
import { startDnsServer, type TestDnsServer } from "@/tests/support/dns-server";
import { seedEmailCallback, seedUser } from "@/tests/support/seed";
import { createSenderDomain } from "@/tests/support/sender-domain";
import { startBarePipeline } from "./bare-pipeline";
import {
  type BenchDatabase,
  formatSpread,
  listWantedServerKinds,
  median,
  openBenchDatabase,
  type ServerKind,
  startBenchServer,
} from "./bench-database";
import {
  benchMail,
  benchMailRaw,
  drive,
  now,
  type PhaseResult,
  printPhase,
  type Sink,
  smtpClient,
  stampEndOfData,
  startSink,
  summarize,
} from "./common";
import { readCpuSecondsSoFar } from "./cpu-usage";
import { BENCH_ADDRESS, CONCURRENCY, DRAIN_TIMEOUT_MS } from "./settings";

const MAILS = Number(process.env.BENCH_MAILS ?? 1500);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const CHECK_ROUNDS = Number(process.env.BENCH_CHECK_ROUNDS ?? 3);
const WARMUP_MAILS = 300;
const PHASE_WARMUP_MAILS = 30;
const GOAL_RATIO = 0.7;
const ENDPOINTS = Number(process.env.BENCH_ENDPOINTS ?? 1);
if (ENDPOINTS !== 1 && ENDPOINTS !== 2) throw new Error(`BENCH_ENDPOINTS must be 1 or 2, not ${process.env.BENCH_ENDPOINTS}`);
const INBOUND_SECRET = "bench-inbound-secret-0123456789";

const config = loadConfig({
  DATA_DIR: path.join(os.tmpdir(), "hookmail-bench"),
  EMAIL_DOMAINS: "hookmail.test",
  MAIL_AUTH_CHECKS: "false",
  WEBHOOK_ALLOW_PRIVATE_TARGETS: "true",
  WEBHOOK_TIMEOUT_MS: "10000",
  INBOUND_SECRET,
  MAX_MESSAGE_BYTES: String(2 * 1024 * 1024),
  // Three pooled senders of CONCURRENCY sessions each keep their sessions open to one listener.
  SMTP_MAX_CLIENTS_PER_IP: "100",
  ACCEPT_GROUP_WINDOW_MS: process.env.ACCEPT_GROUP_WINDOW_MS,
  ACCEPT_GROUP_MAX: process.env.ACCEPT_GROUP_MAX,
});
/** The configuration the product's pipeline receives mail with: a signed path turns the checks on or off. */
let mailConfig: Config = config;
const setMailConfig = (next: Config) => {
  mailConfig = next;
};
const logger = createLogger(loggerOptionsFromEnvironment(process.env));

let phaseCounter = 0;
const idsFor = (tag: string, count: number) => {
  phaseCounter += 1;
  return Array.from({ length: count }, (_, i) => `${tag}-${phaseCounter}-${i}`);
};

/**
 * What a path's mails cost in CPU: `read` answers the seconds used so far by what relays them, and
 * `settle` waits until the work a mail leaves behind after its request reached the sink is done.
 */
type CpuMeter = {
  read: () => Promise<{ process: number; postgres: number }>;
  settle: () => Promise<void>;
  /** The product's group writes of accepted mail so far, and the mails they carried (none for the bare pipeline). */
  readGroups?: () => { writes: number; items: number };
};

/** A way in, the sink its mails are counted at, and its CPU meter. */
type Path = { label: string; tag: string; sink: Sink; cpu: CpuMeter; send: (id: string) => Promise<void> };

/**
 * The bare pipeline's meter: this process, which also runs the senders and the sink; the product's
 * adds PostgreSQL's processes. So product − bare is what the product adds per mail.
 */
const bareCpu: CpuMeter = { read: () => readCpuSecondsSoFar(), settle: async () => undefined };

async function sendAndWait(path: Path, count: number) {
  const ids = idsFor(`${path.tag}w`, count);
  await drive({ ids, concurrency: CONCURRENCY, send: path.send });
  await path.sink.waitFor(ids, DRAIN_TIMEOUT_MS);
}

/** A closed-loop run at CONCURRENCY senders: the maximum rate. */
/** CPU per mail: in all, and PostgreSQL's share of it (0 for the bare pipeline). */
type MaxResult = PhaseResult & { cpuMsPerMail: number; postgresCpuMsPerMail: number };

async function measureMax(path: Path): Promise<MaxResult> {
  const { sink } = path;
  await sendAndWait(path, PHASE_WARMUP_MAILS);
  await path.cpu.settle();
  const ids = idsFor(path.tag, MAILS);
  const cpuBefore = await path.cpu.read();
  const groupsBefore = path.cpu.readGroups?.();
  const startedAt = now();
  const { errors } = await drive({ ids, concurrency: CONCURRENCY, send: path.send });
  await sink.waitFor(ids, DRAIN_TIMEOUT_MS).catch((error: Error) => console.error(`  ${error.message}`));
  await path.cpu.settle();
  const cpuAfter = await path.cpu.read();
  const groupsAfter = path.cpu.readGroups?.();
  const result = summarize(`${path.label} @ max (C=${CONCURRENCY})`, ids, startedAt, sink, errors);
  const perMail = (seconds: number) => (seconds * 1000) / result.mails;
  const postgresCpuMsPerMail = perMail(cpuAfter.postgres - cpuBefore.postgres);
  const measured = {
    ...result,
    cpuMsPerMail: perMail(cpuAfter.process - cpuBefore.process) + postgresCpuMsPerMail,
    postgresCpuMsPerMail,
  };
  printPhase(result);
  console.log(`    CPU ${measured.cpuMsPerMail.toFixed(2)} ms per mail, PostgreSQL's ${postgresCpuMsPerMail.toFixed(2)}`);
  if (groupsBefore && groupsAfter) {
    const writes = groupsAfter.writes - groupsBefore.writes;
    const items = groupsAfter.items - groupsBefore.items;
    console.log(
      `    group commit: ${items} mails in ${writes} group writes, ${(items / Math.max(writes, 1)).toFixed(2)} per write`,
    );
  }
  return measured;
}

/** An open-loop run at `rate`: the latency of a loaded but not saturated relay. */
async function measureAtRate(path: Path, rate: number): Promise<PhaseResult> {
  const { sink } = path;
  const ids = idsFor(`${path.tag}h`, Math.max(100, Math.floor(MAILS / 2)));
  const startedAt = now();
  const { errors } = await drive({ ids, concurrency: CONCURRENCY, rate, send: path.send });
  await sink.waitFor(ids, DRAIN_TIMEOUT_MS).catch((error: Error) => console.error(`  ${error.message}`));
  const result = summarize(`${path.label} @ ${rate.toFixed(1)}/s (half max)`, ids, startedAt, sink, errors);
  printPhase(result);
  return result;
}

const smtpPath = (label: string, tag: string, sink: Sink, cpu: CpuMeter, port: number) => {
  const client = smtpClient(port, CONCURRENCY);
  const path: Path = { label, tag, sink, cpu, send: async (id) => void (await client.sendMail(benchMail(id, BENCH_ADDRESS))) };
  return { path, close: () => client.close() };
};

/** The bench sender's domain: its MTA connects from 127.0.0.1, signs with DKIM, and DNS says so. */
const benchDomain = createSenderDomain({ domain: "bench.example", allowedIp: "127.0.0.1" });

/** Product SMTP with DKIM-signed mails, the checks on or off (the configuration the pipeline reads per mail). */
const signedSmtpPath = (
  label: string,
  tag: string,
  sink: Sink,
  cpu: CpuMeter,
  port: number,
  dns: TestDnsServer,
  checks: boolean,
) => {
  const client = createTransport({
    host: "127.0.0.1",
    port,
    secure: false,
    ignoreTLS: true,
    pool: true,
    maxConnections: CONCURRENCY,
    maxMessages: Infinity,
    name: "mx.bench.example",
    dkim: { domainName: benchDomain.domain, keySelector: benchDomain.selector, privateKey: benchDomain.privateKey },
  });
  const path: Path = {
    label,
    tag,
    sink,
    cpu,
    send: async (id) => {
      setMailConfig({ ...config, dnsServers: [dns.address], mailChecks: { authentication: checks, rspamdUrl: undefined } });
      await client.sendMail(benchMail(id, BENCH_ADDRESS));
    },
  };
  return { path, close: () => client.close() };
};

const rawRoutePath = (label: string, tag: string, sink: Sink, cpu: CpuMeter): Path => ({
  label,
  tag,
  sink,
  cpu,
  send: async (id) => {
    const body = await benchMailRaw(id, BENCH_ADDRESS);
    const request = new Request("http://localhost:3000/api/inbound/raw", {
      method: "POST",
      headers: { authorization: `Bearer ${INBOUND_SECRET}`, "content-type": "message/rfc822", "x-envelope-to": BENCH_ADDRESS },
      body: new Uint8Array(body),
    });
    stampEndOfData(body);
    const response = await inboundPost(request, { params: Promise.resolve({ provider: "raw" }) });
    if (response.status !== 200) throw new Error(`raw route answered ${response.status}: ${await response.text()}`);
  },
});

/** The product on a fresh database of `kind`'s server: its SMTP listener, raw route and worker. */
/**
 * The address's second endpoint: the same sink, signed with its own secret. Written as the endpoints
 * call writes one (docs/webhooks.md: Endpoints); the bench measures receiving, not the call.
 */
async function addSecondEndpoint(database: BenchDatabase, emailCallbackId: string, url: string) {
  await database.prisma.endpoint.create({
    data: { id: "ept_bench_second", emailCallbackId, url, secret: "bench-second-secret-0123456789" },
  });
}

async function startProduct(kind: ServerKind, sink: Sink) {
  const server = await startBenchServer(kind);
  const database = await openBenchDatabase(server.adminUrl, { poolSize: 10 });
  // The process's services, made by the composition root as `npm start` makes them, with a delivery
  // worker that logs nothing; the pipeline receives with the configuration of the path being run.
  const services = createServices({ config, logger: silentLogger, projectDir: process.cwd(), database });
  const worker = await services.delivery();
  const receiving = (): ReceiveDependencies => ({
    config: mailConfig,
    repository,
    dispatcher: worker,
    parser: services.parser(),
    contentLinkKey: services.contentLinkKey(),
  });
  const repository = withRecipientCache(createInboundRepository(database, config.inbound.acceptGroups), createRecipientCache());
  const pipeline: InboundPipeline = {
    receive: (message) => receiveMessage(receiving(), message),
    checkRecipient: (address) => checkRecipientAddress(receiving(), address),
  };
  // The raw route reaches the same pipeline through the services' accessor.
  setServices({ ...services, inbound: async () => pipeline });
  const { id: userId } = await seedUser(database, { email: "bench@example.com", name: "Bench" });
  const emailCallback = await seedEmailCallback(database, {
    userId,
    username: "bench",
    webhookUrl: sink.url,
    webhookSecret: "bench-webhook-secret-0123456789",
  });
  const listener = createSmtpListener({
    config: { ...config, smtp: { ...config.smtp, host: "127.0.0.1", port: 0 } },
    checkRecipient: pipeline.checkRecipient,
    receive: (args) => {
      // A 10 KB mail is handed over in memory (only a message past 1 MiB is spooled).
      if (Buffer.isBuffer(args.raw)) stampEndOfData(args.raw);
      return pipeline.receive(args);
    },
    logger,
    metrics: services.metrics(),
    spool: services.spool(),
  });
  await listener.listen();
  if (ENDPOINTS === 2) await addSecondEndpoint(database, emailCallback.id, sink.url);
  // PostgreSQL's share of the CPU is read through a connection of its own to the bench database.
  const admin = new pg.Client({ connectionString: database.url });
  await admin.connect();
  const cpu: CpuMeter = {
    read: () => readCpuSecondsSoFar(admin),
    settle: () => worker.whenIdle(),
    readGroups: () => repository.getAcceptGroupStats(),
  };
  const smtp = smtpPath(`product SMTP, ${kind}`, `smtp-${kind}`, sink, cpu, listener.getPort());
  const dns = await startDnsServer(benchDomain.records);
  const checksOff = signedSmtpPath(`signed, checks off, ${kind}`, `off-${kind}`, sink, cpu, listener.getPort(), dns, false);
  const checksOn = signedSmtpPath(`signed, checks on, ${kind}`, `on-${kind}`, sink, cpu, listener.getPort(), dns, true);
  return {
    smtp: smtp.path,
    checksOff: checksOff.path,
    checksOn: checksOn.path,
    raw: rawRoutePath(`product POST /api/inbound/raw, ${kind}`, `raw-${kind}`, sink, cpu),
    countProcessings: async () => {
      await worker.whenIdle();
      const success = await database.prisma.emailProcessing.count({ where: { status: "success" } });
      const deliveries = await database.prisma.delivery.count({ where: { status: "success" } });
      console.log(`  ${kind}: ${deliveries} deliveries recorded as success (${ENDPOINTS} per mail)`);
      return { success, total: await database.prisma.emailProcessing.count() };
    },
    close: async () => {
      smtp.close();
      checksOff.close();
      checksOn.close();
      await dns.close();
      await admin.end();
      setMailConfig(config);
      await listener.close();
      await services.close();
      setServices(undefined);
      await database.close();
      await server.stop();
    },
  };
}

async function startBare(sink: Sink) {
  const bare = await startBarePipeline({ webhookUrl: sink.url, onEndOfData: stampEndOfData });
  const smtp = smtpPath("bare pipeline (SMTP)", "bare", sink, bareCpu, bare.port);
  return {
    path: smtp.path,
    close: async () => {
      smtp.close();
      await bare.close();
    },
  };
}

type KindResult = {
  kind: ServerKind;
  bare: MaxResult[];
  smtp: MaxResult[];
  raw: MaxResult[];
  smtpHalf: PhaseResult;
  rawHalf: PhaseResult;
  bareHalf: PhaseResult;
  checksOff: MaxResult[];
  checksOn: MaxResult[];
};

/** The bare pipeline's mails are counted at `sinks.bare`, the product's at `sinks.product` (one request per endpoint). */
async function benchKind(kind: ServerKind, sinks: { bare: Sink; product: Sink }): Promise<KindResult> {
  console.log(
    `\n  --- ${kind === "embedded" ? "the default: embedded PostgreSQL server (no DATABASE_URL)" : "PostgreSQL of DATABASE_URL"} ---`,
  );
  const bare = await startBare(sinks.bare);
  const product = await startProduct(kind, sinks.product);
  try {
    for (const path of [bare.path, product.smtp, product.raw]) await sendAndWait(path, WARMUP_MAILS);
    const result: Omit<KindResult, "smtpHalf" | "rawHalf" | "bareHalf" | "checksOff" | "checksOn"> = {
      kind,
      bare: [],
      smtp: [],
      raw: [],
    };
    for (let round = 1; round <= ROUNDS; round++) {
      console.log(`  round ${round} of ${ROUNDS} (load average ${os.loadavg()[0]!.toFixed(2)})`);
      result.bare.push(await measureMax(bare.path));
      result.smtp.push(await measureMax(product.smtp));
      result.raw.push(await measureMax(product.raw));
    }
    const halfOf = (runs: PhaseResult[]) => median(runs.map((run) => run.mailsPerSecond)) / 2;
    const bareHalf = await measureAtRate(bare.path, halfOf(result.bare));
    const smtpHalf = await measureAtRate(product.smtp, halfOf(result.smtp));
    const rawHalf = await measureAtRate(product.raw, halfOf(result.raw));
    const checks = { checksOff: [] as MaxResult[], checksOn: [] as MaxResult[] };
    for (const path of [product.checksOff, product.checksOn]) await sendAndWait(path, WARMUP_MAILS);
    for (let round = 1; round <= CHECK_ROUNDS; round++) {
      console.log(`  checks round ${round} of ${CHECK_ROUNDS}`);
      checks.checksOff.push(await measureMax(product.checksOff));
      checks.checksOn.push(await measureMax(product.checksOn));
    }
    const { success, total } = await product.countProcessings();
    console.log(`  ${kind}: ${success} of ${total} processings recorded as success${success === total ? "" : " (NOT all)"}`);
    if (success !== total) process.exitCode = 1;
    return { ...result, bareHalf, smtpHalf, rawHalf, ...checks };
  } finally {
    await product.close();
    await bare.close();
  }
}

const fmt = (n: number) => n.toFixed(1);
const rates = (runs: PhaseResult[]) => runs.map((run) => run.mailsPerSecond);

function printSummary(results: KindResult[]) {
  console.log(
    `\nsummary: ${MAILS} mails per run, ${ROUNDS} rounds of bare → product SMTP → product raw route; ratio = product / the same round's bare`,
  );
  for (const { kind, bare, smtp, raw, bareHalf, smtpHalf, rawHalf, checksOff, checksOn } of results) {
    const bareRates = rates(bare);
    console.log(
      `  ${kind}: bare pipeline ${formatSpread(bareRates, 1)} mails/s (median (min–max)); at half max p50 ${fmt(bareHalf.latency.p50)} p99 ${fmt(bareHalf.latency.p99)} ms`,
    );
    for (const [name, runs, half] of [
      ["SMTP", smtp, smtpHalf],
      ["raw route", raw, rawHalf],
    ] as const) {
      const ratios = runs.map((run, index) => run.mailsPerSecond / bareRates[index]!);
      const ratio = median(ratios);
      const { p50, p99 } = half.latency;
      console.log(
        `    ${`${name}, ${kind}`.padEnd(22)} ${formatSpread(rates(runs), 1)} mails/s, ratio ${formatSpread(ratios)} (goal ≥ ${GOAL_RATIO}: ${ratio >= GOAL_RATIO ? "met" : "NOT met"})` +
          ` | at half max: p50 ${fmt(p50)} ms (≤ 15: ${p50 <= 15 ? "met" : "NOT met"}), p99 ${fmt(p99)} ms (≤ 60: ${p99 <= 60 ? "met" : "NOT met"})`,
      );
    }
    printCpuPerMail(kind, bare, smtp, raw);
    printChecksCost(kind, checksOff, checksOn);
  }
}

/** CPU per mail of each path (the median of its rounds), and product / the same round's bare. */
function printCpuPerMail(kind: ServerKind, bare: MaxResult[], smtp: MaxResult[], raw: MaxResult[]) {
  const cpu = (runs: MaxResult[]) => runs.map((run) => run.cpuMsPerMail);
  console.log(
    `    ${`CPU, ${kind}`.padEnd(22)} ms per mail: bare ${formatSpread(cpu(bare))}` +
      ` (this process: senders, sink, pipeline); product + PostgreSQL: SMTP ${formatSpread(cpu(smtp))}, raw route ${formatSpread(cpu(raw))}`,
  );
  const postgres = (runs: MaxResult[]) => runs.map((run) => run.postgresCpuMsPerMail);
  console.log(
    `    ${`CPU, ${kind}`.padEnd(22)} PostgreSQL's share, ms per mail: SMTP ${formatSpread(postgres(smtp))}, raw route ${formatSpread(postgres(raw))}`,
  );
  for (const [name, runs] of [
    ["SMTP", smtp],
    ["raw route", raw],
  ] as const) {
    const ratios = runs.map((run, index) => run.cpuMsPerMail / bare[index]!.cpuMsPerMail);
    console.log(`    ${`CPU ${name}, ${kind}`.padEnd(22)} product / bare ${formatSpread(ratios)}`);
  }
}

/** The checks' cost: the rate with them over the rate without (same round), and the time they add per mail at that rate. */
function printChecksCost(kind: ServerKind, off: PhaseResult[], on: PhaseResult[]) {
  if (on.length === 0) return console.log(`    ${`checks, ${kind}`.padEnd(22)} not measured (BENCH_CHECK_ROUNDS=0)`);
  const ratios = on.map((run, index) => run.mailsPerSecond / off[index]!.mailsPerSecond);
  const addedMs = on.map((run, index) => 1000 / run.mailsPerSecond - 1000 / off[index]!.mailsPerSecond);
  console.log(
    `    ${`checks, ${kind}`.padEnd(22)} off ${formatSpread(rates(off), 1)} mails/s, on ${formatSpread(rates(on), 1)} mails/s;` +
      ` on/off ratio ${formatSpread(ratios)}, ${fmt(median(addedMs))} ms of relay time added per mail (DNS answered on loopback)`,
  );
}

async function main() {
  console.log(
    `relay-throughput: ${MAILS} mails of ~10 KB per run, ${ROUNDS} rounds, ${CONCURRENCY} concurrent senders, ${ENDPOINTS} endpoint${ENDPOINTS === 1 ? "" : "s"} per address, accept groups ${JSON.stringify(config.inbound.acceptGroups)}; node ${process.version}, ${os.cpus().length} CPUs, load average ${os.loadavg()[0]!.toFixed(2)}`,
  );
  const sample = await benchMailRaw("sample-0", BENCH_ADDRESS);
  console.log(`  message size: ${sample.length} bytes`);
  const kinds = listWantedServerKinds("BENCH_DATABASES");
  if (!process.env.DATABASE_URL) console.log("  (DATABASE_URL unset: only the embedded default)");
  const bareSink = await startSink();
  const productSink = ENDPOINTS === 1 ? bareSink : await startSink({ copies: ENDPOINTS });
  const results: KindResult[] = [];
  try {
    for (const kind of kinds) results.push(await benchKind(kind, { bare: bareSink, product: productSink }));
  } finally {
    await bareSink.close();
    if (productSink !== bareSink) await productSink.close();
  }
  printSummary(results);
}

main().then(
  () => process.exit(process.exitCode ?? 0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
