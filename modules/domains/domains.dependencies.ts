// What the domain routes hand to the usecases: the repository on the process's database, the rules
// from the configuration, and a resolver on DNS_SERVERS bounded like a whole check.
import type { Config } from "@/modules/config/config";
import type { PrismaClient } from "@/modules/db/generated/client";
import { createMailAuthResolver, type MailAuthResolver } from "@/modules/mail-checks/dns-resolver";
import { DOMAIN_CHECK_TIMEOUT_MS } from "./domains.constants";
import { createDomainsRepository, type DomainsRepository } from "./domains.repository";
import type { DomainRules } from "./domains.usecases";

export async function getDomainDependencies({
  config,
  prisma,
}: {
  config: Config;
  prisma: () => Promise<PrismaClient>;
}): Promise<{ repository: DomainsRepository; rules: DomainRules; resolver: MailAuthResolver }> {
  return {
    repository: createDomainsRepository(await prisma()),
    rules: config,
    resolver: createMailAuthResolver({ servers: config.dnsServers, timeoutMs: DOMAIN_CHECK_TIMEOUT_MS }),
  };
}
