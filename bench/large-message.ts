// Large message: one message of almost 25 MiB (the MAX_MESSAGE_BYTES default) with text
// and HTML bodies and random binary attachments (base64 in MIME) relayed through the full product: a
// real SMTP session (nodemailer, declaring SIZE in MAIL FROM as MTAs do) into the SMTP listener → the
// pipeline recording it in the database → the delivery worker, signed → a loopback node:http sink
// that checks the payload (bodies equal, attachments decoded from base64 byte for byte, signature
// valid). Then the same through POST /api/inbound/raw, its route handler behind a minimal
// node:http → Request adapter (the body streamed, as from a socket). Goal: the peak RSS growth of
// the product's process ≤ 4× the message size.
//
// The product runs in a child process of its own (large-message.product.ts, forked with --expose-gc), so the figure
// is the product's alone: the sender, its copy of the message and the sink (which parses the 25 MiB
// JSON) live in this process. Per run: a warm-up mail over the same route, a full GC, the baseline
// RSS, then VmHWM (the kernel's peak RSS) is reset through /proc/self/clear_refs; once the webhook
// has arrived and its attempt is recorded, peak = VmHWM. Also printed: VmHWM when the message was
// accepted, and a 5 ms sampler of process.memoryUsage() (it cannot see inside long synchronous
// steps; VmHWM can). Every run is a fresh product process (no memory of an earlier large message is
// counted or reused), on the default's embedded PostgreSQL server (started by this process in a
// throwaway DATA_DIR, as `npm start` starts it without DATABASE_URL; its processes are not counted)
// and, when DATABASE_URL is set, on that server; each run in a throwaway database, dropped after.
// The goal is judged on the worst run.
//   BENCH_LARGE_RUNS (default 3), BENCH_LARGE_DATABASES (embedded,postgres), BENCH_LARGE_ROUTES (smtp,raw).
import { type ChildProcess, fork } from "node:child_process";
import { createHash, createHmac, randomBytes } from "node:crypto";
import http from "node:http";
import os from "node:os";
import { fileURLToPath } from "node:url";
import { createTransport } from "nodemailer";
import { startWebhookSink } from "../tests/support/webhook-sink";
import { type BenchServer, listWantedServerKinds, median, startBenchServer } from "./bench-database";
import { now, readBenchId } from "./common";
import {
  type Baseline,
  INBOUND_SECRET,
  MAX_MESSAGE_BYTES,
  type Measurement,
  type ProductCommand,
  type Route,
  WEBHOOK_SECRET,
} from "./large-message.product";

const GOAL_FACTOR = 4;
const ADDRESS = "large@hookmail.test";
const MIB = 1024 * 1024;
const RELAY_TIMEOUT_MS = 300_000;
const RUNS = Number(process.env.BENCH_LARGE_RUNS ?? 3);

function startProduct(): { call: <T>(command: ProductCommand) => Promise<T>; exit: () => Promise<void> } {
  const child: ChildProcess = fork(fileURLToPath(new URL("./large-message.product.ts", import.meta.url)), ["--product"], {
    execArgv: ["--expose-gc", "--import", "tsx"],
    env: process.env,
    stdio: ["inherit", "inherit", "inherit", "ipc"],
  });
  let nextId = 0;
  const pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  let onReady: (() => void) | undefined;
  const ready = new Promise<void>((resolve) => (onReady = resolve));
  child.on("message", (message: { ready?: true; requestId?: number; result?: unknown; error?: string }) => {
    if (message.ready) return onReady?.();
    const waiter = pending.get(message.requestId!);
    pending.delete(message.requestId!);
    if (message.error !== undefined) waiter?.reject(new Error(`product process: ${message.error}`));
    else waiter?.resolve(message.result);
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  child.once("exit", (code) => {
    for (const waiter of pending.values()) waiter.reject(new Error(`the product process exited with ${code}`));
  });
  return {
    call: async <T>(command: ProductCommand) => {
      await ready;
      const requestId = ++nextId;
      return new Promise<T>((resolve, reject) => {
        pending.set(requestId, { resolve: resolve as (value: unknown) => void, reject });
        child.send({ ...command, requestId });
      });
    },
    exit: async () => {
      child.disconnect();
      await exited;
    },
  };
}

// ---------------------------------------------------------------------------------------------
// The message, the sender and the sink (this process)

type ExpectedAttachment = { filename: string; contentType: string; size: number; sha256: string };
type BuiltMessage = { id: string; raw: Buffer; text: string; html: string; attachments: ExpectedAttachment[] };

const sha256 = (bytes: Buffer) => createHash("sha256").update(bytes).digest("hex");

function lorem(length: number): string {
  const words = [
    "relay",
    "webhook",
    "message",
    "invoice",
    "shipment",
    "attachment",
    "lorem",
    "ipsum",
    "dolor",
    "amet",
    "réception",
    "courriel",
  ];
  const parts: string[] = [];
  let size = 0;
  for (let i = 0; size < length; i++) {
    const word = words[(i * 7) % words.length]! + (i % 11 === 10 ? ".\n" : " ");
    parts.push(word);
    size += word.length;
  }
  return parts.join("").slice(0, length);
}

async function composeMessage(
  id: string,
  bodies: { text: string; html: string },
  files: { filename: string; contentType: string; content: Buffer }[],
) {
  const transport = createTransport({ streamTransport: true, buffer: true });
  const info = await transport.sendMail({
    envelope: { from: "sender@bench.example", to: [ADDRESS] },
    from: "Bench Sender <sender@bench.example>",
    to: ADDRESS,
    subject: `Large message ${id}`,
    messageId: `<${id}@bench.example>`,
    headers: { "X-Bench-Id": id },
    text: bodies.text,
    html: bodies.html,
    attachments: files.map(({ filename, contentType, content }) => ({ filename, contentType, content })),
  });
  return info.message as Buffer;
}

/**
 * A message of `targetBytes` raw bytes at most (close to it when large): ~200 KB of text, ~300 KB
 * of HTML, and random (incompressible, like PDFs or JPEGs) attachments filling the rest.
 */
async function buildMessage(id: string, targetBytes: number): Promise<BuiltMessage> {
  const small = targetBytes < MIB;
  const text = lorem(small ? 2_000 : 200_000);
  const html = `<html><body><p>${lorem(small ? 3_000 : 300_000).replace(/\n/g, "</p><p>")}</p></body></html>`;
  const plan = small
    ? [{ filename: "note.bin", contentType: "application/octet-stream", size: 1_000 }]
    : [
        { filename: "report.pdf", contentType: "application/pdf", size: 6 * MIB },
        { filename: "photo.jpg", contentType: "image/jpeg", size: 5 * MIB },
        { filename: "archive.zip", contentType: "application/zip", size: 4 * MIB },
        { filename: "data.bin", contentType: "application/octet-stream", size: 2 * MIB },
      ];
  const files = plan.map((file) => ({ ...file, content: randomBytes(file.size) }));
  let raw = await composeMessage(id, { text, html }, files);
  if (!small) {
    // base64 in 76-character lines takes 78 bytes per 57: grow the last attachment to fill the target.
    const last = files.at(-1)!;
    const extra = Math.floor(((targetBytes - raw.length) * 57) / 78) - 57;
    last.content = Buffer.concat([last.content, randomBytes(Math.max(0, extra))]);
    raw = await composeMessage(id, { text, html }, files);
  }
  if (raw.length > targetBytes) throw new Error(`the message is ${raw.length} bytes, over ${targetBytes}`);
  return {
    id,
    raw,
    text,
    html,
    attachments: files.map(({ filename, contentType, content }) => ({
      filename,
      contentType,
      size: content.length,
      sha256: sha256(content),
    })),
  };
}

type WebhookBody = {
  data: {
    text: string;
    html: string;
    headers: { name: string; value: string }[];
    attachments: { filename: string; contentType: string; size: number; content: string }[];
  };
};

/** What is wrong with a delivered payload, or null when it carries the message exactly. */
function checkPayload(
  body: Buffer,
  { data }: WebhookBody,
  headers: http.IncomingHttpHeaders,
  expected: BuiltMessage,
): string | null {
  const signed = createHmac("sha256", Buffer.from(WEBHOOK_SECRET, "utf8"))
    .update(`${String(headers["webhook-id"])}.${String(headers["webhook-timestamp"])}.`, "utf8")
    .update(body)
    .digest("base64");
  if (headers["webhook-signature"] !== `v1,${signed}`) return "the signature does not match the body";
  const normalize = (value: string) => value.replace(/\r\n/g, "\n").trimEnd();
  if (normalize(data.text) !== normalize(expected.text)) return "the text body differs";
  if (normalize(data.html) !== normalize(expected.html)) return "the HTML body differs";
  if (data.attachments.length !== expected.attachments.length)
    return `${data.attachments.length} attachments, expected ${expected.attachments.length}`;
  for (const [index, want] of expected.attachments.entries()) {
    const got = data.attachments[index]!;
    const bytes = Buffer.from(got.content, "base64");
    if (got.filename !== want.filename || got.contentType !== want.contentType)
      return `attachment ${index} is ${got.filename} (${got.contentType})`;
    if (got.size !== want.size || bytes.length !== want.size || sha256(bytes) !== want.sha256)
      return `attachment ${want.filename}: the bytes differ`;
  }
  return null;
}

type Sink = {
  url: string;
  expect: (message: BuiltMessage) => Promise<{ arrivedAt: number; bodyBytes: number }>;
  close: () => Promise<void>;
};

async function startCheckingSink(): Promise<Sink> {
  const waiters = new Map<
    string,
    { message: BuiltMessage; resolve: (value: { arrivedAt: number; bodyBytes: number }) => void; reject: (error: Error) => void }
  >();
  const sink = await startWebhookSink({
    keepBodies: false,
    onRequest: (request, body) => {
      const arrivedAt = now();
      let payload: WebhookBody;
      try {
        payload = JSON.parse(body.toString("utf8")) as WebhookBody;
      } catch {
        return console.error(`  sink: a body of ${body.length} bytes is not JSON`);
      }
      const id = payload.data.headers.find((header) => header.name.toLowerCase() === "x-bench-id")?.value;
      const waiter = id === undefined ? undefined : waiters.get(id);
      if (!waiter || !id) return console.error(`  sink: an unexpected webhook (${id ?? "no bench id"})`);
      waiters.delete(id);
      const problem = checkPayload(body, payload, request.headers, waiter.message);
      if (problem) waiter.reject(new Error(`sink: ${id}: ${problem}`));
      else waiter.resolve({ arrivedAt, bodyBytes: body.length });
    },
  });
  return {
    url: sink.url(),
    expect: (message) =>
      new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          waiters.delete(message.id);
          reject(new Error(`sink: ${message.id} did not arrive within ${RELAY_TIMEOUT_MS} ms`));
        }, RELAY_TIMEOUT_MS);
        waiters.set(message.id, {
          message,
          resolve: (value) => {
            clearTimeout(timer);
            resolve(value);
          },
          reject: (error) => {
            clearTimeout(timer);
            reject(error);
          },
        });
      }),
    close: sink.close,
  };
}

async function sendBySmtp(port: number, message: BuiltMessage) {
  const transport = createTransport({ host: "127.0.0.1", port, secure: false, ignoreTLS: true, socketTimeout: RELAY_TIMEOUT_MS });
  try {
    // The size declared in MAIL FROM (RFC 1870), as MTAs do when the server offers SIZE.
    const envelope = { from: "sender@bench.example", to: [ADDRESS], size: message.raw.length };
    await transport.sendMail({ envelope: envelope as { from: string; to: string[] }, raw: message.raw });
  } finally {
    transport.close();
  }
}

function sendByRawRoute(port: number, message: BuiltMessage) {
  return new Promise<void>((resolve, reject) => {
    const request = http.request(
      {
        host: "127.0.0.1",
        port,
        path: "/api/inbound/raw",
        method: "POST",
        headers: {
          authorization: `Bearer ${INBOUND_SECRET}`,
          "content-type": "message/rfc822",
          "x-envelope-to": ADDRESS,
          "content-length": String(message.raw.length),
        },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () => {
          const text = Buffer.concat(chunks).toString("utf8");
          if (response.statusCode === 200) resolve();
          else reject(new Error(`the raw route answered ${response.statusCode}: ${text}`));
        });
      },
    );
    request.on("error", reject);
    request.end(message.raw);
  });
}

// ---------------------------------------------------------------------------------------------
// The run (this process)

type RunResult = {
  messageBytes: number;
  payloadBytes: number;
  baseline: Baseline;
  measurement: Measurement;
  acceptedSeconds: number;
  deliveredSeconds: number;
};

const mib = (bytes: number) => `${(bytes / MIB).toFixed(1)} MiB`;

async function relayOnce({
  product,
  sink,
  send,
  tag,
}: {
  product: ReturnType<typeof startProduct>;
  sink: Sink;
  send: (message: BuiltMessage) => Promise<void>;
  tag: string;
}): Promise<RunResult> {
  const warm = await buildMessage(`${tag}-warm`, 10_000);
  const warmArrival = sink.expect(warm);
  await send(warm);
  await warmArrival;

  // Built before the baseline; it lives in this process, not in the product's.
  const message = await buildMessage(`${tag}-large`, MAX_MESSAGE_BYTES - 64 * 1024);
  if (readBenchId(message.raw) !== message.id) throw new Error("the bench id is not in the message header");
  const baseline = await product.call<Baseline>({ command: "baseline" });
  const arrival = sink.expect(message);
  const startedAt = now();
  await send(message);
  const acceptedAt = now();
  const { arrivedAt, bodyBytes } = await arrival;
  const measurement = await product.call<Measurement>({ command: "measure" });
  return {
    messageBytes: message.raw.length,
    payloadBytes: bodyBytes,
    baseline,
    measurement,
    acceptedSeconds: (acceptedAt - startedAt) / 1000,
    deliveredSeconds: (arrivedAt - startedAt) / 1000,
  };
}

const growthFactor = (result: RunResult) => (result.measurement.peakRss - result.baseline.rss) / result.messageBytes;
const verdict = (factor: number) => (factor <= GOAL_FACTOR ? "met" : "NOT met");

function printRun(run: number, result: RunResult) {
  const { baseline, measurement } = result;
  const sampled = measurement.sampledPeak;
  const factor = growthFactor(result);
  console.log(
    `    run ${run}: baseline RSS ${mib(baseline.rss)}, peak ${mib(measurement.peakRss)} (VmHWM), growth ${mib(measurement.peakRss - baseline.rss)} = ${factor.toFixed(2)}× the message (≤ ${GOAL_FACTOR}×: ${verdict(factor)})` +
      ` | peak by acceptance ${mib(measurement.peakRssAtAcceptance - baseline.rss)} growth | accepted after ${result.acceptedSeconds.toFixed(2)} s, checked at the sink after ${result.deliveredSeconds.toFixed(2)} s`,
  );
  console.log(
    `           5 ms sampler at its peak: RSS ${mib(sampled.rss)}, heap used ${mib(sampled.heapUsed)} / total ${mib(sampled.heapTotal)}, external ${mib(sampled.external)} (array buffers ${mib(sampled.arrayBuffers)})` +
      ` | after a GC ${mib(measurement.rssAfter)} | processings: ${Object.entries(measurement.statuses)
        .map(([status, count]) => `${count} ${status}`)
        .join(", ")}`,
  );
}

type PathResult = { label: string; runs: RunResult[] };

async function benchPath(server: BenchServer, route: Route, sink: Sink): Promise<PathResult> {
  const { kind } = server;
  const label = route === "smtp" ? `SMTP → ${kind} → webhook` : `POST /api/inbound/raw → ${kind} → webhook`;
  console.log(`  ${label}`);
  const runs: RunResult[] = [];
  for (let run = 1; run <= RUNS; run++) {
    // A fresh product process per run: nothing of an earlier large message is counted or reused.
    const product = startProduct();
    try {
      const { smtpPort, httpPort } = await product.call<{ smtpPort: number; httpPort: number }>({
        command: "open",
        serverUrl: server.adminUrl,
        sinkUrl: sink.url,
      });
      const send =
        route === "smtp"
          ? (message: BuiltMessage) => sendBySmtp(smtpPort, message)
          : (message: BuiltMessage) => sendByRawRoute(httpPort, message);
      const result = await relayOnce({ product, sink, send, tag: `${kind}-${route}-${run}` });
      if (run === 1)
        console.log(
          `    message ${result.messageBytes} bytes (${mib(result.messageBytes)}), webhook body ${result.payloadBytes} bytes (${mib(result.payloadBytes)})`,
        );
      printRun(run, result);
      runs.push(result);
      await product.call({ command: "close" });
    } finally {
      await product.exit();
    }
  }
  return { label, runs };
}

async function main() {
  console.log(
    `large-message: one message of almost ${mib(MAX_MESSAGE_BYTES)} (MAX_MESSAGE_BYTES ${MAX_MESSAGE_BYTES}), ${RUNS} run(s) per path; node ${process.version}, ${os.cpus().length} CPUs`,
  );
  console.log(
    "  peak RSS growth of the product's process (a child of its own: the sender and the sink are not counted) over its RSS after a warm-up mail and a GC",
  );
  const sink = await startCheckingSink();
  const routes: Route[] = (process.env.BENCH_LARGE_ROUTES?.split(",") as Route[] | undefined) ?? ["smtp", "raw"];
  const kinds = listWantedServerKinds("BENCH_LARGE_DATABASES");
  if (!process.env.DATABASE_URL) console.log("  (DATABASE_URL unset: only the embedded default)");
  const paths: PathResult[] = [];
  try {
    for (const kind of kinds) {
      const server = await startBenchServer(kind);
      try {
        for (const route of routes) paths.push(await benchPath(server, route, sink));
      } finally {
        await server.stop();
      }
    }
  } finally {
    await sink.close();
  }
  console.log(`summary (goal: peak RSS growth ≤ ${GOAL_FACTOR}× the message size, judged on the worst run):`);
  for (const { label, runs } of paths) {
    const factors = runs.map(growthFactor);
    const worst = Math.max(...factors);
    const seconds = median(runs.map((run) => run.deliveredSeconds));
    console.log(
      `  ${label.padEnd(42)} worst ${worst.toFixed(2)}× (${verdict(worst)}), median ${median(factors).toFixed(2)}× [${factors.map((factor) => factor.toFixed(2)).join(", ")}]; median ${seconds.toFixed(2)} s to the sink`,
    );
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
