// Pure functions of API keys: the token, its hash at rest, its display prefix, the API shape.
// The token is shown once at creation; only its SHA-256 hash and display prefix are stored.
import { createHash } from "node:crypto";
import { generateRandomBase62 } from "@/modules/shared/ids";
import {
  API_KEY_DISPLAY_PREFIX_LENGTH,
  API_KEY_TOKEN_PATTERN,
  API_KEY_TOKEN_PREFIX,
  API_KEY_TOKEN_RANDOM_LENGTH,
} from "./api-keys.constants";

export type ApiKeyRecord = {
  id: string;
  userId: string;
  name: string;
  prefix: string;
  createdAt: Date;
  lastUsedAt: Date | null;
};

export type ApiApiKey = { id: string; name: string; prefix: string; createdAt: string; lastUsedAt: string | null };

/** A new secret token: "hm_" and 40 base62 characters. */
export function generateApiKeyToken(): string {
  return `${API_KEY_TOKEN_PREFIX}${generateRandomBase62(API_KEY_TOKEN_RANDOM_LENGTH)}`;
}

/** The token as stored: SHA-256, hex. Tokens are long and random, so no salt or slow hash is needed. */
export function hashApiKeyToken(token: string): string {
  return createHash("sha256").update(token, "utf8").digest("hex");
}

export function isApiKeyTokenFormat(value: string): boolean {
  return API_KEY_TOKEN_PATTERN.test(value);
}

/** The start of the token that is stored and shown in the list, e.g. "hm_AbC1234". */
export function getApiKeyDisplayPrefix(token: string): string {
  return token.slice(0, API_KEY_DISPLAY_PREFIX_LENGTH);
}

/** The key as the API shows it: never the token or its hash. */
export function formatApiKeyForApi(apiKey: ApiKeyRecord): ApiApiKey {
  return {
    id: apiKey.id,
    name: apiKey.name,
    prefix: apiKey.prefix,
    createdAt: apiKey.createdAt.toISOString(),
    lastUsedAt: apiKey.lastUsedAt ? apiKey.lastUsedAt.toISOString() : null,
  };
}
