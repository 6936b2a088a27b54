// What a process's services are (services.ts makes them, docs/architecture.md: The parts): a type
// of its own, so that the accessor's slot (process-services.ts) names it without importing the root.
import type { KeyObject } from "node:crypto";
import type Stripe from "stripe";
import type { Auth } from "@/modules/auth/auth.server";
import type { Config } from "@/modules/config/config";
import type { DownloadGate } from "@/modules/content-links/download-gate";
import type { Database } from "@/modules/db/db";
import type { PrismaClient } from "@/modules/db/generated/client";
import type { DeliveryDispatcher, DeliveryWorker } from "@/modules/delivery/delivery-worker";
import type { EventsListener } from "@/modules/events/events-listener";
import type { MessageSpool } from "@/modules/inbound/message-spool";
import type { MessageParser } from "@/modules/inbound/parse-pool";
import type { InboundPipeline } from "@/modules/inbound/receive-message";
import type { Mailer } from "@/modules/mail/mailer";
import type { ProcessMetrics } from "@/modules/metrics/metrics.registry";
import type { OpenApiDocument } from "@/modules/openapi/openapi.document";
import type { Logger } from "@/modules/shared/logging/logger";

export type Services = {
  config: Config;
  logger: Logger;
  /** Where the project's files are (the parse pool's thread file). */
  projectDir: string;
  /** The database, opened on first use unless the process opened (and migrated) it at start. */
  database: () => Promise<Database>;
  prisma: () => Promise<PrismaClient>;
  /** better-auth on the process's database and mailer. */
  auth: () => Promise<Auth>;
  mailer: () => Mailer;
  /** The one prom-client registry of the process (README: Monitoring). */
  metrics: () => ProcessMetrics;
  /** The pool of parsing threads (parse-pool.ts). */
  parser: () => MessageParser;
  /** Where SMTP and the raw route write a message over 1 MiB as it arrives (DATA_DIR/spool, message-spool.ts). */
  spool: () => MessageSpool;
  /** Holds downloads of stored content to the process's limits (download-gate.ts). */
  downloadGate: DownloadGate;
  /** The delivery worker; it polls for retries only once the worker role starts it (mail-roles.ts). */
  delivery: () => Promise<DeliveryWorker>;
  /** Takes the first attempt of accepted mail and of redeliveries: the delivery worker, unless given. */
  dispatcher: () => Promise<DeliveryDispatcher>;
  /** SMTP → receive → accept → deliver, as the SMTP role and the ingest routes run it (receive-message.ts). */
  inbound: () => Promise<InboundPipeline>;
  /** The one LISTEN connection for live event streams (events-listener.ts). */
  eventsListener: () => Promise<EventsListener>;
  stripe: () => Stripe;
  /** The OpenAPI document for BASE_URL, built on first use (modules/openapi/). */
  openApiDocument: () => OpenApiDocument;
  /** The key of content links, derived from the auth secret. */
  contentLinkKey: () => string;
  /** The key Ed25519 endpoints' private keys are encrypted under (derived from AUTH_SECRET). */
  signingKeyEncryptionKey: () => KeyObject;
  /** Stops and closes what these services made (not a database, auth or parser they were given). */
  close: () => Promise<void>;
};
