// GET /api/metrics: Prometheus's text format, `Authorization: Bearer $METRICS_TOKEN` (README: Monitoring).
import { getConfig } from "@/modules/config/config";
import { getMetricsRepository } from "@/modules/metrics/metrics.dependencies";
import { scrapeMetrics } from "@/modules/metrics/metrics.usecases";
import { withErrors } from "@/modules/shared/api/route-handler";
import { getLogger } from "@/modules/shared/logging/logger";

export const dynamic = "force-dynamic";

export const GET = withErrors(async ({ request }) => {
  const { contentType, text } = await scrapeMetrics({
    authorization: request.headers.get("authorization"),
    token: getConfig().metrics.token,
    getRepository: getMetricsRepository,
    logger: getLogger(),
  });
  return new Response(text, { headers: { "Content-Type": contentType, "Cache-Control": "no-store" } });
});
