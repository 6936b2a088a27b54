// "Where would this address go?": the route a recipient on one of the caller's own domains takes,
// by the routing the mail itself takes (docs/domains.md: Routing). Another account's domain, and the
// operator's domains, answer as a domain the caller does not have: nothing about them is told.
import type { Database } from "@/modules/db/db";
import { createInvalidRouteAddressError } from "./inbound.errors";
import { parseAnyRecipient } from "./inbound.models";
import { createInboundRepository, type InboundRepository, type InboundRoute } from "./inbound.repository";

export type DomainRoutePreview = {
  /** The address as given (without angle brackets), tag included. */
  recipient: string;
  match: InboundRoute["match"] | null;
  emailCallback: { id: string; username: string; domain: string } | null;
  reason: null | "unknown-domain" | "unverified-domain" | "no-address" | "disabled";
};

export async function previewDomainRoute({
  userId,
  to,
  repository,
}: {
  userId: string;
  to: string;
  repository: Pick<InboundRepository, "findDomainOfUser" | "findRoute">;
}): Promise<DomainRoutePreview> {
  const recipient = parseAnyRecipient(to);
  if (!recipient) throw createInvalidRouteAddressError();
  const unrouted = { recipient: recipient.written, match: null, emailCallback: null };
  const domain = await repository.findDomainOfUser({ userId, name: recipient.domain });
  if (!domain) return { ...unrouted, reason: "unknown-domain" };
  if (!domain.isHeld) return { ...unrouted, reason: "unverified-domain" };
  // The caller holds the domain, so the address found (its owner must hold it) is the caller's; the
  // operator's domains are passed as none, as none of them is the caller's own.
  const route = await repository.findRoute(recipient, []);
  if (!route) return { ...unrouted, reason: "no-address" };
  const { id, username, domain: name, isEnabled } = route.callback;
  return {
    recipient: recipient.written,
    match: route.match,
    emailCallback: { id, username, domain: name },
    reason: isEnabled ? null : "disabled",
  };
}

/** The route preview's repository: the inbound pipeline's own queries on the process's database, no cache. */
export async function getRoutePreviewDependencies({ database }: { database: () => Promise<Database> }) {
  return { repository: createInboundRepository(await database()) };
}
