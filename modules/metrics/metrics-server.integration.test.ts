// The METRICS_PORT listener (README: Monitoring) of a process without the web role: the same
// metrics and guard as GET /api/metrics, over real HTTP on loopback; anything but a scrape is 404;
// the configuration refuses a port without a token or on a port the process already uses.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "@/modules/config/config";
import type { Database } from "@/modules/db/db";
import { createId } from "@/modules/shared/ids";
import { silentLogger } from "@/modules/shared/logging/logger";
import { createTestDatabase } from "@/tests/support/test-database";
import { METRIC_NAME } from "./metrics.constants";
import { getProcessMetrics } from "./metrics.registry";
import { createMetricsRepository } from "./metrics.repository";
import { type MetricsServer, startMetricsServer } from "./metrics-server";
import { findSampleValue, parsePrometheusText } from "./test-support/prometheus-text";

const TOKEN = "metrics-port-token-0123456789abcdef";

let database: Database;
let server: MetricsServer;

beforeAll(async () => {
  database = await createTestDatabase();
  server = await startMetricsServer({
    host: "127.0.0.1",
    port: 0,
    token: TOKEN,
    getRepository: async () => createMetricsRepository(database),
    logger: silentLogger,
  });
});
afterAll(async () => {
  await server?.stop();
  await database?.close();
});

const request = (path: string, init: RequestInit = {}) =>
  fetch(`http://127.0.0.1:${server.port}${path}`, { ...init, headers: { authorization: `Bearer ${TOKEN}`, ...init.headers } });

describe("the METRICS_PORT listener", () => {
  it("serves this process's counters and the queue on /metrics and /api/metrics, in Prometheus's text format", async () => {
    const metrics = getProcessMetrics();
    const route = "smtp";
    const before = findSampleValue(parsePrometheusText(await (await request("/metrics")).text()), METRIC_NAME.MAILS_ACCEPTED, {
      route,
    });
    metrics.mailsAccepted.inc({ route });
    for (const path of ["/metrics", "/api/metrics"]) {
      const response = await request(path);
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
      expect(response.headers.get("cache-control")).toBe("no-store");
      const samples = parsePrometheusText(await response.text());
      expect(findSampleValue(samples, METRIC_NAME.MAILS_ACCEPTED, { route })).toBe(before + 1);
      expect(findSampleValue(samples, METRIC_NAME.DELIVERY_QUEUE, { state: "due" })).toBe(0);
    }
  });

  it("answers 401 with the API's error body without the token or with another one", async () => {
    for (const authorization of ["", "Bearer wrong-token", TOKEN]) {
      const response = await request("/metrics", { headers: { authorization } });
      expect(response.status).toBe(401);
      expect((await response.json()).error.code).toBe("auth.unauthorized");
    }
  });

  it("answers 404 to any other path or method", async () => {
    for (const [path, method] of [
      ["/", "GET"],
      ["/metrics/x", "GET"],
      [`/${createId("emailCallback")}`, "GET"],
      ["/metrics", "POST"],
      ["/metrics", "DELETE"],
    ] as const) {
      const response = await request(path, { method, ...(method === "POST" ? { body: "x".repeat(10_000) } : {}) });
      expect(response.status, `${method} ${path}`).toBe(404);
      expect((await response.json()).error.code).toBe("resource.not_found");
    }
  });
});

describe("METRICS_PORT in the configuration", () => {
  const problemsOf = (environment: Record<string, string>) => {
    try {
      loadConfig(environment);
      return [];
    } catch (error) {
      if (error instanceof ConfigError) return error.problems.map(({ variable, message }) => `${variable} ${message}`);
      throw error;
    }
  };

  it("is off unless set, and is read as a port", () => {
    expect(loadConfig({}).metrics.port).toBeUndefined();
    expect(loadConfig({ METRICS_PORT: "9464", METRICS_TOKEN: TOKEN }).metrics.port).toBe(9464);
    expect(problemsOf({ METRICS_PORT: "http", METRICS_TOKEN: TOKEN })).toEqual([
      "METRICS_PORT must be a whole number from 1 to 65535",
    ]);
  });

  it("needs METRICS_TOKEN, and a port the process's other listeners do not use", () => {
    expect(problemsOf({ METRICS_PORT: "9464" })).toEqual(["METRICS_TOKEN must be set when METRICS_PORT is"]);
    expect(problemsOf({ METRICS_PORT: "3000", METRICS_TOKEN: TOKEN })).toEqual(["METRICS_PORT must differ from PORT"]);
    expect(problemsOf({ METRICS_PORT: "2525", METRICS_TOKEN: TOKEN })).toEqual(["METRICS_PORT must differ from SMTP_PORT"]);
    expect(
      problemsOf({ METRICS_PORT: "3000", METRICS_TOKEN: TOKEN, HOOKMAIL_ROLES: "smtp,worker", AUTH_SECRET: "x".repeat(32) }),
    ).toEqual([]);
  });
});
