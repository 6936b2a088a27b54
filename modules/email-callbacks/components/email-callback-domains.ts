// The domains the address form offers (docs/domains.md: Addresses on a domain): the operator's
// (EMAIL_DOMAINS, from the public config) and the user's own that hold their name (verified or
// failing); what `*` means in the username depends on which of the two is chosen.
import { DOMAIN_HELD_STATUSES, type DomainStatus } from "@/modules/domains/domains.constants";
import { isWildcardUsername } from "../address-patterns";

export type DomainChoices = {
  /** The service's domains: exact usernames only. */
  operatorDomains: string[];
  /** The user's own domains: exact usernames, patterns and the catch-all. */
  ownDomains: string[];
};

/**
 * The choices of the form: the operator's domains, and the user's verified or failing domains. When
 * editing, the address keeps its domain even when it is no longer offered (a domain of the user gone
 * pending, or one the operator dropped): it joins the user's group if it is one of the user's
 * domains, whatever its status, else the operator's.
 */
export function getDomainChoices({
  operatorDomains,
  userDomains,
  currentDomain,
}: {
  operatorDomains: string[];
  userDomains: { name: string; status: DomainStatus }[];
  currentDomain?: string;
}): DomainChoices {
  const ownDomains = userDomains
    .filter(({ name, status }) => DOMAIN_HELD_STATUSES.includes(status) && !operatorDomains.includes(name))
    .map(({ name }) => name)
    .sort();
  const choices = { operatorDomains, ownDomains };
  if (!currentDomain || isOfferedDomain(choices, currentDomain)) return choices;
  return userDomains.some(({ name }) => name === currentDomain)
    ? { operatorDomains, ownDomains: [currentDomain, ...ownDomains] }
    : { operatorDomains: [currentDomain, ...operatorDomains], ownDomains };
}

export function isOfferedDomain({ operatorDomains, ownDomains }: DomainChoices, domain: string): boolean {
  return operatorDomains.includes(domain) || ownDomains.includes(domain);
}

/**
 * The server's rule (email-callbacks.usecases.ts): a pattern or the catch-all is refused on an
 * operator domain, with `email_callback.invalid_username`.
 */
export function isWildcardRefusedOn(
  { operatorDomains }: DomainChoices,
  { username, domain }: { username: string; domain: string },
) {
  return operatorDomains.includes(domain) && isWildcardUsername(username.trim());
}

/** Which help the username field shows: how `*` works on the user's own domain, none on the operator's. */
export function getUsernameHelp({ ownDomains }: DomainChoices, domain: string): "ownDomain" | null {
  return ownDomains.includes(domain) ? "ownDomain" : null;
}
