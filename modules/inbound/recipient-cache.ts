// The callbacks an SMTP session looked up at RCPT TO, kept for the DATA that follows a moment later,
// so the pipeline routes the message without looking them up again (one database round trip less
// per mail). Each RCPT check serves one message and lives a few seconds at most: the routing sees the
// callback as it was at its latest RCPT check, as if the mail had come that much earlier. Sessions
// sending to one address at once each leave a use of its entry, so each of their messages finds one.
import type { InboundCallback, InboundRepository } from "./inbound.repository";

export const RECIPIENT_CACHE_DEFAULTS = { ttlMs: 10_000, maxEntries: 10_000 } as const;

export type RecipientCache = {
  remember: (callback: InboundCallback) => void;
  /** The callback remembered for this address, once: the entry is gone afterwards. */
  take: (domain: string, username: string) => InboundCallback | undefined;
  size: () => number;
};

const keyOf = (domain: string, username: string) => `${domain}\u0000${username}`;

export function createRecipientCache({
  ttlMs = RECIPIENT_CACHE_DEFAULTS.ttlMs,
  maxEntries = RECIPIENT_CACHE_DEFAULTS.maxEntries,
  now = Date.now,
}: {
  ttlMs?: number;
  maxEntries?: number;
  now?: () => number;
} = {}): RecipientCache {
  const entries = new Map<string, { callback: InboundCallback; expiresAt: number; uses: number }>();
  const evict = () => {
    const current = now();
    for (const [key, entry] of entries) {
      // Entries are in insertion order, so expiry order: stop at the first live one.
      if (entry.expiresAt > current && entries.size < maxEntries) break;
      entries.delete(key);
    }
  };
  return {
    remember(callback) {
      const key = keyOf(callback.domain, callback.username);
      const earlier = entries.get(key);
      const uses = earlier && earlier.expiresAt > now() ? earlier.uses + 1 : 1;
      entries.delete(key);
      evict();
      entries.set(key, { callback, expiresAt: now() + ttlMs, uses });
    },
    take(domain, username) {
      const key = keyOf(domain, username);
      const entry = entries.get(key);
      if (!entry) return undefined;
      entry.uses -= 1;
      if (entry.uses <= 0) entries.delete(key);
      return entry.expiresAt > now() ? entry.callback : undefined;
    },
    size: () => entries.size,
  };
}

/**
 * The repository with the cache in front: the RCPT check remembers the callback it found, and the
 * routing takes remembered callbacks before asking the database for the rest.
 */
export function withRecipientCache(repository: InboundRepository, cache: RecipientCache): InboundRepository {
  return {
    ...repository,
    findLiveCallback: async (domain, username) => {
      const callback = await repository.findLiveCallback(domain, username);
      if (callback) cache.remember(callback);
      return callback;
    },
    findLiveCallbacks: async (addresses) => {
      const found: InboundCallback[] = [];
      const missing: typeof addresses = [];
      for (const address of addresses) {
        const callback = cache.take(address.domain, address.username);
        if (callback) found.push(callback);
        else missing.push(address);
      }
      return missing.length > 0 ? [...found, ...(await repository.findLiveCallbacks(missing))] : found;
    },
  };
}
