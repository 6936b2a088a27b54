// The METRICS_PORT listener (README: Monitoring) of a process without the web role: the same
// metrics and guard as GET /api/metrics, over real HTTP on loopback; anything but a scrape is 404;
// connections that send nothing neither block a scrape nor stay open (docs/security.md); it
// listens where METRICS_HOST says; the configuration refuses a port without a token or on a port
// the process already uses, and a METRICS_HOST that is no address.
import http from "node:http";
import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "@/modules/config/config";
import type { Database } from "@/modules/db/db";
import { createId } from "@/modules/shared/ids";
import { silentLogger } from "@/modules/shared/logging/logger";
import { createTestDatabase } from "@/tests/support/test-database";
import { METRIC_NAME, METRICS_SERVER_LIMITS } from "./metrics.constants";
import { createProcessMetrics } from "./metrics.registry";
import { createMetricsRepository } from "./metrics.repository";
import { type MetricsServer, startMetricsServer } from "./metrics-server";
import { findSampleValue, parsePrometheusText } from "./test-support/prometheus-text";

const TOKEN = "metrics-port-token-0123456789abcdef";

/** The process's metrics, as the composition root makes them. */
const processMetrics = createProcessMetrics();

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
    metrics: processMetrics,
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
    const metrics = processMetrics;
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

/** A TCP connection to the listener that sends `text` (nothing by default); resolves once connected. */
function openConnection(port: number, text = "", host = "127.0.0.1") {
  const socket = net.connect(port, host);
  let received = "";
  socket.setEncoding("utf8");
  socket.on("data", (chunk: string) => {
    received += chunk;
  });
  socket.on("error", () => undefined);
  const closed = new Promise<number>((resolve) => socket.once("close", () => resolve(Date.now())));
  const connected = new Promise<void>((resolve, reject) => {
    socket.once("connect", () => {
      if (text) socket.write(text);
      resolve();
    });
    socket.once("error", reject);
  });
  return { socket, connected, closed, received: () => received };
}

/** A scrape on a connection of its own (fetch would reuse one of its pool's): its status and how long it took. */
function scrapeOnNewConnection(port: number): Promise<{ status: number; text: string; milliseconds: number }> {
  const startedAt = performance.now();
  return new Promise((resolve, reject) => {
    const headers = { authorization: `Bearer ${TOKEN}` };
    http
      .get({ host: "127.0.0.1", port, path: "/metrics", headers, agent: false }, (response) => {
        let text = "";
        response.setEncoding("utf8");
        response.on("data", (chunk: string) => {
          text += chunk;
        });
        response.on("end", () =>
          resolve({ status: response.statusCode ?? 0, text, milliseconds: performance.now() - startedAt }),
        );
      })
      .on("error", reject);
  });
}

describe("the METRICS_PORT listener and connections that send nothing (docs/security.md)", () => {
  it("answers a scrape at once while 50 connections that sent no request are held open", async () => {
    const idle = Array.from({ length: 50 }, () => openConnection(server.port));
    try {
      await Promise.all(idle.map(({ connected }) => connected));
      await new Promise((resolve) => setTimeout(resolve, 100));
      const scrape = await scrapeOnNewConnection(server.port);
      expect(scrape.status).toBe(200);
      expect(scrape.text).toContain(METRIC_NAME.MAILS_ACCEPTED);
      expect(scrape.milliseconds).toBeLessThan(1_000);
    } finally {
      for (const { socket } of idle) socket.destroy();
    }
  });

  it("closes a connection that sends no request, and one kept open after its answer, within a few seconds", async () => {
    const openedAt = Date.now();
    const silent = openConnection(server.port);
    const scrape = `GET /metrics HTTP/1.1\r\nHost: metrics\r\nAuthorization: Bearer ${TOKEN}\r\n\r\n`;
    const keptAlive = openConnection(server.port, scrape);
    await Promise.all([silent.connected, keptAlive.connected]);
    const [silentClosedAt, keptAliveClosedAt] = await Promise.all([silent.closed, keptAlive.closed]);
    // The headers' timeout is checked once a second; Node gives a kept-alive connection 1 s more.
    expect(silentClosedAt - openedAt).toBeLessThan(
      METRICS_SERVER_LIMITS.headersTimeoutMs + METRICS_SERVER_LIMITS.timeoutCheckIntervalMs + 500,
    );
    expect(silent.received()).toMatch(/^HTTP\/1\.1 408 /);
    expect(keptAlive.received()).toMatch(/^HTTP\/1\.1 200 /);
    expect(keptAliveClosedAt - openedAt).toBeLessThan(METRICS_SERVER_LIMITS.keepAliveTimeoutMs + 1_000 + 1_000);
  }, 15_000);
});

describe("METRICS_HOST", () => {
  it("binds the listener to the address it names, and to no other", async () => {
    const elsewhere = await startMetricsServer({
      host: "127.0.0.2",
      port: 0,
      token: TOKEN,
      getRepository: async () => createMetricsRepository(database),
      logger: silentLogger,
      metrics: processMetrics,
    });
    try {
      const response = await fetch(`http://127.0.0.2:${elsewhere.port}/metrics`, {
        headers: { authorization: `Bearer ${TOKEN}` },
      });
      expect(response.status).toBe(200);
      const onOtherAddress = openConnection(elsewhere.port, "", "127.0.0.1");
      await expect(onOtherAddress.connected).rejects.toMatchObject({ code: "ECONNREFUSED" });
    } finally {
      await elsewhere.stop();
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

  it("listens on loopback (127.0.0.1) unless METRICS_HOST names an IP address or a host name", () => {
    expect(loadConfig({ METRICS_PORT: "9464", METRICS_TOKEN: TOKEN }).metrics.host).toBe("127.0.0.1");
    for (const host of ["0.0.0.0", "::", "::1", "10.0.0.7", "metrics.internal", "localhost"]) {
      expect(loadConfig({ METRICS_PORT: "9464", METRICS_TOKEN: TOKEN, METRICS_HOST: host }).metrics.host).toBe(host);
    }
    for (const host of ["[::1]", "10.0.0.7:9464", "http://metrics.internal", "metrics internal", "-metrics", "*"]) {
      expect(problemsOf({ METRICS_PORT: "9464", METRICS_TOKEN: TOKEN, METRICS_HOST: host }), host).toEqual([
        "METRICS_HOST must be an IP address (such as 127.0.0.1, 0.0.0.0 or ::) or a host name",
      ]);
    }
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
