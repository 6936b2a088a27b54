// GET /api/metrics: Prometheus's text format, `Authorization: Bearer $METRICS_TOKEN` (README: Monitoring).
import { getMetricsRepository } from "@/modules/metrics/metrics.dependencies";
import { scrapeMetrics } from "@/modules/metrics/metrics.usecases";
import { withErrors } from "@/modules/server/routes";

export const dynamic = "force-dynamic";

export const GET = withErrors(async ({ request, services }) => {
  const { contentType, text } = await scrapeMetrics({
    authorization: request.headers.get("authorization"),
    token: services.config.metrics.token,
    getRepository: () => getMetricsRepository(services.database),
    logger: services.logger,
    metrics: services.metrics(),
  });
  return new Response(text, { headers: { "Content-Type": contentType, "Cache-Control": "no-store" } });
});
