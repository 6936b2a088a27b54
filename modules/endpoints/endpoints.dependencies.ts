// What the endpoint routes hand to the usecases: the repository on the process's database, the rules
// from the configuration and the process's signing-key encryption key, and how an answer is shaped.
import type { KeyObject } from "node:crypto";
import type { Config } from "@/modules/config/config";
import type { PrismaClient } from "@/modules/db/generated/client";
import { formatEndpointForApi } from "./endpoints.models";
import { createEndpointsRepository } from "./endpoints.repository";
import type { EndpointResult, EndpointRules } from "./endpoints.usecases";

export async function getEndpointDependencies({
  config,
  prisma,
  signingKeyEncryptionKey,
}: {
  config: Config;
  prisma: () => Promise<PrismaClient>;
  signingKeyEncryptionKey: () => KeyObject;
}) {
  const rules: EndpointRules = {
    allowPrivateTargets: config.webhook.allowPrivateTargets,
    signingKeyEncryptionKey: signingKeyEncryptionKey(),
  };
  const toApi = ({ endpoint, revealsSecret }: EndpointResult) =>
    formatEndpointForApi(endpoint, { defaultTimeoutMs: config.webhook.timeoutMs, revealsSecret });
  return { repository: createEndpointsRepository(await prisma()), rules, toApi };
}
