// The product's side of bench/large-message.ts: forked by it (with --expose-gc and --product) so that
// the memory measured is the product's alone. It runs the SMTP listener, the pipeline, the database
// and the delivery worker, and answers the parent's commands over IPC: open a database and a
// listener, take the baseline after a warm-up and a GC, measure the peak once a message is through.
// The constants and message types both processes use live here.

import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { createLogger, loggerOptionsFromEnvironment } from "@/modules/shared/logging/logger";
import { seedDatabase } from "../tests/support/seed";
import { startRouteServer, toRouteRequest } from "./route-adapter";
import { productSettings } from "./settings";

export const MAX_MESSAGE_BYTES = 26_214_400;
export const INBOUND_SECRET = "bench-inbound-secret-0123456789";
export const WEBHOOK_SECRET = "bench-webhook-secret-0123456789";
const SAMPLE_INTERVAL_MS = 5;

export type Route = "smtp" | "raw";

// ---------------------------------------------------------------------------------------------
// Memory figures of this process

function readStatusKib(field: "VmHWM" | "VmRSS"): number {
  const match = new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(fs.readFileSync("/proc/self/status", "utf8"));
  if (!match) throw new Error(`/proc/self/status has no ${field}`);
  return Number(match[1]);
}

/** Resets the kernel's peak RSS (VmHWM) of this process to its current RSS (Linux ≥ 4.0). */
function resetPeakRss() {
  fs.writeFileSync("/proc/self/clear_refs", "5");
}

export type MemoryBreakdown = { rss: number; heapUsed: number; heapTotal: number; external: number; arrayBuffers: number };

// ---------------------------------------------------------------------------------------------
// The product (child process)

export type ProductCommand =
  | { command: "open"; serverUrl: string; sinkUrl: string }
  | { command: "baseline" }
  | { command: "measure" }
  | { command: "close" };

export type Baseline = { rss: number; breakdown: MemoryBreakdown };
export type Measurement = {
  peakRss: number;
  /** VmHWM when the message had been accepted (recorded; before the answer to the sender). */
  peakRssAtAcceptance: number;
  sampledPeak: MemoryBreakdown;
  rssAfter: number;
  statuses: Record<string, number>;
};

async function runProduct() {
  const { loadConfig } = await import("@/modules/config/config");
  const { createServices, setServices } = await import("@/modules/server/services");
  const { createId } = await import("@/modules/shared/ids");
  const { createSmtpListener } = await import("@/modules/smtp/smtp-listener");
  const { openBenchDatabase } = await import("./bench-database");
  const { POST: inboundPost } = await import("@/app/api/inbound/[provider]/route");
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error("the product process needs --expose-gc");

  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "hookmail-large-"));
  const config = loadConfig(
    productSettings(dataDir, { WEBHOOK_TIMEOUT_MS: "60000", INBOUND_SECRET, MAX_MESSAGE_BYTES: String(MAX_MESSAGE_BYTES) }),
  );
  const logger = createLogger(loggerOptionsFromEnvironment(process.env));

  let closeAll: () => Promise<void> = async () => undefined;
  let countStatuses: () => Promise<Record<string, number>> = async () => ({});
  let whenIdle: () => Promise<void> = async () => undefined;
  let sampler: NodeJS.Timeout | undefined;
  let sampledPeak: MemoryBreakdown = { rss: 0, heapUsed: 0, heapTotal: 0, external: 0, arrayBuffers: 0 };
  let peakRssAtAcceptance = 0;
  const noteAcceptance = () => {
    peakRssAtAcceptance = readStatusKib("VmHWM") * 1024;
  };

  const open = async (serverUrl: string, sinkUrl: string) => {
    const closers: (() => Promise<void>)[] = [];
    const database = await openBenchDatabase(serverUrl, { poolSize: 10 });
    closers.unshift(() => database.close());
    // The process's services, made by the composition root as `npm start` makes them; the route
    // handler called below reaches them through its accessor.
    const services = createServices({ config, logger, projectDir: process.cwd(), database });
    setServices(services);
    const worker = await services.delivery();
    closers.unshift(async () => {
      await services.close();
      setServices(undefined);
    });
    const userId = createId("user");
    await seedDatabase(database, {
      users: [{ id: userId, email: "large@example.com", name: "Bench" }],
      emailCallbacks: [{ userId, username: "large", webhookUrl: sinkUrl, webhookSecret: WEBHOOK_SECRET }],
    });

    const pipeline = await services.inbound();
    const listener = createSmtpListener({
      config: { ...config, smtp: { ...config.smtp, host: "127.0.0.1", port: 0 } },
      checkRecipient: pipeline.checkRecipient,
      receive: async (args) => {
        const result = await pipeline.receive(args);
        noteAcceptance();
        return result;
      },
      logger,
      metrics: services.metrics(),
      spool: services.spool(),
    });
    await listener.listen();
    closers.unshift(() => listener.close());

    // The raw route behind the benchmarks' node:http → Request adapter (bench/route-adapter.ts).
    const httpServer = await startRouteServer(async (incoming) => {
      const body = Readable.toWeb(incoming) as ReadableStream<Uint8Array>;
      const response = await inboundPost(toRouteRequest(incoming, body), { params: Promise.resolve({ provider: "raw" }) });
      noteAcceptance();
      return response;
    });
    closers.unshift(httpServer.close);

    whenIdle = () => worker.whenIdle();
    countStatuses = async () => {
      const groups = await database.prisma.emailProcessing.groupBy({ by: ["status"], _count: { _all: true } });
      return Object.fromEntries(groups.map((group) => [group.status, group._count._all]));
    };
    closeAll = async () => {
      for (const close of closers) await close();
    };
    return { smtpPort: listener.getPort(), httpPort: httpServer.port };
  };

  const settle = async () => {
    for (let i = 0; i < 3; i++) {
      gc();
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };

  const handle = async (message: ProductCommand): Promise<unknown> => {
    switch (message.command) {
      case "open":
        return open(message.serverUrl, message.sinkUrl);
      case "baseline": {
        await settle();
        const breakdown = process.memoryUsage();
        resetPeakRss();
        sampledPeak = breakdown;
        sampler = setInterval(() => {
          const rss = process.memoryUsage.rss();
          if (rss > sampledPeak.rss) sampledPeak = process.memoryUsage();
        }, SAMPLE_INTERVAL_MS);
        return { rss: readStatusKib("VmRSS") * 1024, breakdown } satisfies Baseline;
      }
      case "measure": {
        await whenIdle();
        clearInterval(sampler);
        const peakRss = readStatusKib("VmHWM") * 1024;
        const statuses = await countStatuses();
        await settle();
        return { peakRss, peakRssAtAcceptance, sampledPeak, rssAfter: process.memoryUsage.rss(), statuses } satisfies Measurement;
      }
      case "close":
        await closeAll();
        fs.rmSync(dataDir, { recursive: true, force: true });
        return null;
    }
  };

  process.on("message", (message: ProductCommand & { requestId: number }) => {
    handle(message).then(
      (result) => process.send!({ requestId: message.requestId, result }),
      (error: unknown) =>
        process.send!({
          requestId: message.requestId,
          error: error instanceof Error ? (error.stack ?? error.message) : String(error),
        }),
    );
  });
  process.on("disconnect", () => process.exit(0));
  process.send!({ ready: true });
}

if (process.argv.includes("--product")) {
  runProduct().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
