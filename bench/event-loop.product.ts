// The product's side of bench/event-loop.ts, forked by it with --product: the SMTP listener, the raw
// route and the health route (the app's own handlers behind a node:http adapter), the delivery
// worker, on a fresh database of the server the parent names (embedded by default, or DATABASE_URL's). It measures its own event-loop delay
// (perf_hooks.monitorEventLoopDelay) between the parent's "start" and "stop" over IPC. In mode
// "main" it sets the process's parser to the same code run on this thread: a switch of this
// benchmark only, not a product setting. The constants both processes use live here.

import fs from "node:fs";
import type http from "node:http";
import os from "node:os";
import path from "node:path";
import { monitorEventLoopDelay } from "node:perf_hooks";
import type { MessageParser } from "@/modules/inbound/parse-pool";
import { runMessageChecks } from "@/modules/inbound/parsing/message-checks";
import { isSpooledMessage, openSpooledMessage } from "@/modules/inbound/parsing/message-source";
import { parseMail } from "@/modules/inbound/parsing/webhook-payload";
import { silentLogger } from "@/modules/shared/logging/logger";
import { seedDatabase } from "../tests/support/seed";
import { startRouteServer, toRouteRequest } from "./route-adapter";
import { productSettings } from "./settings";

export type BenchMode = "pool" | "main";

export const MAX_MESSAGE_BYTES = 26_214_400;
export const INBOUND_SECRET = "bench-inbound-secret-0123456789";
export const SMTP_USER = "loop-smtp";
export const HTTP_USER = "loop-http";

async function runProduct(mode: BenchMode, sinkUrl: string) {
  const { loadConfig } = await import("@/modules/config/config");
  const { migrateDatabase, openDatabase } = await import("@/modules/db/db");
  const { createServices, setServices } = await import("@/modules/server/services");
  const { buildMessageOutputs } = await import("@/modules/inbound/parsing/webhook-payload");
  const { createId } = await import("@/modules/shared/ids");
  const { isAppError } = await import("@/modules/shared/errors/app-error");
  const { createSmtpListener } = await import("@/modules/smtp/smtp-listener");
  const { createDatabaseOn } = await import("./bench-database");
  const { POST: inboundPost } = await import("@/app/api/inbound/[provider]/route");
  const { GET: healthGet } = await import("@/app/api/health/route");

  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "hookmail-loop-"));
  const config = loadConfig(productSettings(dataDir, { INBOUND_SECRET, MAX_MESSAGE_BYTES: String(MAX_MESSAGE_BYTES) }));
  const { url, drop } = await createDatabaseOn(process.env.BENCH_SERVER_URL!);
  const database = await openDatabase({ url, poolSize: 10 });
  await migrateDatabase(database, silentLogger);
  const userId = createId("user");
  await seedDatabase(database, {
    users: [{ id: userId, email: "loop@example.com", name: "Bench" }],
    emailCallbacks: [SMTP_USER, HTTP_USER].map((username) => ({ userId, username, webhookUrl: sinkUrl })),
  });

  // In "main" mode the same code, run on this thread: what the pipeline did before the pool.
  const mainThreadParser: MessageParser | undefined =
    mode === "main"
      ? {
          parse: async (input) => {
            try {
              const raw = isSpooledMessage(input.raw) ? await openSpooledMessage(input.raw) : input.raw;
              const checked = await runMessageChecks({ raw, sender: input.sender, checks: input.checks });
              const outputs = await buildMessageOutputs({ ...input, raw, ...checked });
              const kept = Buffer.isBuffer(raw) ? raw : null;
              return { kind: "parsed", raw: kept, ...outputs, authentication: checked.authentication, spam: checked.spam };
            } catch (error) {
              if (isAppError(error) && error.code === "inbound.invalid_message")
                return { kind: "invalid", reason: error.message };
              throw error;
            }
          },
          extractAttachment: async (raw, index) => {
            const attachment = (await parseMail(raw)).attachments[index];
            return attachment?.content
              ? { bytes: attachment.content, contentType: attachment.contentType, filename: attachment.filename ?? "" }
              : null;
          },
          close: async () => undefined,
        }
      : undefined;
  // The process's services, made by the composition root as `npm start` makes them; the route
  // handlers called below reach them through its accessor.
  const services = createServices({
    config,
    logger: silentLogger,
    projectDir: process.cwd(),
    database,
    parser: mainThreadParser,
  });
  setServices(services);
  const worker = await services.delivery();
  if (mode === "pool") {
    // A running process has parsed mail before: its warm thread is ready.
    await services.parser().parse({
      raw: Buffer.from("Subject: warm\r\n\r\nup\r\n"),
      sender: null,
      receivedAt: new Date(),
      payloads: [],
    });
  }

  const pipeline = await services.inbound();
  const listener = createSmtpListener({
    config: { ...config, smtp: { ...config.smtp, host: "127.0.0.1", port: 0 } },
    checkRecipient: pipeline.checkRecipient,
    receive: pipeline.receive,
    logger: silentLogger,
    metrics: services.metrics(),
    spool: services.spool(),
  });
  await listener.listen();

  const server = await startRouteServer(async (incoming) =>
    incoming.url === "/api/health"
      ? healthGet()
      : inboundPost(toRouteRequest(incoming, toWebStream(incoming)), { params: Promise.resolve({ provider: "raw" }) }),
  );

  const histogram = monitorEventLoopDelay({ resolution: 10 });
  process.on("message", (message: { command: "start" | "stop" | "close" }) => {
    if (message.command === "start") {
      histogram.reset();
      histogram.enable();
      process.send!({ started: true });
    } else if (message.command === "stop") {
      histogram.disable();
      const ms = (nanoseconds: number) => nanoseconds / 1e6;
      process.send!({ loop: { p50: ms(histogram.percentile(50)), p99: ms(histogram.percentile(99)), max: ms(histogram.max) } });
    } else {
      void (async () => {
        await server.close();
        await listener.close();
        await worker.stop();
        await services.close();
        await database.close();
        await drop();
        fs.rmSync(dataDir, { recursive: true, force: true });
        process.send!({ closed: true });
        process.exit(0);
      })();
    }
  });
  process.send!({ ready: true, smtpPort: listener.getPort(), httpPort: server.port });
}

/**
 * The request body as a web stream. Node 20's Readable.toWeb throws out of the process when a route
 * stops reading early (a 413 over the size limit) and the socket then ends; this one stops quietly.
 */
function toWebStream(incoming: http.IncomingMessage): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>({
    start(controller) {
      const settle = (step: () => void) => {
        try {
          step();
        } catch {
          incoming.destroy();
        }
      };
      incoming.on("data", (chunk: Buffer) =>
        settle(() => {
          controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
          if ((controller.desiredSize ?? 1) <= 0) incoming.pause();
        }),
      );
      incoming.on("end", () => settle(() => controller.close()));
      incoming.on("error", (error) => settle(() => controller.error(error)));
    },
    pull() {
      incoming.resume();
    },
    cancel() {
      incoming.destroy();
    },
  });
}

if (process.argv[2] === "--product") {
  runProduct(process.argv[3] as BenchMode, process.argv[4]!).catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
