// What the API answers to the reads of addresses (GET /api/email-callbacks and /{id}): the route
// handlers send it, and a page's first render on the server starts from the very same value
// (docs/architecture.md: The first render).
import { getEmailCallbackDependencies } from "./email-callbacks.dependencies";
import { type ApiEmailCallback, formatEmailCallbackForApi } from "./email-callbacks.models";
import { getEmailCallbackOrThrow, listEmailCallbacks, type Owner } from "./email-callbacks.usecases";

type ReadServices = Parameters<typeof getEmailCallbackDependencies>[0];

/** The owner's addresses and how many their plan allows. */
export type EmailCallbackListAnswer = { emailCallbacks: ApiEmailCallback[]; maxEmailCallbacks: number };

export async function answerEmailCallbackList({
  owner,
  services,
}: {
  owner: Owner;
  services: ReadServices;
}): Promise<EmailCallbackListAnswer> {
  const { repository, rules } = await getEmailCallbackDependencies(services);
  const { emailCallbacks, maxEmailCallbacks } = await listEmailCallbacks({ owner, rules, repository });
  return { emailCallbacks: emailCallbacks.map(formatEmailCallbackForApi), maxEmailCallbacks };
}

/** One of the owner's addresses; not found (404) for anyone else's. */
export async function answerEmailCallback({
  emailCallbackId,
  userId,
  services,
}: {
  emailCallbackId: string;
  userId: string;
  services: ReadServices;
}): Promise<{ emailCallback: ApiEmailCallback }> {
  const { repository } = await getEmailCallbackDependencies(services);
  const emailCallback = await getEmailCallbackOrThrow({ id: emailCallbackId, userId, repository });
  return { emailCallback: formatEmailCallbackForApi(emailCallback) };
}
