// The mail roles of a process: `smtp` (the built-in MX) and `worker` (the delivery loop, the
// clean-up of delivered message content, the daily retention sweep, and the hourly sweep re-checking
// users' domains a day after their last check). Every process that accepts mail (web or smtp) also makes the first delivery attempt
// of what it accepted, through its delivery worker (services.ts); only the worker role polls for retries.
import { createDomainRechecks, startDomainRechecks } from "@/modules/domains/domain-rechecks";
import { createDomainRechecksRepository } from "@/modules/domains/domain-rechecks.repository";
import { DOMAIN_CHECK_TIMEOUT_MS } from "@/modules/domains/domains.constants";
import { createMailAuthResolver } from "@/modules/mail-checks/dns-resolver";
import { createRetentionRepository } from "@/modules/retention/retention.repository";
import { startRetentionSweeps } from "@/modules/retention/retention.usecases";
import { createSmtpListener } from "@/modules/smtp/smtp-listener";
import type { Services } from "./services";
import type { RunningRole } from "./web-role";

export async function startDeliveryDispatch(services: Services): Promise<RunningRole> {
  const { config, logger } = services;
  const worker = await services.delivery();
  const isWorker = config.roles.includes("worker");
  if (isWorker) worker.start();
  const retention = isWorker
    ? startRetentionSweeps({ repository: createRetentionRepository((await services.database()).executor), logger })
    : undefined;
  const domainRechecks = isWorker
    ? startDomainRechecks({
        rechecks: createDomainRechecks({
          repository: createDomainRechecksRepository(await services.database()),
          resolver: createMailAuthResolver({ servers: config.dnsServers, timeoutMs: DOMAIN_CHECK_TIMEOUT_MS }),
          mailer: services.mailer(),
          mxHostname: config.mxHostname,
          baseUrl: config.baseUrl,
          logger,
        }),
        sweepIntervalMs: config.domainRecheckSweepMs,
        logger,
      })
    : undefined;
  return {
    name: "delivery",
    stop: async () => {
      await domainRechecks?.stop();
      await retention?.stop();
      await worker.stop();
    },
  };
}

/** The MX: each message goes SMTP → the inbound pipeline (receive-message.ts) → the delivery worker. */
export async function startSmtpRole(services: Services): Promise<RunningRole> {
  const pipeline = await services.inbound();
  const listener = createSmtpListener({
    config: services.config,
    checkRecipient: pipeline.checkRecipient,
    receive: pipeline.receive,
    logger: services.logger,
    metrics: services.metrics(),
    spool: services.spool(),
  });
  await listener.listen();
  return { name: "smtp", stop: listener.close };
}
