// The DNS resolver of mail authentication (docs/webhooks.md: Authentication): the servers of
// DNS_SERVERS (the system's when empty), one try per query with a short timeout, in the shape
// mailauth asks for: `resolve(name, type)` answering like node:dns's `resolve`.
import { Resolver } from "node:dns/promises";

export type MailAuthResolver = (name: string, type: string) => Promise<unknown>;

/** A query that gets no answer in this time counts as a temporary error (temperror). */
export const DNS_QUERY_TIMEOUT_MS = 2_000;

export function createMailAuthResolver({
  servers,
  timeoutMs = DNS_QUERY_TIMEOUT_MS,
}: {
  servers: string[];
  timeoutMs?: number;
}): MailAuthResolver {
  const resolver = new Resolver({ timeout: timeoutMs, tries: 1 });
  if (servers.length > 0) resolver.setServers(servers);
  return (name, type) => resolver.resolve(name, type as "TXT");
}
