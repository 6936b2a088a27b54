// The product's mail path in one process on loopback, for tests that send real mail through it: the
// process's services (test-services.ts) on a fresh migrated database, a webhook sink, their delivery
// worker as the dispatcher, and the SMTP listener wired as the smtp role wires it (product-smtp.ts).
import os from "node:os";
import path from "node:path";
import { type Config, loadConfig } from "@/modules/config/config";
import type { Database } from "@/modules/db/db";
import type { DeliveryWorker } from "@/modules/delivery/delivery-worker";
import { type Services, setServices } from "@/modules/server/services";
import { type ProductSmtpListener, startProductSmtpListener } from "./product-smtp";
import { createTestDatabase } from "./test-database";
import { installTestServices } from "./test-services";
import { startWebhookSink, type WebhookSink } from "./webhook-sink";

export type MailPipeline = {
  config: Config;
  database: Database;
  services: Services;
  sink: WebhookSink;
  worker: DeliveryWorker;
  listener: ProductSmtpListener;
  /** Stops what started, last first, and takes the services away. */
  close: () => Promise<void>;
};

/**
 * `environment` over what every such test sets: a DATA_DIR named after the test, mail received on
 * hookmail.test, webhooks allowed to the loopback sink, and the checks on each mail off (they have
 * tests of their own with a DNS server on loopback; no real resolver is asked).
 */
export function mailPipelineEnvironment(name: string, environment: Record<string, string> = {}): Record<string, string> {
  return {
    DATA_DIR: path.join(os.tmpdir(), `hookmail-${name}-test`),
    EMAIL_DOMAINS: "hookmail.test",
    MAIL_AUTH_CHECKS: "false",
    WEBHOOK_ALLOW_PRIVATE_TARGETS: "true",
    ...environment,
  };
}

/** Starts the pipeline of mailPipelineEnvironment(name, environment); a failure part-way stops what had started. */
export async function startMailPipeline({
  name,
  environment,
  sink: sinkOptions,
}: {
  name: string;
  environment?: Record<string, string>;
  sink?: Parameters<typeof startWebhookSink>[0];
}): Promise<MailPipeline> {
  const config = loadConfig(mailPipelineEnvironment(name, environment));
  const stops: (() => Promise<void> | void)[] = [];
  const close = async () => {
    for (const stop of stops.splice(0).reverse()) await stop();
  };
  try {
    const database = await createTestDatabase();
    stops.push(() => database.close());
    const sink = await startWebhookSink(sinkOptions);
    stops.push(() => sink.close());
    const services = installTestServices({ config, database });
    stops.push(async () => {
      setServices(undefined);
      await services.close();
    });
    const worker = await services.delivery();
    const listener = await startProductSmtpListener(services);
    stops.push(() => listener.close());
    return { config, database, services, sink, worker, listener, close };
  } catch (error) {
    await close();
    throw error;
  }
}
