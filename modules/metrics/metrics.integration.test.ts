// GET /api/metrics (README: Monitoring) after real traffic: mail accepted and refused over SMTP (the
// product's listener on loopback) and over POST /api/inbound/raw, deliveries to a webhook sink that
// answers 200, 400 and 503, and a queue seeded with due and leased deliveries; then the scrape,
// read as Prometheus would. And the route's guard: 404 without METRICS_TOKEN, 401 without the token.
import { createTransport } from "nodemailer";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST as postInbound } from "@/app/api/inbound/[provider]/route";
import { GET } from "@/app/api/metrics/route";
import { loadConfig } from "@/modules/config/config";
import { PROCESSING_STATUS } from "@/modules/processings/processings.constants";
import { setServices } from "@/modules/server/services";
import { type MailPipeline, mailPipelineEnvironment, startMailPipeline } from "@/tests/support/mail-pipeline";
import { seedDatabase, seedEmailCallback, seedUser } from "@/tests/support/seed";
import { METRIC_NAME } from "./metrics.constants";
import { findSampleValue, parsePrometheusText, readMetricTypes, type Sample } from "./test-support/prometheus-text";

const METRICS_TOKEN = "metrics-token-for-the-test-0123456789";
const INBOUND_SECRET = "inbound-secret-for-the-test-0123";

const ENVIRONMENT = { WEBHOOK_TIMEOUT_MS: "5000", INBOUND_SECRET, METRICS_TOKEN };

let pipeline: MailPipeline;

/** Sets the config of the process's services to the pipeline's, changed by `environment`. */
function useConfig(environment: Record<string, string> = {}) {
  setServices({
    ...pipeline.services,
    config: loadConfig(mailPipelineEnvironment("metrics", { ...ENVIRONMENT, ...environment })),
  });
}

beforeAll(async () => {
  pipeline = await startMailPipeline({
    name: "metrics",
    environment: ENVIRONMENT,
    // The webhook of each address answers as its path says.
    sink: { decide: (request) => ({ status: Number(request.path.split("/").at(-1)), body: "answer" }) },
  });
  const { database, sink } = pipeline;
  const { id: userId } = await seedUser(database, { email: "metrics@example.com" });
  for (const status of [200, 400, 503]) {
    await seedEmailCallback(database, { userId, username: `status-${status}`, webhookUrl: sink.url(`/hook/${status}`) });
  }
});
afterAll(() => pipeline?.close());

const scrape = (headers: Record<string, string> = { authorization: `Bearer ${METRICS_TOKEN}` }) =>
  GET(new Request("http://localhost:3000/api/metrics", { headers }), { params: Promise.resolve({}) });

async function scrapeSamples(): Promise<{ samples: Sample[]; text: string }> {
  const response = await scrape();
  expect(response.status).toBe(200);
  const text = await response.text();
  return { samples: parsePrometheusText(text), text };
}

const buildMessage = (to: string, subject: string) =>
  Buffer.from(
    `From: Bob <bob@example.org>\r\nTo: ${to}\r\nSubject: ${subject}\r\nMessage-ID: <${subject.replaceAll(" ", "-")}@example.org>\r\n\r\nHello\r\n`,
  );

const postRaw = (to: string, authorization: string) =>
  postInbound(
    new Request("http://localhost:3000/api/inbound/raw", {
      method: "POST",
      headers: { authorization, "content-type": "message/rfc822", "x-envelope-to": to },
      body: new Uint8Array(buildMessage(to, `raw to ${to}`)),
    }),
    { params: Promise.resolve({ provider: "raw" }) },
  );

describe("GET /api/metrics", () => {
  it("counts mail accepted and refused by route and reason, deliveries by outcome, and reads the queue at scrape time", async () => {
    const before = (await scrapeSamples()).samples;
    const smtp = createTransport({ host: "127.0.0.1", port: pipeline.listener.getPort(), secure: false, ignoreTLS: true });

    // SMTP: one mail accepted (its webhook answers 200), one refused at RCPT TO.
    const accepted = await smtp.sendMail({
      envelope: { from: "bob@example.org", to: ["status-200@hookmail.test"] },
      raw: buildMessage("status-200@hookmail.test", "smtp accepted"),
    });
    expect(accepted.response).toMatch(/^250 /);
    await expect(
      smtp.sendMail({
        envelope: { from: "bob@example.org", to: ["nobody@hookmail.test"] },
        raw: buildMessage("nobody@hookmail.test", "smtp refused"),
      }),
    ).rejects.toMatchObject({ responseCode: 550 });
    smtp.close();

    // HTTP: two mails accepted on /api/inbound/raw (webhooks answering 400 and 503), one refused for a wrong secret.
    expect((await postRaw("status-400@hookmail.test", `Bearer ${INBOUND_SECRET}`)).status).toBe(200);
    expect((await postRaw("status-503@hookmail.test", `Bearer ${INBOUND_SECRET}`)).status).toBe(200);
    expect((await postRaw("status-400@hookmail.test", "Bearer not-the-secret")).status).toBe(401);
    await pipeline.sink.waitForRequests(3);
    await pipeline.worker.whenIdle();

    // The queue: one delivery due for two minutes, one leased by a worker; the 503 is a retry scheduled for later.
    const [callback] = await pipeline.database.prisma.emailCallback.findMany({ where: { username: "status-200" } });
    const now = Date.now();
    await seedDatabase(pipeline.database, {
      processings: [
        { emailCallbackId: callback!.id, status: PROCESSING_STATUS.PENDING, nextAttemptAt: new Date(now - 120_000) },
        {
          emailCallbackId: callback!.id,
          status: PROCESSING_STATUS.PENDING,
          nextAttemptAt: new Date(now - 5_000),
          lockedUntil: new Date(now + 60_000),
        },
      ],
    });

    const { samples, text } = await scrapeSamples();
    const increase = (name: string, labels: Record<string, string>) =>
      findSampleValue(samples, name, labels) - findSampleValue(before, name, labels);
    expect(increase(METRIC_NAME.MAILS_ACCEPTED, { route: "smtp" })).toBe(1);
    expect(increase(METRIC_NAME.MAILS_ACCEPTED, { route: "raw" })).toBe(2);
    expect(increase(METRIC_NAME.MAILS_REFUSED, { route: "smtp", reason: "unknown_recipient" })).toBe(1);
    expect(increase(METRIC_NAME.MAILS_REFUSED, { route: "raw", reason: "unauthorized" })).toBe(1);
    expect(increase(METRIC_NAME.DELIVERIES, { outcome: "delivered" })).toBe(1);
    expect(increase(METRIC_NAME.DELIVERIES, { outcome: "failed" })).toBe(1);
    expect(increase(METRIC_NAME.DELIVERIES, { outcome: "retry" })).toBe(1);
    expect(increase(`${METRIC_NAME.DELIVERY_ATTEMPT_DURATION}_count`, {})).toBe(3);
    expect(findSampleValue(samples, `${METRIC_NAME.DELIVERY_ATTEMPT_DURATION}_bucket`, { le: "+Inf" })).toBe(
      findSampleValue(samples, `${METRIC_NAME.DELIVERY_ATTEMPT_DURATION}_count`),
    );

    expect(findSampleValue(samples, METRIC_NAME.DELIVERY_QUEUE, { state: "due" })).toBe(1);
    expect(findSampleValue(samples, METRIC_NAME.DELIVERY_QUEUE, { state: "leased" })).toBe(1);
    expect(findSampleValue(samples, METRIC_NAME.DELIVERY_QUEUE, { state: "scheduled" })).toBe(1);
    const oldestDueAge = findSampleValue(samples, METRIC_NAME.DELIVERY_QUEUE_OLDEST_DUE_AGE);
    expect(oldestDueAge).toBeGreaterThanOrEqual(119);
    expect(oldestDueAge).toBeLessThan(180);

    // Types as Prometheus reads them, and prom-client's process and event-loop metrics beside ours.
    const types = readMetricTypes(text);
    expect(types.get(METRIC_NAME.MAILS_ACCEPTED)).toBe("counter");
    expect(types.get(METRIC_NAME.DELIVERY_ATTEMPT_DURATION)).toBe("histogram");
    expect(types.get(METRIC_NAME.DELIVERY_QUEUE)).toBe("gauge");
    expect(samples.some((sample) => sample.name === "nodejs_eventloop_lag_seconds")).toBe(true);
    expect(samples.some((sample) => sample.name === "process_cpu_seconds_total")).toBe(true);
    expect(samples.some((sample) => sample.name === "process_resident_memory_bytes")).toBe(true);
  });

  it("answers Prometheus's text format, not cached", async () => {
    const response = await scrape();
    expect(response.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(response.headers.get("cache-control")).toBe("no-store");
  });

  it("answers 401 with the error body without the token or with another one", async () => {
    for (const headers of [{}, { authorization: "Bearer wrong-token" }, { authorization: METRICS_TOKEN }] as Record<
      string,
      string
    >[]) {
      const response = await scrape(headers);
      expect(response.status).toBe(401);
      expect((await response.json()).error.code).toBe("auth.unauthorized");
    }
  });

  it("answers 404 while METRICS_TOKEN is unset, whatever the request sends", async () => {
    useConfig({ METRICS_TOKEN: "" });
    try {
      const response = await scrape();
      expect(response.status).toBe(404);
      expect((await response.json()).error.code).toBe("resource.not_found");
    } finally {
      useConfig();
    }
  });
});
