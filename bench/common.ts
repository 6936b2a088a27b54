// Shared pieces of the benchmarks: the test mail, a loopback webhook sink that stamps arrivals,
// load generators (closed loop at a concurrency, open loop at a rate) and percentiles.

import { performance } from "node:perf_hooks";
import { createTransport } from "nodemailer";
import { describeError } from "@/modules/shared/errors/describe-error";
import { startWebhookSink } from "@/tests/support/webhook-sink";
import { createSmtpTransport } from "../tests/reliability/support/retrying-senders";

export const now = () => performance.now();

const BENCH_ID_PATTERN = /^X-Bench-Id:\s*(\S+)/im;

/** The bench id of a raw message (looked for in its first 8 KiB: the header). */
export function readBenchId(raw: Buffer): string | undefined {
  return BENCH_ID_PATTERN.exec(raw.subarray(0, 8192).toString("latin1"))?.[1];
}

/** End-of-DATA (or request-built) moments, by bench id, stamped in-process by the receiving side. */
export const endOfData = new Map<string, number>();
export function stampEndOfData(raw: Buffer) {
  const id = readBenchId(raw);
  if (id && !endOfData.has(id)) endOfData.set(id, now());
}

const filler = (length: number, seed: number) => {
  const words = ["relay", "webhook", "message", "invoice", "shipment", "bench", "lorem", "ipsum", "dolor", "amet"];
  let text = "";
  let i = seed;
  while (text.length < length) {
    text += words[i % words.length] + (i % 13 === 0 ? ".\n" : " ");
    i += 7;
  }
  return text.slice(0, length);
};

/** A ~10 KB message: text + HTML alternatives and a small attachment. */
export function benchMail(id: string, to: string) {
  return {
    envelope: { from: "sender@bench.example", to: [to] },
    from: "Bench Sender <sender@bench.example>",
    to,
    subject: `Bench message ${id}`,
    headers: { "X-Bench-Id": id, "X-Bench-Sent-At": now().toFixed(3) },
    text: filler(3500, id.length),
    html: `<html><body><p>${filler(3500, 3).replace(/\n/g, "</p><p>")}</p></body></html>`,
    attachments: [{ filename: "data.csv", content: filler(1200, 5), contentType: "text/csv" }],
  };
}

/** The raw RFC 5322 bytes of benchMail (for HTTP routes). */
export async function benchMailRaw(id: string, to: string): Promise<Buffer> {
  const transport = createTransport({ streamTransport: true, buffer: true });
  const info = await transport.sendMail(benchMail(id, to));
  return info.message as Buffer;
}

export type Sink = {
  url: string;
  arrivals: Map<string, number>;
  sentAt: Map<string, number>;
  requestCount: () => number;
  /** Requests per webhook-id header, and per bench id: more than one means a mail arrived twice. */
  byWebhookId: Map<string, number>;
  byBenchId: Map<string, number>;
  waitFor: (ids: string[], timeoutMs: number) => Promise<void>;
  close: () => Promise<void>;
};

/**
 * The loopback webhook receiver (tests/support/webhook-sink.ts) answering 200; stamps the arrival
 * of each bench id (read from the payload's headers) once `copies` requests carried it (one per
 * endpoint of the address), and counts the requests of each webhook-id and bench id.
 */
export async function startSink({ copies = 1 }: { copies?: number } = {}): Promise<Sink> {
  const arrivals = new Map<string, number>();
  const sentAt = new Map<string, number>();
  const byWebhookId = new Map<string, number>();
  const byBenchId = new Map<string, number>();
  let waiter: { ids: string[]; resolve: () => void } | undefined;
  const check = () => {
    if (waiter?.ids.every((id) => arrivals.has(id))) {
      const { resolve } = waiter;
      waiter = undefined;
      resolve();
    }
  };
  const sink = await startWebhookSink({
    keepBodies: false,
    onRequest: (request, body) => {
      const webhookId = String(request.headers["webhook-id"] ?? "");
      byWebhookId.set(webhookId, (byWebhookId.get(webhookId) ?? 0) + 1);
      const headers = readPayloadHeaders(body);
      const id = headers.find((h) => h.name.toLowerCase() === "x-bench-id")?.value;
      const sent = headers.find((h) => h.name.toLowerCase() === "x-bench-sent-at")?.value;
      const seen = id ? (byBenchId.get(id) ?? 0) + 1 : 0;
      if (id) byBenchId.set(id, seen);
      if (id && seen >= copies && !arrivals.has(id)) {
        arrivals.set(id, request.arrivedAt);
        if (sent) sentAt.set(id, Number(sent));
        check();
      }
    },
  });
  return {
    url: sink.url(),
    arrivals,
    sentAt,
    requestCount: () => sink.requests.length,
    byWebhookId,
    byBenchId,
    waitFor: (ids, timeoutMs) =>
      new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => {
          waiter = undefined;
          const missing = ids.filter((id) => !arrivals.has(id)).length;
          reject(new Error(`sink: ${missing} of ${ids.length} mails did not arrive within ${timeoutMs} ms`));
        }, timeoutMs);
        waiter = {
          ids,
          resolve: () => {
            clearTimeout(timer);
            resolve();
          },
        };
        check();
      }),
    close: sink.close,
  };
}

function readPayloadHeaders(body: Buffer): { name: string; value: string }[] {
  try {
    const payload = JSON.parse(body.toString("utf8")) as { data?: { headers?: { name: string; value: string }[] } };
    return payload.data?.headers ?? [];
  } catch {
    return []; // not a bench payload
  }
}

/** Sends `ids` with `concurrency` at a time (closed loop), or one every 1000/rate ms (open loop) when `rate` is given. */
export async function drive({
  ids,
  concurrency,
  rate,
  send,
}: {
  ids: string[];
  concurrency: number;
  rate?: number;
  send: (id: string) => Promise<void>;
}): Promise<{ errors: number }> {
  let errors = 0;
  const one = (id: string) =>
    send(id).catch((error: unknown) => {
      errors += 1;
      if (errors <= 3) console.error(`  send ${id} failed:`, describeError(error));
    });
  if (rate === undefined) {
    let next = 0;
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (next < ids.length) await one(ids[next++]!);
      }),
    );
    return { errors };
  }
  const interval = 1000 / rate;
  const start = now();
  const pending: Promise<void>[] = [];
  for (let i = 0; i < ids.length; i++) {
    const due = start + i * interval;
    const wait = due - now();
    if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait));
    pending.push(one(ids[i]!));
  }
  await Promise.all(pending);
  return { errors };
}

/** A pooled nodemailer SMTP client with `connections` sessions to 127.0.0.1:port (the reliability tests' own). */
export const smtpClient = createSmtpTransport;

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index]!;
}

export type PhaseResult = {
  label: string;
  mails: number;
  errors: number;
  seconds: number;
  mailsPerSecond: number;
  /** From end of DATA (server-side stamp) to the webhook request reaching the sink. */
  latency: { p50: number; p95: number; p99: number };
  /** From the client stamping X-Bench-Sent-At (before the SMTP transaction) to the sink. */
  clientLatency: { p50: number; p95: number; p99: number };
};

export function summarize(label: string, ids: string[], startedAt: number, sink: Sink, errors: number): PhaseResult {
  const delivered = ids.filter((id) => sink.arrivals.has(id));
  const lastArrival = Math.max(...delivered.map((id) => sink.arrivals.get(id)!));
  const seconds = (lastArrival - startedAt) / 1000;
  const stats = (from: Map<string, number>) => {
    const values = delivered
      .filter((id) => from.has(id))
      .map((id) => sink.arrivals.get(id)! - from.get(id)!)
      .sort((a, b) => a - b);
    return { p50: percentile(values, 50), p95: percentile(values, 95), p99: percentile(values, 99) };
  };
  return {
    label,
    mails: delivered.length,
    errors,
    seconds,
    mailsPerSecond: delivered.length / seconds,
    latency: stats(endOfData),
    clientLatency: stats(sink.sentAt),
  };
}

export function printPhase(result: PhaseResult) {
  const f = (n: number) => n.toFixed(1).padStart(7);
  console.log(
    `  ${result.label.padEnd(44)} ${String(result.mails).padStart(5)} mails ${result.errors ? `(${result.errors} errors) ` : ""}` +
      `${result.mailsPerSecond.toFixed(1).padStart(7)} mails/s | end-of-DATA→sink p50 ${f(result.latency.p50)} p95 ${f(result.latency.p95)} p99 ${f(result.latency.p99)} ms` +
      ` | client-send→sink p50 ${f(result.clientLatency.p50)} p99 ${f(result.clientLatency.p99)} ms`,
  );
}
