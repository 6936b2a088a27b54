// The entry of every inbound route (SMTP, /api/inbound/*): record the message with the process's
// database, then hand the pending deliveries to this process's dispatcher for their first attempt
// (after the accepting transaction has committed; the sender does not wait for it). When the
// dispatcher takes claims, the rows are written claimed by it, so the first attempt starts at once
// without another read or claim. The callbacks the SMTP RCPT check found are remembered for the
// message that follows (recipient-cache.ts).
import os from "node:os";
import { getAuthSecret } from "@/modules/config/auth-secret";
import { type Config, getConfig } from "@/modules/config/config";
import { deriveContentLinkKey } from "@/modules/content-links/content-links";
import { getDatabase } from "@/modules/db/db";
import { getDeliveryDispatcher } from "@/modules/delivery/delivery-dispatcher";
import { processSingleton } from "@/modules/shared/process-singleton";
import { createInboundRepository } from "./inbound.repository";
import { acceptMessage, type InboundEnvelope, isAcceptableRecipient } from "./inbound.usecases";
import type { MessageChecks } from "./parsing/message-checks";
import { createRecipientCache, withRecipientCache } from "./recipient-cache";

const recipients = createRecipientCache();

/** The key of content links, derived once per process from the auth secret. */
const contentLinkKey = processSingleton<string>("contentLinkKey");

const getRepository = async () => withRecipientCache(createInboundRepository(await getDatabase()), recipients);

export async function receiveMessage({ raw, envelope }: { raw: Buffer; envelope: InboundEnvelope }) {
  const repository = await getRepository();
  const dispatcher = getDeliveryDispatcher();
  const claimLeaseMs = dispatcher.getClaimLeaseMs() ?? undefined;
  const config = getConfig();
  const checks = buildMessageChecks(config, envelope, new Date());
  const result = await acceptMessage({ raw, envelope, repository, rules: config, claimLeaseMs, checks });
  if (result.claims.length > 0) dispatcher.deliverClaimed(result.claims);
  else if (result.pendingIds.length > 0) dispatcher.deliverSoon(result.pendingIds);
  return result;
}

export async function isAcceptableRecipientAddress(address: string): Promise<boolean> {
  const repository = await getRepository();
  return isAcceptableRecipient({ address, repository, rules: getConfig() });
}

/**
 * What the parsing thread checks on this message: authentication (unless MAIL_AUTH_CHECKS=false),
 * against the SMTP client when the route knows it; and the links to its content, signed to expire
 * CONTENT_RETENTION_HOURS from now (its content is kept at least that long).
 */
export function buildMessageChecks(
  config: Pick<Config, "mailChecks" | "dnsServers" | "contentRetentionMs" | "baseUrl" | "auth" | "dataDir">,
  envelope: InboundEnvelope,
  now: Date,
): MessageChecks {
  return {
    authentication: config.mailChecks.authentication
      ? { client: envelope.client ?? null, providerSpf: envelope.spf ?? null, dnsServers: config.dnsServers, mta: os.hostname() }
      : null,
    spam: config.mailChecks.rspamdUrl
      ? { url: config.mailChecks.rspamdUrl, client: envelope.client ?? null, recipients: envelope.to }
      : null,
    links: {
      baseUrl: config.baseUrl,
      key: contentLinkKey.getOrCreate(() => deriveContentLinkKey(getAuthSecret(config).secret)),
      expiresAt: now.getTime() + config.contentRetentionMs,
    },
  };
}
