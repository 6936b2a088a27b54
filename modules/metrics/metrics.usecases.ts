// GET /api/metrics (README: Monitoring): answers 404 while METRICS_TOKEN is unset, 401 without the
// token, else this process's metrics in Prometheus's text format, the delivery queue's depth read
// from the database at that moment. The token is compared in constant time.
import { createHash, timingSafeEqual } from "node:crypto";
import { createNotFoundError } from "@/modules/shared/errors/app-error";
import type { Logger } from "@/modules/shared/logging/logger";
import { DELIVERY_QUEUE_STATES } from "./metrics.constants";
import { createMetricsUnauthorizedError } from "./metrics.errors";
import type { ProcessMetrics } from "./metrics.registry";
import type { MetricsRepository } from "./metrics.repository";

const digest = (value: string) => createHash("sha256").update(value).digest();

/** Whether the Authorization header is `Bearer <token>` (both sides hashed first: the time does not depend on the input). */
export function isMetricsTokenValid(authorization: string | null, token: string): boolean {
  const match = /^Bearer[ \t]+(.+)$/i.exec(authorization?.trim() ?? "");
  const given = match?.[1]?.trim() ?? "";
  return timingSafeEqual(digest(given), digest(token)) && given.length > 0;
}

export async function scrapeMetrics({
  authorization,
  token,
  getRepository,
  logger,
  now = new Date(),
  metrics,
}: {
  authorization: string | null;
  /** METRICS_TOKEN. */
  token: string | undefined;
  getRepository: () => Promise<MetricsRepository>;
  logger: Logger;
  now?: Date;
  metrics: ProcessMetrics;
}): Promise<{ contentType: string; text: string }> {
  if (!token) throw createNotFoundError();
  if (!isMetricsTokenValid(authorization, token)) throw createMetricsUnauthorizedError();
  await updateDeliveryQueueGauges({ metrics, getRepository, logger, now });
  return { contentType: metrics.registry.contentType, text: await metrics.registry.metrics() };
}

/** The queue gauges as the database says now; NaN when it cannot be read (the process's own metrics are still served). */
async function updateDeliveryQueueGauges({
  metrics,
  getRepository,
  logger,
  now,
}: {
  metrics: ProcessMetrics;
  getRepository: () => Promise<MetricsRepository>;
  logger: Logger;
  now: Date;
}) {
  try {
    const depth = await (await getRepository()).readDeliveryQueueDepth(now);
    for (const state of DELIVERY_QUEUE_STATES) metrics.queueDepth.set({ state }, depth[state]);
    metrics.oldestDueAge.set(depth.oldestDueAgeSeconds);
  } catch (error) {
    logger.warn({ err: error }, "Metrics: could not read the delivery queue's depth");
    for (const state of DELIVERY_QUEUE_STATES) metrics.queueDepth.set({ state }, Number.NaN);
    metrics.oldestDueAge.set(Number.NaN);
  }
}
