// The entry of every inbound route (SMTP, /api/inbound/*): record the message with the given
// repository, then hand the pending deliveries to the given dispatcher for their first attempt
// (after the accepting transaction has committed; the sender does not wait for it). When the
// dispatcher takes claims, the rows are written claimed by it, so the first attempt starts at once
// without another read or claim. The callbacks the SMTP RCPT check found are remembered for the
// message that follows (recipient-cache.ts). The process's pipeline is built by the composition
// root (docs/architecture.md: The parts) and handed to the SMTP role and the ingest routes.
import os from "node:os";
import type { Config } from "@/modules/config/config";
import type { Database } from "@/modules/db/db";
import type { DeliveryDispatcher } from "@/modules/delivery/delivery-dispatcher";
import { createInboundRepository, type InboundRepository } from "./inbound.repository";
import { acceptMessage, checkRecipient, type InboundEnvelope, type RecipientVerdict } from "./inbound.usecases";
import type { MessageParser } from "./parse-pool";
import type { MessageChecks } from "./parsing/message-checks";
import type { SpooledMessage } from "./parsing/message-source";
import { type RecipientCache, withRecipientCache } from "./recipient-cache";

/** The message's bytes, or the file it was spooled to as it arrived (a large SMTP message). */
export type ReceivedMessage = { raw: Buffer | SpooledMessage; envelope: InboundEnvelope };

/** What receiving a message needs: nothing is looked up elsewhere. */
export type ReceiveDependencies = {
  config: Config;
  repository: InboundRepository;
  /** Takes the first attempt of what was accepted. */
  dispatcher: DeliveryDispatcher;
  parser: MessageParser;
  /** The key content links are signed with (content-links.ts: deriveContentLinkKey). */
  contentLinkKey: string;
};

export async function receiveMessage(dependencies: ReceiveDependencies, { raw, envelope }: ReceivedMessage) {
  const { config, repository, dispatcher, parser, contentLinkKey } = dependencies;
  const claimLeaseMs = dispatcher.getClaimLeaseMs() ?? undefined;
  const checks = buildMessageChecks(config, envelope, new Date(), contentLinkKey);
  const result = await acceptMessage({ raw, envelope, repository, rules: config, claimLeaseMs, checks, parser });
  if (result.claims.length > 0) dispatcher.deliverClaimed(result.claims);
  else if (result.deliveryIds.length > 0) dispatcher.deliverSoon(result.deliveryIds);
  return result;
}

export async function checkRecipientAddress(
  { config, repository }: Pick<ReceiveDependencies, "config" | "repository">,
  address: string,
): Promise<RecipientVerdict> {
  return checkRecipient({ address, repository, rules: config });
}

/** A process's inbound pipeline: the two calls of the SMTP role and the ingest routes, over one repository. */
export type InboundPipeline = {
  receive: (message: ReceivedMessage) => ReturnType<typeof receiveMessage>;
  /** The RCPT check: accepted, or why not (unknown domain: 5.1.2, unknown address: 5.1.1). */
  checkRecipient: (address: string) => Promise<RecipientVerdict>;
};

export function createInboundPipeline({
  database,
  recipients,
  ...dependencies
}: Omit<ReceiveDependencies, "repository"> & {
  database: Database;
  /** The routes RCPT TO found, for the DATA that follows, and the served domains (recipient-cache.ts). */
  recipients: RecipientCache;
}): InboundPipeline {
  const receiving: ReceiveDependencies = {
    ...dependencies,
    repository: withRecipientCache(createInboundRepository(database, dependencies.config.inbound.acceptGroups), recipients),
  };
  return {
    receive: (message) => receiveMessage(receiving, message),
    checkRecipient: (address) => checkRecipientAddress(receiving, address),
  };
}

/**
 * What the parsing thread checks on this message: authentication (unless MAIL_AUTH_CHECKS=false),
 * against the SMTP client when the route knows it; and the links to its content, signed with
 * `contentLinkKey` to expire CONTENT_RETENTION_HOURS from now (its content is kept at least that long).
 */
export function buildMessageChecks(
  config: Pick<Config, "mailChecks" | "dnsServers" | "contentRetentionMs" | "baseUrl">,
  envelope: InboundEnvelope,
  now: Date,
  contentLinkKey: string,
): MessageChecks {
  return {
    authentication: config.mailChecks.authentication
      ? { client: envelope.client ?? null, providerSpf: envelope.spf ?? null, dnsServers: config.dnsServers, mta: os.hostname() }
      : null,
    spam: config.mailChecks.rspamdUrl
      ? { url: config.mailChecks.rspamdUrl, client: envelope.client ?? null, recipients: envelope.to }
      : null,
    links: { baseUrl: config.baseUrl, key: contentLinkKey, expiresAt: now.getTime() + config.contentRetentionMs },
  };
}
