// What the email-callback routes hand to the usecases: the repository on the process's database
// and the rules from the configuration.
import { getConfig } from "@/modules/config/config";
import { getPrisma } from "@/modules/db/db";
import { createEmailCallbacksRepository } from "./email-callbacks.repository";
import type { EmailCallbackRules } from "./email-callbacks.usecases";

export async function getEmailCallbackDependencies(): Promise<{
  repository: ReturnType<typeof createEmailCallbacksRepository>;
  rules: EmailCallbackRules;
}> {
  const config = getConfig();
  return { repository: createEmailCallbacksRepository(await getPrisma()), rules: config };
}
