// The SSRF check of webhook URLs, at save time and again at connect time (docs/security.md): a URL
// whose host is, or resolves to, any address that is not globally reachable unicast is refused
// unless private targets are allowed. What the user and the attempt log are told is only that the
// URL is not allowed: never the address a name resolved to, nor the range it fell in.
import dns from "node:dns/promises";
import net from "node:net";
import { isPrivateAddress } from "./private-address";

/** The one wording of a refused webhook URL, for attempt errors and logs (no address, no range). */
export const WEBHOOK_TARGET_NOT_ALLOWED_MESSAGE = "the webhook URL is not allowed: it must lead to a public address";

export type HostResolver = (hostname: string) => Promise<string[]>;

const DNS_TIMEOUT_MS = 3000;

export const resolveHost: HostResolver = async (hostname) => {
  const lookup = dns.lookup(hostname, { all: true, verbatim: true }).then((records) => records.map(({ address }) => address));
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`DNS lookup of ${hostname} timed out`)), DNS_TIMEOUT_MS);
  });
  try {
    return await Promise.race([lookup, timeout]);
  } finally {
    clearTimeout(timer);
  }
};

function stripBrackets(hostname: string) {
  return hostname.startsWith("[") && hostname.endsWith("]") ? hostname.slice(1, -1) : hostname;
}

/** `localhost` and its subdomains (RFC 6761), with or without the root's trailing dot. */
function isLocalhostName(hostname: string) {
  const name = hostname.endsWith(".") ? hostname.slice(0, -1) : hostname;
  return name === "localhost" || name.endsWith(".localhost");
}

export type WebhookTargetVerdict =
  | { isAllowed: true; addresses: string[] }
  | { isAllowed: false; reason: "address-not-allowed" | "unresolvable" };

/**
 * Checks where a webhook URL leads. `requireResolution` (connect time) refuses a host that does
 * not resolve; at save time an unresolvable host is accepted, since DNS may change before delivery.
 */
export async function checkWebhookTarget(
  webhookUrl: string,
  {
    allowPrivateTargets,
    requireResolution = false,
    resolve = resolveHost,
  }: { allowPrivateTargets: boolean; requireResolution?: boolean; resolve?: HostResolver },
): Promise<WebhookTargetVerdict> {
  const hostname = stripBrackets(new URL(webhookUrl).hostname).toLowerCase();
  if (net.isIP(hostname)) {
    return allowPrivateTargets || !isPrivateAddress(hostname)
      ? { isAllowed: true, addresses: [hostname] }
      : { isAllowed: false, reason: "address-not-allowed" };
  }
  if (!allowPrivateTargets && isLocalhostName(hostname)) return { isAllowed: false, reason: "address-not-allowed" };
  let addresses: string[];
  try {
    addresses = await resolve(hostname);
  } catch {
    return requireResolution ? { isAllowed: false, reason: "unresolvable" } : { isAllowed: true, addresses: [] };
  }
  if (!allowPrivateTargets && addresses.some(isPrivateAddress)) return { isAllowed: false, reason: "address-not-allowed" };
  return { isAllowed: true, addresses };
}
