// The rules of email callbacks. Repositories and the webhook-target check come in as arguments.
import type { Config } from "@/modules/config/config";
import { getPlanLimits } from "@/modules/plans/plans.models";
import { createId } from "@/modules/shared/ids";
import { checkWebhookTarget } from "@/modules/shared/net/webhook-target";
import { isWildcardUsername } from "./address-patterns";
import { RESERVED_USERNAMES } from "./email-callbacks.constants";
import {
  createEmailCallbackAlreadyExistsError,
  createEmailCallbackNotFoundError,
  createEmailCallbacksLimitReachedError,
  createInvalidDomainError,
  createInvalidUsernameError,
  createUsernameNotAllowedError,
  createWebhookUrlNotAllowedError,
} from "./email-callbacks.errors";
import type { EmailCallbackRecord } from "./email-callbacks.models";
import type { EmailCallbackChanges, EmailCallbacksRepository } from "./email-callbacks.repository";
import type { CreateEmailCallbackInput, UpdateEmailCallbackInput } from "./email-callbacks.schemas";

export type EmailCallbackRules = Pick<Config, "emailDomains" | "plans"> & {
  webhook: Pick<Config["webhook"], "allowPrivateTargets">;
};

export type Owner = { userId: string; planId: string };

export function getMaxEmailCallbacks(rules: EmailCallbackRules, planId: string): number {
  return getPlanLimits(planId, rules).maxEmails;
}

/**
 * An address is on one of the operator's domains (exact usernames only, none reserved), or on a
 * verified (or failing) domain of its owner, where any username, pattern or catch-all goes
 * (docs/domains.md: Addresses on a domain).
 */
async function ensureAddressRules({
  userId,
  domain,
  username,
  rules,
  repository,
}: {
  userId: string;
  domain: string;
  username: string;
  rules: EmailCallbackRules;
  repository: Pick<EmailCallbacksRepository, "isServedDomainOfUser">;
}) {
  if (rules.emailDomains.includes(domain)) {
    if (isWildcardUsername(username)) throw createInvalidUsernameError();
    if (RESERVED_USERNAMES.has(username)) throw createUsernameNotAllowedError();
    return;
  }
  if (!(await repository.isServedDomainOfUser({ userId, name: domain }))) throw createInvalidDomainError(rules.emailDomains);
}

async function ensureWebhookUrlAllowed(webhookUrl: string, rules: EmailCallbackRules) {
  const verdict = await checkWebhookTarget(webhookUrl, { allowPrivateTargets: rules.webhook.allowPrivateTargets });
  if (!verdict.isAllowed) throw createWebhookUrlNotAllowedError();
}

/** One address of one owner: the owner is part of every lookup, so another user's address is not found. */
type OwnedEmailCallbackInput = { id: string; userId: string; repository: EmailCallbacksRepository };

export async function getEmailCallbackOrThrow({ id, userId, repository }: OwnedEmailCallbackInput): Promise<EmailCallbackRecord> {
  const callback = await repository.findEmailCallback(id, userId);
  if (!callback) throw createEmailCallbackNotFoundError();
  return callback;
}

/** The owner's addresses, and how many their plan allows (the app shows "n of 10" and stops at the limit). */
export async function listEmailCallbacks({
  owner,
  rules,
  repository,
}: {
  owner: Owner;
  rules: EmailCallbackRules;
  repository: EmailCallbacksRepository;
}) {
  return {
    emailCallbacks: await repository.listEmailCallbacks(owner.userId),
    maxEmailCallbacks: getMaxEmailCallbacks(rules, owner.planId),
  };
}

export async function createEmailCallback({
  owner,
  input,
  rules,
  repository,
}: {
  owner: Owner;
  input: CreateEmailCallbackInput;
  rules: EmailCallbackRules;
  repository: EmailCallbacksRepository;
}): Promise<{ emailCallback: EmailCallbackRecord }> {
  await ensureAddressRules({ userId: owner.userId, domain: input.domain, username: input.username, rules, repository });
  const limit = getMaxEmailCallbacks(rules, owner.planId);
  if ((await repository.countEmailCallbacks(owner.userId)) >= limit) throw createEmailCallbacksLimitReachedError(limit);
  if (await repository.isAddressTaken({ domain: input.domain, username: input.username })) {
    throw createEmailCallbackAlreadyExistsError();
  }
  await ensureWebhookUrlAllowed(input.webhookUrl, rules);
  // Counted again under the user's lock (not held across the webhook's DNS lookup above), so that
  // concurrent creations stop at the limit (docs/security.md).
  const emailCallback = await repository.runLockedForUser(owner.userId, async (queries) => {
    if ((await queries.countEmailCallbacks(owner.userId)) >= limit) throw createEmailCallbacksLimitReachedError(limit);
    // An own domain is checked again holding its row, so it cannot be deleted under the new address.
    const isOwnDomain = !rules.emailDomains.includes(input.domain);
    if (isOwnDomain && !(await queries.lockServedDomainOfUser({ userId: owner.userId, name: input.domain }))) {
      throw createInvalidDomainError(rules.emailDomains);
    }
    return queries.createEmailCallback({
      id: createId("emailCallback"),
      userId: owner.userId,
      domain: input.domain,
      username: input.username,
      webhookUrl: input.webhookUrl,
      webhookSecret: input.webhookSecret ? input.webhookSecret : null,
      allowedOrigins: [...new Set(input.allowedOrigins)],
      attachmentDelivery: input.attachmentDelivery,
      authenticationPolicy: input.authenticationPolicy,
      spamThreshold: input.spamThreshold,
    });
  });
  return { emailCallback };
}

export async function updateEmailCallback({
  id,
  owner,
  input,
  rules,
  repository,
}: {
  id: string;
  owner: Owner;
  input: UpdateEmailCallbackInput;
  rules: EmailCallbackRules;
  repository: EmailCallbacksRepository;
}): Promise<{ emailCallback: EmailCallbackRecord }> {
  const current = await getEmailCallbackOrThrow({ id, userId: owner.userId, repository });
  const domain = input.domain ?? current.domain;
  const username = input.username ?? current.username;
  const isAddressChanged = domain !== current.domain || username !== current.username;
  if (isAddressChanged) {
    await ensureAddressRules({ userId: owner.userId, domain, username, rules, repository });
    if (await repository.isAddressTaken({ domain, username, exceptId: id })) throw createEmailCallbackAlreadyExistsError();
  }
  if (input.webhookUrl !== undefined && input.webhookUrl !== current.webhookUrl) {
    await ensureWebhookUrlAllowed(input.webhookUrl, rules);
  }
  const changes: EmailCallbackChanges = {
    ...(isAddressChanged ? { domain, username } : {}),
    ...(input.webhookUrl !== undefined ? { webhookUrl: input.webhookUrl } : {}),
    ...(input.webhookSecret !== undefined ? { webhookSecret: input.webhookSecret === "" ? null : input.webhookSecret } : {}),
    ...(input.allowedOrigins !== undefined ? { allowedOrigins: [...new Set(input.allowedOrigins)] } : {}),
    ...(input.isEnabled !== undefined ? { isEnabled: input.isEnabled } : {}),
    ...pickDefined(input, ["attachmentDelivery", "authenticationPolicy", "spamThreshold"]),
  };
  const target = { id, userId: owner.userId };
  if (!isAddressChanged || rules.emailDomains.includes(domain)) {
    return { emailCallback: await repository.updateEmailCallback(target, changes) };
  }
  // Moved onto an own domain: checked again holding its row, as on creation.
  const emailCallback = await repository.runLockedForUser(owner.userId, async (queries) => {
    if (!(await queries.lockServedDomainOfUser({ userId: owner.userId, name: domain }))) {
      throw createInvalidDomainError(rules.emailDomains);
    }
    return queries.updateEmailCallback(target, changes);
  });
  return { emailCallback };
}

/** The given keys of `input` that are set (undefined means "unchanged"; null is a value). */
function pickDefined<T extends object, K extends keyof T>(input: T, keys: K[]): Partial<Pick<T, K>> {
  return Object.fromEntries(keys.filter((key) => input[key] !== undefined).map((key) => [key, input[key]])) as Partial<
    Pick<T, K>
  >;
}

/** Frees the address at once; the inbox history stays in the database but out of every API. */
export async function deleteEmailCallback({ id, userId, repository }: OwnedEmailCallbackInput) {
  await repository.softDeleteEmailCallback({ id, userId });
}
