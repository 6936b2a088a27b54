// The process's metrics on a port of its own (METRICS_PORT, README: Monitoring), for the processes
// that serve no HTTP (the smtp and worker roles) and whose counters GET /api/metrics therefore
// cannot show. `GET /metrics` (or `/api/metrics`) answers exactly as the web route does, with the
// same token; any other request gets the API's 404. It listens on METRICS_HOST (loopback unless
// told otherwise). Requests are small and short: the body is not read, and a connection that sends
// no request, or dawdles over one, is closed within seconds (docs/security.md).
import http from "node:http";
import type { AddressInfo } from "node:net";
import { createNotFoundError } from "@/modules/shared/errors/app-error";
import { toErrorResponse } from "@/modules/shared/errors/error-response";
import type { Logger } from "@/modules/shared/logging/logger";
import { METRICS_SERVER_LIMITS, METRICS_SERVER_PATHS } from "./metrics.constants";
import type { ProcessMetrics } from "./metrics.registry";
import type { MetricsRepository } from "./metrics.repository";
import { scrapeMetrics } from "./metrics.usecases";

export type MetricsServer = { port: number; stop: () => Promise<void> };

export async function startMetricsServer({
  host,
  port,
  token,
  getRepository,
  logger,
  metrics,
}: {
  /** METRICS_HOST: an address or a host name to listen on (0.0.0.0 or :: for every interface). */
  host: string;
  /** 0 picks a free port (tests). */
  port: number;
  token: string;
  getRepository: () => Promise<MetricsRepository>;
  logger: Logger;
  /** The process's metrics, served with the queue's depth. */
  metrics: ProcessMetrics;
}): Promise<MetricsServer> {
  async function answer(request: http.IncomingMessage): Promise<Response> {
    try {
      const { pathname } = new URL(request.url ?? "/", "http://metrics.invalid");
      const isScrape = (request.method === "GET" || request.method === "HEAD") && METRICS_SERVER_PATHS.includes(pathname);
      if (!isScrape) throw createNotFoundError();
      const { contentType, text } = await scrapeMetrics({
        authorization: request.headers.authorization ?? null,
        token,
        getRepository,
        logger,
        metrics,
      });
      return new Response(text, { headers: { "Content-Type": contentType, "Cache-Control": "no-store" } });
    } catch (error) {
      return toErrorResponse(error, logger);
    }
  }

  const limits = METRICS_SERVER_LIMITS;
  const server = http.createServer({ connectionsCheckingInterval: limits.timeoutCheckIntervalMs }, (request, response) => {
    request.resume();
    answer(request)
      .then(async (answered) => {
        response.writeHead(answered.status, Object.fromEntries(answered.headers));
        response.end(request.method === "HEAD" ? undefined : Buffer.from(await answered.arrayBuffer()));
      })
      .catch((error: unknown) => {
        logger.error({ err: error }, "Answering a metrics request failed");
        response.destroy();
      });
  });
  server.headersTimeout = limits.headersTimeoutMs;
  server.requestTimeout = limits.requestTimeoutMs;
  server.keepAliveTimeout = limits.keepAliveTimeoutMs;
  server.timeout = limits.idleTimeoutMs;
  server.maxHeadersCount = limits.maxHeadersCount;
  server.maxConnections = limits.maxConnections;
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    const listening = () => {
      server.off("error", reject);
      resolve();
    };
    server.listen(port, host, listening);
  });
  return {
    port: (server.address() as AddressInfo).port,
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
