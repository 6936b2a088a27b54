// The guard of GET /api/metrics and what it answers when the database cannot be read (README: Monitoring).
import { describe, expect, it } from "vitest";
import { createInvalidMessageError } from "@/modules/inbound/parsing/parsing.errors";
import { createMemoryLogger } from "@/tests/support/memory-logger";
import { findRefusalReason, measureDeliveryAttempt } from "./metrics";
import { METRIC_NAME } from "./metrics.constants";
import { createProcessMetrics } from "./metrics.registry";
import { isMetricsTokenValid, scrapeMetrics } from "./metrics.usecases";
import { findSampleValue, parsePrometheusText } from "./test-support/prometheus-text";

const TOKEN = "a-metrics-token-0123456789";

/** The process's metrics, as the composition root makes them. */
const processMetrics = createProcessMetrics();

describe("the metrics token", () => {
  it("is accepted only as `Bearer <token>`, the scheme in any case", () => {
    expect(isMetricsTokenValid(`Bearer ${TOKEN}`, TOKEN)).toBe(true);
    expect(isMetricsTokenValid(`bearer  ${TOKEN}`, TOKEN)).toBe(true);
    expect(isMetricsTokenValid(TOKEN, TOKEN)).toBe(false);
    expect(isMetricsTokenValid(`Bearer ${TOKEN}x`, TOKEN)).toBe(false);
    expect(isMetricsTokenValid(`Basic ${TOKEN}`, TOKEN)).toBe(false);
    expect(isMetricsTokenValid("Bearer ", TOKEN)).toBe(false);
    expect(isMetricsTokenValid(null, TOKEN)).toBe(false);
  });
});

describe("scrapeMetrics", () => {
  it("still serves the process's metrics when the queue cannot be read: the queue gauges are NaN and a warning is logged", async () => {
    const memory = createMemoryLogger();
    const { text } = await scrapeMetrics({
      authorization: `Bearer ${TOKEN}`,
      token: TOKEN,
      getRepository: async () => {
        throw new Error("connection refused");
      },
      logger: memory.logger,
      metrics: processMetrics,
    });
    const samples = parsePrometheusText(text);
    expect(findSampleValue(samples, METRIC_NAME.DELIVERY_QUEUE, { state: "due" })).toBeNaN();
    expect(findSampleValue(samples, METRIC_NAME.DELIVERY_QUEUE_OLDEST_DUE_AGE)).toBeNaN();
    expect(samples.some((sample) => sample.name === "process_cpu_seconds_total")).toBe(true);
    expect(memory.errors.map(({ line }) => line)).toEqual(["Metrics: could not read the delivery queue's depth"]);
    expect(memory.entries).toContainEqual(
      expect.objectContaining({
        msg: "Metrics: could not read the delivery queue's depth",
        err: expect.objectContaining({ message: "connection refused" }),
      }),
    );
  });
});

describe("the counting calls", () => {
  it("name a refusal by the error's code, and anything unexpected internal_error", () => {
    expect(findRefusalReason(createInvalidMessageError())).toBe("invalid_message");
    expect(findRefusalReason(new Error("disk full"))).toBe("internal_error");
  });

  it("count a delivery attempt's outcome, and time only the attempts that sent a request", async () => {
    const metrics = processMetrics;
    const count = async (outcome: string) =>
      (await metrics.deliveries.get()).values.find((v) => v.labels.outcome === outcome)?.value ?? 0;
    const timed = async () =>
      (await metrics.attemptDuration.get()).values.find((v) => v.metricName?.endsWith("_count"))?.value ?? 0;
    const [delivered, skipped, durations] = [await count("delivered"), await count("skipped"), await timed()];
    await measureDeliveryAttempt(processMetrics, async () => ({ kind: "success" }));
    await measureDeliveryAttempt(processMetrics, async () => ({ kind: "skipped", reason: "claim-lost" }));
    expect(await count("delivered")).toBe(delivered + 1);
    expect(await count("skipped")).toBe(skipped + 1);
    expect(await timed()).toBe(durations + 1);
  });
});
