// What the email-callback routes hand to the usecases: the repository on the process's database
// and the rules from the configuration.
import type { Config } from "@/modules/config/config";
import type { PrismaClient } from "@/modules/db/generated/client";
import { createEmailCallbacksRepository } from "./email-callbacks.repository";
import type { EmailCallbackRules } from "./email-callbacks.usecases";

export async function getEmailCallbackDependencies({
  config,
  prisma,
}: {
  config: Config;
  prisma: () => Promise<PrismaClient>;
}): Promise<{
  repository: ReturnType<typeof createEmailCallbacksRepository>;
  rules: EmailCallbackRules;
}> {
  return { repository: createEmailCallbacksRepository(await prisma()), rules: config };
}
