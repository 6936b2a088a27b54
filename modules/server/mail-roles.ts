// The mail roles of a process: `smtp` (the built-in MX) and `worker` (the delivery loop, the
// clean-up of delivered message content, and the daily retention sweep). Every process that accepts mail (web or smtp) also makes the first delivery attempt
// of what it accepted, through its delivery dispatcher; only the worker role polls for retries.
import type { Config } from "@/modules/config/config";
import type { Database } from "@/modules/db/db";
import { createDeliveryWorker, setDeliveryDispatcher } from "@/modules/delivery/delivery-worker";
import { isAcceptableRecipientAddress, receiveMessage } from "@/modules/inbound/receive-message";
import { createRetentionRepository } from "@/modules/retention/retention.repository";
import { startRetentionSweeps } from "@/modules/retention/retention.usecases";
import { createSmtpListener } from "@/modules/smtp/smtp-listener";
import type { RunningRole } from "./web-role";

type Log = (line: string, cause?: unknown) => void;

export function startDeliveryDispatch({ config, database, log }: { config: Config; database: Database; log: Log }): RunningRole {
  const worker = createDeliveryWorker({ config, database, log });
  setDeliveryDispatcher(worker);
  const isWorker = config.roles.includes("worker");
  if (isWorker) worker.start();
  const retention = isWorker
    ? startRetentionSweeps({ repository: createRetentionRepository(database.executor), log })
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

export async function startSmtpRole({ config, log }: { config: Config; log: Log }): Promise<RunningRole> {
  const listener = createSmtpListener({
    config,
    isAcceptableRecipient: isAcceptableRecipientAddress,
    receive: receiveMessage,
    log,
  });
  await listener.listen();
  return { name: "smtp", stop: listener.close };
}
