// The mail roles of a process: `smtp` (the built-in MX) and `worker` (the delivery loop, the
// clean-up of delivered message content, and the daily retention sweep). Every process that accepts mail (web or smtp) also makes the first delivery attempt
// of what it accepted, through its delivery dispatcher; only the worker role polls for retries.
import type { Config } from "@/modules/config/config";
import type { Database } from "@/modules/db/db";
import { createDeliveryAlerts } from "@/modules/delivery/delivery-alerts";
import { createDeliveryAlertsRepository } from "@/modules/delivery/delivery-alerts.repository";
import { createDeliveryWorker, setDeliveryDispatcher } from "@/modules/delivery/delivery-worker";
import { isAcceptableRecipientAddress, receiveMessage } from "@/modules/inbound/receive-message";
import { createMailerFromConfig } from "@/modules/mail/mailer";
import { createRetentionRepository } from "@/modules/retention/retention.repository";
import { startRetentionSweeps } from "@/modules/retention/retention.usecases";
import type { Logger } from "@/modules/shared/logging/logger";
import { createSmtpListener } from "@/modules/smtp/smtp-listener";
import type { RunningRole } from "./web-role";

export function startDeliveryDispatch({
  config,
  database,
  logger,
}: {
  config: Config;
  database: Database;
  logger: Logger;
}): RunningRole {
  const alerts = createDeliveryAlerts({
    repository: createDeliveryAlertsRepository(database),
    mailer: createMailerFromConfig(config, logger),
    baseUrl: config.baseUrl,
    logger,
  });
  const worker = createDeliveryWorker({ config, database, logger, alerts, contentRetentionMs: config.contentRetentionMs });
  setDeliveryDispatcher(worker);
  const isWorker = config.roles.includes("worker");
  if (isWorker) worker.start();
  const retention = isWorker
    ? startRetentionSweeps({ repository: createRetentionRepository(database.executor), logger })
    : undefined;
  return {
    name: "delivery",
    stop: async () => {
      setDeliveryDispatcher(undefined);
      await retention?.stop();
      await worker.stop();
    },
  };
}

export async function startSmtpRole({ config, logger }: { config: Config; logger: Logger }): Promise<RunningRole> {
  const listener = createSmtpListener({
    config,
    isAcceptableRecipient: isAcceptableRecipientAddress,
    receive: receiveMessage,
    logger,
  });
  await listener.listen();
  return { name: "smtp", stop: listener.close };
}
