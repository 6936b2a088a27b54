// Rules of API keys: a user lists, creates (at most MAX_API_KEYS_PER_USER) and deletes only their
// own keys; a token authenticates while its key exists, and its use is recorded at most once a minute.
import { createId } from "@/modules/shared/ids";
import { API_KEY_LAST_USED_AT_INTERVAL_MS, MAX_API_KEYS_PER_USER } from "./api-keys.constants";
import { createApiKeyNotFoundError, createApiKeysLimitReachedError } from "./api-keys.errors";
import {
  type ApiKeyRecord,
  generateApiKeyToken,
  getApiKeyDisplayPrefix,
  hashApiKeyToken,
  isApiKeyTokenFormat,
} from "./api-keys.models";
import type { ApiKeysRepository } from "./api-keys.repository";
import type { CreateApiKeyInput } from "./api-keys.schemas";

export async function listApiKeys({
  userId,
  repository,
}: {
  userId: string;
  repository: ApiKeysRepository;
}): Promise<{ apiKeys: ApiKeyRecord[] }> {
  return { apiKeys: await repository.listApiKeysOfUser(userId) };
}

/** Creates a key and answers its token, which is not stored and cannot be shown again. */
export async function createApiKey({
  userId,
  input,
  repository,
}: {
  userId: string;
  input: CreateApiKeyInput;
  repository: ApiKeysRepository;
}): Promise<{ apiKey: ApiKeyRecord; token: string }> {
  const token = generateApiKeyToken();
  const apiKey = await repository.runLockedForUser(userId, async (queries) => {
    if ((await queries.countApiKeysOfUser(userId)) >= MAX_API_KEYS_PER_USER) throw createApiKeysLimitReachedError();
    return queries.insertApiKey({
      id: createId("apiKey"),
      userId,
      name: input.name,
      prefix: getApiKeyDisplayPrefix(token),
      hashedKey: hashApiKeyToken(token),
    });
  });
  return { apiKey, token };
}

/**
 * Deletes one of the user's keys; its token stops working at once, and the live event streams opened
 * with it end at once in every process. Another user's key is "not found".
 */
export async function deleteApiKey({
  userId,
  apiKeyId,
  repository,
}: {
  userId: string;
  apiKeyId: string;
  repository: ApiKeysRepository;
}): Promise<void> {
  if (!(await repository.deleteApiKeyOfUser({ id: apiKeyId, userId }))) throw createApiKeyNotFoundError();
}

/** The key a token belongs to and its owner, or null; records the use (lastUsedAt) at most once a minute. */
export async function findApiKeyOwnerByToken({
  token,
  repository,
  now = new Date(),
}: {
  token: string;
  repository: ApiKeysRepository;
  now?: Date;
}): Promise<{ apiKeyId: string; userId: string } | null> {
  if (!isApiKeyTokenFormat(token)) return null;
  const apiKey = await repository.findApiKeyByHashedKey(hashApiKeyToken(token));
  if (!apiKey) return null;
  const notBefore = new Date(now.getTime() - API_KEY_LAST_USED_AT_INTERVAL_MS);
  if (!apiKey.lastUsedAt || apiKey.lastUsedAt < notBefore) {
    await repository.touchApiKeyLastUsedAt({ id: apiKey.id, now, notBefore });
  }
  return { apiKeyId: apiKey.id, userId: apiKey.userId };
}
