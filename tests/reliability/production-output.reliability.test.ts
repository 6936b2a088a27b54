// The app as `npm start` runs it in production, on the zero-config default (its own embedded
// PostgreSQL server), seen from outside:
//
// - its metrics (README: Monitoring): mail counted by the SMTP listener and the delivery worker,
//   which the custom server loads, is what GET /api/metrics, a route Next.js bundles on its own,
//   serves: one registry per process, served the same on the process's own metrics port
//   (METRICS_PORT);
// - its output (docs/architecture.md: Logs): from the start (a build included, when the sources
//   changed) to the stop after SIGTERM, every line it writes is one JSON object with a level, the
//   embedded server's own lines among them (component "postgres").
import { createTransport } from "nodemailer";
import { describe, expect, it } from "vitest";
import { findSampleValue, parsePrometheusText } from "@/modules/metrics/test-support/prometheus-text";
import { findFreePort } from "@/modules/shared/net/free-port";
import { startWebhookSink } from "@/tests/support/webhook-sink";
import { createAccountWithCallbacks } from "./support/app-account";
import { createAppProcess, tail } from "./support/app-process";
import { setUpReliabilityTest } from "./support/reliability-setup";

const METRICS_TOKEN = "reliability-metrics-token-0123456789";
/** A first start may build the app (minutes). */
const TEST_TIMEOUT_MS = 12 * 60_000;
const { cleanUps } = setUpReliabilityTest();

/** The lines the app wrote (stdout and stderr), without the markers the test helper writes between runs. */
function readAppLines(log: string): string[] {
  return log.split("\n").filter((line) => line.trim() !== "" && !line.startsWith("===== "));
}

describe("the app in production", () => {
  it(
    "serves on /api/metrics and on METRICS_PORT what its SMTP listener and worker counted, and writes only JSON lines with a level, PostgreSQL's own included",
    async () => {
      const sink = await startWebhookSink();
      cleanUps.push(() => sink.close());
      const metricsPort = await findFreePort();
      const app = await createAppProcess({ extraEnvironment: { METRICS_TOKEN, METRICS_PORT: String(metricsPort) } });
      cleanUps.push(() => app.removeDataDir());
      cleanUps.push(() => app.stop());
      await app.start();

      const [callback] = await createAccountWithCallbacks({
        baseUrl: app.baseUrl,
        domain: app.emailDomain,
        usernames: ["metrics"],
        sinkUrl: sink.url(),
      });
      const smtp = createTransport({ host: "127.0.0.1", port: app.smtpPort, secure: false, ignoreTLS: true });
      cleanUps.push(() => smtp.close());
      const raw = (to: string) => `From: bob@example.org\r\nTo: ${to}\r\nSubject: metrics\r\n\r\nHello\r\n`;
      const accepted = await smtp.sendMail({
        envelope: { from: "bob@example.org", to: [callback!.address] },
        raw: raw(callback!.address),
      });
      expect(accepted.response).toMatch(/^250 /);
      const unknown = `nobody@${app.emailDomain}`;
      await expect(
        smtp.sendMail({ envelope: { from: "bob@example.org", to: [unknown] }, raw: raw(unknown) }),
      ).rejects.toMatchObject({
        responseCode: 550,
      });
      await sink.waitForRequests(1);

      const scrape = (headers: Record<string, string>) => fetch(`${app.baseUrl}/api/metrics`, { headers });
      expect((await scrape({})).status).toBe(401);
      // The delivery is recorded just after the webhook answered: the next scrape sees it.
      let samples = parsePrometheusText("");
      for (let tries = 0; tries < 50; tries += 1) {
        const response = await scrape({ authorization: `Bearer ${METRICS_TOKEN}` });
        expect(response.status).toBe(200);
        samples = parsePrometheusText(await response.text());
        if (findSampleValue(samples, "hookmail_deliveries_total", { outcome: "delivered" }) >= 1) break;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(findSampleValue(samples, "hookmail_mails_accepted_total", { route: "smtp" })).toBe(1);
      expect(findSampleValue(samples, "hookmail_mails_refused_total", { route: "smtp", reason: "unknown_recipient" })).toBe(1);
      expect(findSampleValue(samples, "hookmail_deliveries_total", { outcome: "delivered" })).toBe(1);
      expect(findSampleValue(samples, "hookmail_delivery_queue_depth", { state: "due" })).toBe(0);
      expect(samples.some((sample) => sample.name === "nodejs_eventloop_lag_seconds")).toBe(true);

      const ownPort = (headers: Record<string, string>) => fetch(`http://127.0.0.1:${metricsPort}/metrics`, { headers });
      expect((await ownPort({})).status).toBe(401);
      const fromOwnPort = parsePrometheusText(await (await ownPort({ authorization: `Bearer ${METRICS_TOKEN}` })).text());
      for (const [name, labels] of [
        ["hookmail_mails_accepted_total", { route: "smtp" }],
        ["hookmail_mails_refused_total", { route: "smtp", reason: "unknown_recipient" }],
        ["hookmail_deliveries_total", { outcome: "delivered" }],
      ] as const) {
        expect(findSampleValue(fromOwnPort, name, labels), name).toBe(findSampleValue(samples, name, labels));
      }

      await app.stop();
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(app.exits.at(-1)).toMatchObject({ code: 0, signal: null });

      const lines = readAppLines(app.readLog());
      const notJson = lines.filter((line) => {
        try {
          const entry = JSON.parse(line) as { level?: unknown };
          return typeof entry !== "object" || entry === null || typeof entry.level !== "number";
        } catch {
          return true;
        }
      });
      expect(notJson, `lines that are not a JSON object with a level; log:\n${tail(app.readLog(), 3_000)}`).toEqual([]);
      const entries = lines.map((line) => JSON.parse(line) as { level: number; msg: string; component?: string });
      const postgres = entries.filter((entry) => entry.component === "postgres");
      expect(postgres.some((entry) => entry.msg.includes("database system is ready to accept connections"))).toBe(true);
      expect(postgres.some((entry) => entry.msg.includes("database system is shut down"))).toBe(true);
      expect(entries.some((entry) => entry.msg === "Embedded PostgreSQL stopped")).toBe(true);
      console.log(
        `production-output: ${entries.length} lines, ${postgres.length} from PostgreSQL, ${entries.filter((entry) => entry.component === "next-build").length} from next build`,
      );
    },
    TEST_TIMEOUT_MS,
  );
});
