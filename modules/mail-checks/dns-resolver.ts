// The DNS resolver of mail authentication (docs/webhooks.md: Authentication), and of the checks of
// users' own domains (docs/domains.md): the servers of DNS_SERVERS (the system's when empty), one
// try per query with a short timeout, in the shape mailauth asks for: `resolve(name, type)`
// answering like node:dns's `resolve`.
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

/** The most DKIM keys looked up for one message of the From domain, and again of ARC signers: past that, signatures are not verified. */
export const MAX_DKIM_KEY_LOOKUPS = 8;

/** An ARC chain holds at most 50 sets (RFC 8617 §4.2.1): no more signers are read. */
const MAX_ARC_SIGNERS = 50;

/** A refused key lookup reads as a key that does not exist: mailauth calls the signature neutral, "no key". */
function createKeyNotLookedUpError(name: string): Error {
  return Object.assign(new Error(`${name}: not looked up, its domain cannot align with the From domain`), { code: "ENOTFOUND" });
}

/**
 * The resolver one message's checks go through (docs/webhooks.md: Authentication). Each name and type
 * is asked once. A DKIM key (`<selector>._domainkey.<domain>`) is asked only when its domain could
 * align with the From domain, or belongs to a forwarder that signed the ARC chain, and at most
 * `maxKeyLookups` of each, so that a sender cannot stall the verdicts with signatures of domains that
 * do not answer, nor have us ask any number of names. The keys of the message's DKIM signatures and
 * the From domain's DMARC record are asked at once, in parallel, before mailauth needs them one
 * signature after the other.
 */
export function createMessageResolver({
  resolver,
  fromDomain,
  dkimKeys,
  arcDomains,
  maxKeyLookups = MAX_DKIM_KEY_LOOKUPS,
  isAligned,
}: {
  resolver: MailAuthResolver;
  /** The one From mailbox's domain; null: none, so no signature can align. */
  fromDomain: string | null;
  dkimKeys: { domain: string; selector: string }[];
  arcDomains: string[];
  maxKeyLookups?: number;
  /** DMARC's relaxed alignment: whether a name lies in a domain's organizational domain. */
  isAligned: (domain: string, name: string) => boolean;
}): MailAuthResolver {
  const answers = new Map<string, Promise<unknown>>();
  const arcSigners = [...new Set(arcDomains)].slice(0, MAX_ARC_SIGNERS);
  const budgets = { from: maxKeyLookups, arc: maxKeyLookups };
  const canLookUpKey = (name: string) => {
    const budget =
      fromDomain !== null && isAligned(fromDomain, name)
        ? "from"
        : arcSigners.some((domain) => isAligned(domain, name))
          ? "arc"
          : null;
    if (budget === null || budgets[budget] === 0) return false;
    budgets[budget] -= 1;
    return true;
  };
  const resolve: MailAuthResolver = (name, type) => {
    const key = `${type} ${name.toLowerCase()}`;
    let answer = answers.get(key);
    if (!answer) {
      const isKey = type === "TXT" && name.toLowerCase().includes("._domainkey.");
      answer =
        isKey && !canLookUpKey(name.toLowerCase()) ? Promise.reject(createKeyNotLookedUpError(name)) : resolver(name, type);
      // Asked ahead: whoever asks later gets the answer or the error.
      answer.catch(() => {});
      answers.set(key, answer);
    }
    return answer;
  };
  // Asked ahead and not awaited here: each answer already has its failure handled above.
  for (const { domain, selector } of dkimKeys) void resolve(`${selector}._domainkey.${domain}`, "TXT");
  if (fromDomain !== null) void resolve(`_dmarc.${fromDomain}`, "TXT");
  return resolve;
}
