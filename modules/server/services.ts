// The composition root (docs/architecture.md: The parts): the one place where a process's services
// are made: its configuration, logger, database, auth, mailer, metrics, parse pool, spool, delivery
// worker, inbound pipeline, download gate, live-events listener, Stripe client and content-link key. `npm
// start` makes them once (start.ts) and hands them to the roles; Next's route handlers and server
// components, bundled apart from the custom server, reach the same object through getServices(),
// the one value this process keeps on globalThis. What must not be made before it is needed (the
// database during `next build`, the thread pool, a Stripe client) is made on first use, inside the
// object, never in a module of its own.
import { type Auth, createAuth } from "@/modules/auth/auth.server";
import { createStripeClient } from "@/modules/billing/stripe-client";
import { getAuthSecret } from "@/modules/config/auth-secret";
import { type Config, loadConfig } from "@/modules/config/config";
import { deriveContentLinkKey } from "@/modules/content-links/content-links";
import { createDownloadGate, DEFAULT_DOWNLOAD_LIMITS, type DownloadGate } from "@/modules/content-links/download-gate";
import { type Database, openConfiguredDatabase } from "@/modules/db/db";
import { createDeliveryAlerts } from "@/modules/delivery/delivery-alerts";
import { createDeliveryAlertsRepository } from "@/modules/delivery/delivery-alerts.repository";
import { createDeliveryWorker, type DeliveryDispatcher } from "@/modules/delivery/delivery-worker";
import { deriveSigningKeyEncryptionKey } from "@/modules/delivery/signing-keys";
import { createProcessEventsListener } from "@/modules/events/events.dependencies";
import { createDataDirSpool } from "@/modules/inbound/message-spool";
import { createParsePool, type MessageParser } from "@/modules/inbound/parse-pool";
import { createInboundPipeline } from "@/modules/inbound/receive-message";
import { createRecipientCache } from "@/modules/inbound/recipient-cache";
import { createMailerFromConfig, type Mailer } from "@/modules/mail/mailer";
import { createProcessMetrics } from "@/modules/metrics/metrics.registry";
import { buildOpenApiDocument } from "@/modules/openapi/openapi.document";
import { createLogger, type Logger, loggerOptionsFromEnvironment } from "@/modules/shared/logging/logger";
import { readProcessServices, setServices } from "./process-services";
import type { Services } from "./services.types";

export type { Services };

export { setServices };

export type ServicesOptions = {
  config: Config;
  logger: Logger;
  projectDir: string;
  /** An opened database (the server's, migrated at start; a test's); its owner closes it. */
  database?: Database;
  /** Given by tests: an auth with a mailer of their own, a dispatcher that records, a parser, a gate. */
  auth?: Auth;
  mailer?: Mailer;
  dispatcher?: DeliveryDispatcher;
  parser?: MessageParser;
  downloadGate?: DownloadGate;
};

export function createServices(options: ServicesOptions): Services {
  const { config, logger, projectDir } = options;
  const made: { close: () => Promise<void> }[] = [];
  const database = options.database
    ? () => Promise.resolve(options.database as Database)
    : onceAsync(async () => {
        const opened = await openConfiguredDatabase(config, logger);
        made.push(opened);
        return opened;
      });
  const prisma = async () => (await database()).prisma;
  const mailer = once(() => options.mailer ?? createMailerFromConfig(config, logger));
  const metrics = once(createProcessMetrics);
  const parser = once(() => {
    if (options.parser) return options.parser;
    const pool = createParsePool({ logger, projectDir });
    made.push(pool);
    return pool;
  });
  // What a process that stopped left in the spool is swept when this one makes its own: never a
  // message that was acknowledged (inbound/message-spool.ts).
  const spool = once(() => {
    const made = createDataDirSpool(config.dataDir, logger);
    made
      .sweep()
      .then((swept) => swept > 0 && logger.info({ swept }, "Deleted spooled messages left by a process that stopped"))
      .catch((error: unknown) => logger.warn({ err: error }, "Could not sweep the spool (DATA_DIR/spool)"));
    return made;
  });
  const contentLinkKey = once(() => deriveContentLinkKey(getAuthSecret(config).secret));
  const signingKeyEncryptionKey = once(() => deriveSigningKeyEncryptionKey(getAuthSecret(config).secret));
  const delivery = onceAsync(async () => {
    const opened = await database();
    const alerts = createDeliveryAlerts({
      repository: createDeliveryAlertsRepository(opened),
      mailer: mailer(),
      baseUrl: config.baseUrl,
      logger,
    });
    const worker = createDeliveryWorker({
      config,
      database: opened,
      logger,
      metrics: metrics(),
      alerts,
      contentRetentionMs: config.contentRetentionMs,
      signingKeyEncryptionKey: signingKeyEncryptionKey(),
    });
    made.push({ close: worker.stop });
    return worker;
  });
  const dispatcher = options.dispatcher ? () => Promise.resolve(options.dispatcher as DeliveryDispatcher) : delivery;
  const inbound = onceAsync(async () =>
    createInboundPipeline({
      config,
      database: await database(),
      recipients: createRecipientCache(),
      dispatcher: await dispatcher(),
      parser: parser(),
      contentLinkKey: contentLinkKey(),
    }),
  );
  const eventsListener = onceAsync(async () => {
    const listener = createProcessEventsListener({ database: await database(), logger });
    made.push(listener);
    return listener;
  });
  return {
    config,
    logger,
    projectDir,
    database,
    prisma,
    auth: options.auth
      ? () => Promise.resolve(options.auth as Auth)
      : onceAsync(async () => createAuth({ config, prisma: await prisma(), mailer: mailer(), logger })),
    mailer,
    metrics,
    parser,
    spool,
    downloadGate: options.downloadGate ?? createDownloadGate(DEFAULT_DOWNLOAD_LIMITS),
    delivery,
    dispatcher,
    inbound,
    eventsListener,
    stripe: once(() => createStripeClient(config.billing)),
    openApiDocument: once(() => buildOpenApiDocument({ serverUrl: config.baseUrl })),
    contentLinkKey,
    signingKeyEncryptionKey,
    close: async () => {
      // Last made, first closed: the worker and the listener before the database they use.
      for (const part of made.splice(0).reverse()) await part.close();
    },
  };
}

/** The services of a process started without `npm start` (`next build`, `next dev`): from the environment. */
export function createServicesFromEnvironment(environment: Record<string, string | undefined> = process.env): Services {
  return createServices({
    config: loadConfig(environment),
    logger: createLogger(loggerOptionsFromEnvironment(environment)),
    projectDir: process.cwd(),
  });
}

/**
 * The process's services, for route handlers and server components (Next bundles them apart from
 * the custom server): those `npm start` made, or, in a process it did not start (`next dev`, `next
 * build`), made from the environment on first use.
 */
export function getServices(): Services {
  const current = readProcessServices();
  if (current) return current;
  const made = createServicesFromEnvironment();
  setServices(made);
  return made;
}

function once<T>(create: () => T): () => T {
  let made: { value: T } | undefined;
  return () => {
    made ??= { value: create() };
    return made.value;
  };
}

/** Made on first call; a failure is not kept, so the next call tries again (a database not up yet). */
function onceAsync<T>(create: () => Promise<T>): () => Promise<T> {
  let made: Promise<T> | undefined;
  return () => {
    made ??= create().catch((error: unknown) => {
      made = undefined;
      throw error;
    });
    return made;
  };
}
