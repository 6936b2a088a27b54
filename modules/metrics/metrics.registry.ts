// The metrics of this process (README: Monitoring), in one prom-client registry made by the
// composition root (docs/architecture.md: The parts) and handed to the SMTP listener, the delivery
// worker, the HTTP ingest and the /api/metrics route, which count in and serve the same registry. Along with Hookmail's metrics it
// holds prom-client's default ones: process CPU, memory, file descriptors, garbage collection and
// the event loop's delay (nodejs_eventloop_lag_seconds and its percentiles).
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from "prom-client";
import {
  DELIVERY_ATTEMPT_BUCKETS,
  DELIVERY_OUTCOMES,
  DELIVERY_QUEUE_STATES,
  MAIL_ROUTES,
  METRIC_NAME,
} from "./metrics.constants";

export type ProcessMetrics = ReturnType<typeof createProcessMetrics>;

export function createProcessMetrics() {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const registers = [registry];
  const mailsAccepted = new Counter({
    name: METRIC_NAME.MAILS_ACCEPTED,
    help: "Mails accepted (answered 250 over SMTP, 200 over HTTP), by route.",
    labelNames: ["route"] as const,
    registers,
  });
  const mailsRefused = new Counter({
    name: METRIC_NAME.MAILS_REFUSED,
    help: "Mails refused, by route and reason (over SMTP, each refused recipient or session counts once).",
    labelNames: ["route", "reason"] as const,
    registers,
  });
  const deliveries = new Counter({
    name: METRIC_NAME.DELIVERIES,
    help: "Delivery attempts, by outcome: delivered, retry, failed (no retry left), not_enabled, error, skipped.",
    labelNames: ["outcome"] as const,
    registers,
  });
  const attemptDuration = new Histogram({
    name: METRIC_NAME.DELIVERY_ATTEMPT_DURATION,
    help: "Duration of the delivery attempts that sent a webhook request, from the claim to the recorded outcome.",
    buckets: DELIVERY_ATTEMPT_BUCKETS,
    registers,
  });
  const queueDepth = new Gauge({
    name: METRIC_NAME.DELIVERY_QUEUE,
    help: "Pending deliveries in the queue at scrape time, by state: due now, leased by a worker, scheduled for later (NaN: the database could not be read).",
    labelNames: ["state"] as const,
    registers,
  });
  const oldestDueAge = new Gauge({
    name: METRIC_NAME.DELIVERY_QUEUE_OLDEST_DUE_AGE,
    help: "Seconds since the oldest due delivery became due, at scrape time; 0 when none is due (NaN: the database could not be read).",
    registers,
  });
  // Series that exist from the start, so that a rate over them is defined before the first event.
  for (const route of MAIL_ROUTES) mailsAccepted.inc({ route }, 0);
  for (const outcome of DELIVERY_OUTCOMES) deliveries.inc({ outcome }, 0);
  for (const state of DELIVERY_QUEUE_STATES) queueDepth.set({ state }, 0);
  return { registry, mailsAccepted, mailsRefused, deliveries, attemptDuration, queueDepth, oldestDueAge };
}
