// The SSRF check of webhook URLs, at save time and again at connect time (DESIGN.md §4): a URL
// whose host is, or resolves to, a private address is refused unless private targets are allowed.
import dns from "node:dns/promises";
import net from "node:net";
import { isPrivateAddress } from "./private-address";

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

export type WebhookTargetVerdict =
  | { isAllowed: true; addresses: string[] }
  | { isAllowed: false; reason: "private-address" | "unresolvable" };

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
      : { isAllowed: false, reason: "private-address" };
  }
  if (!allowPrivateTargets && (hostname === "localhost" || hostname.endsWith(".localhost"))) {
    return { isAllowed: false, reason: "private-address" };
  }
  let addresses: string[];
  try {
    addresses = await resolve(hostname);
  } catch {
    return requireResolution ? { isAllowed: false, reason: "unresolvable" } : { isAllowed: true, addresses: [] };
  }
  if (!allowPrivateTargets && addresses.some(isPrivateAddress)) return { isAllowed: false, reason: "private-address" };
  return { isAllowed: true, addresses };
}
