// What the SMTP listener keeps between a recipient's RCPT TO and the message's DATA, and which domains
// are served (docs/architecture.md: Routing a recipient).
//
// Routes: the route an RCPT check found, kept for the DATA that follows a moment later, so the
// pipeline routes the message without looking it up again (one database round trip less per mail).
// Each RCPT check serves one message and lives a few seconds at most: the routing sees the address
// as it was at its latest RCPT check, as if the mail had come that much earlier. Sessions sending to
// one recipient at once each leave a use of its entry, so each of their messages finds one.
//
// Served domains: whether an account holds a domain (verified or failing), remembered for
// `domainTtlMs` (5 s), so mail to domains nobody serves is refused without a query each time. A
// domain verified by another process receives mail within that bound; a domain that stops being held
// stops receiving at once, as the routing query checks it again (for up to the bound RCPT answers
// 5.1.1 instead of 5.1.2).
import type { InboundRepository, InboundRoute, RecipientKey } from "./inbound.repository";

export const RECIPIENT_CACHE_DEFAULTS = { ttlMs: 10_000, domainTtlMs: 5_000, maxEntries: 10_000 } as const;

export type RecipientCache = {
  remember: (recipient: RecipientKey, route: InboundRoute) => void;
  /** The route remembered for this recipient, once: the entry is gone afterwards. */
  take: (recipient: RecipientKey) => InboundRoute | undefined;
  rememberDomain: (name: string, isServed: boolean) => void;
  /** Whether the domain was served when last looked up within domainTtlMs; undefined: not known. */
  isDomainServed: (name: string) => boolean | undefined;
  size: () => number;
};

const keyOf = ({ domain, username }: RecipientKey) => `${domain}\u0000${username}`;

/** A map whose entries expire, holding at most maxEntries (insertion order is expiry order). */
function createExpiringMap<T>({ maxEntries, now }: { maxEntries: number; now: () => number }) {
  const entries = new Map<string, T & { expiresAt: number }>();
  const evict = () => {
    const current = now();
    for (const [key, entry] of entries) {
      // Entries are in insertion order, so expiry order: stop at the first live one.
      if (entry.expiresAt > current && entries.size < maxEntries) break;
      entries.delete(key);
    }
  };
  return {
    entries,
    set(key: string, entry: T & { expiresAt: number }) {
      entries.delete(key);
      evict();
      entries.set(key, entry);
    },
  };
}

export function createRecipientCache({
  ttlMs = RECIPIENT_CACHE_DEFAULTS.ttlMs,
  domainTtlMs = RECIPIENT_CACHE_DEFAULTS.domainTtlMs,
  maxEntries = RECIPIENT_CACHE_DEFAULTS.maxEntries,
  now = Date.now,
}: {
  ttlMs?: number;
  domainTtlMs?: number;
  maxEntries?: number;
  now?: () => number;
} = {}): RecipientCache {
  const routes = createExpiringMap<{ route: InboundRoute; uses: number }>({ maxEntries, now });
  const domains = createExpiringMap<{ isServed: boolean }>({ maxEntries, now });
  return {
    remember(recipient, route) {
      const key = keyOf(recipient);
      const earlier = routes.entries.get(key);
      const uses = earlier && earlier.expiresAt > now() ? earlier.uses + 1 : 1;
      routes.set(key, { route, expiresAt: now() + ttlMs, uses });
    },
    take(recipient) {
      const key = keyOf(recipient);
      const entry = routes.entries.get(key);
      if (!entry) return undefined;
      entry.uses -= 1;
      if (entry.uses <= 0) routes.entries.delete(key);
      return entry.expiresAt > now() ? entry.route : undefined;
    },
    rememberDomain(name, isServed) {
      domains.set(name, { isServed, expiresAt: now() + domainTtlMs });
    },
    isDomainServed(name) {
      const entry = domains.entries.get(name);
      return entry && entry.expiresAt > now() ? entry.isServed : undefined;
    },
    size: () => routes.entries.size,
  };
}

/**
 * The repository with the cache in front: the RCPT check remembers the route it found, the routing
 * takes remembered routes before asking the database for the rest, and served domains are looked
 * up at most once per domainTtlMs.
 */
export function withRecipientCache(repository: InboundRepository, cache: RecipientCache): InboundRepository {
  return {
    ...repository,
    findRoute: async (recipient, operatorDomains) => {
      const route = await repository.findRoute(recipient, operatorDomains);
      if (route) cache.remember(recipient, route);
      return route;
    },
    findRoutes: async (recipients, operatorDomains) => {
      const routes = recipients.map((recipient) => cache.take(recipient) ?? null);
      const missing = recipients.flatMap((recipient, index) => (routes[index] ? [] : [{ recipient, index }]));
      if (missing.length === 0) return routes;
      const found = await repository.findRoutes(
        missing.map(({ recipient }) => recipient),
        operatorDomains,
      );
      missing.forEach(({ index }, position) => {
        routes[index] = found[position] ?? null;
      });
      return routes;
    },
    isServedDomain: async (name) => {
      const known = cache.isDomainServed(name);
      if (known !== undefined) return known;
      const isServed = await repository.isServedDomain(name);
      cache.rememberDomain(name, isServed);
      return isServed;
    },
  };
}
