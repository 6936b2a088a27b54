// Where an endpoint's URL leads, checked when it is saved, by the rule of addresses' webhook URLs
// (docs/security.md): a host that is, or resolves to, a loopback, private, link-local or metadata
// address is refused unless WEBHOOK_ALLOW_PRIVATE_TARGETS is set; a name that does not resolve yet
// is accepted. Each attempt checks again where it connects (modules/delivery/webhook-client.ts).
import { checkWebhookTarget, type HostResolver } from "@/modules/shared/net/webhook-target";
import { createEndpointUrlNotAllowedError } from "./endpoints.errors";

export async function ensureEndpointUrlAllowed(
  url: string,
  { allowPrivateTargets, resolve }: { allowPrivateTargets: boolean; resolve?: HostResolver },
): Promise<void> {
  const verdict = await checkWebhookTarget(url, { allowPrivateTargets, ...(resolve ? { resolve } : {}) });
  if (!verdict.isAllowed) throw createEndpointUrlNotAllowedError();
}
