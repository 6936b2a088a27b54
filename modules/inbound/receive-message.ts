// The entry of every inbound route (SMTP, /api/inbound/*): record the message with the process's
// database, then hand the pending deliveries to this process's dispatcher for their first attempt
// (after the accepting transaction has committed; the sender does not wait for it). When the
// dispatcher takes claims, the rows are written claimed by it, so the first attempt starts at once
// without another read or claim. The callbacks the SMTP RCPT check found are remembered for the
// message that follows (recipient-cache.ts).
import { getConfig } from "@/modules/config/config";
import { getDatabase } from "@/modules/db/db";
import { getDeliveryDispatcher } from "@/modules/delivery/delivery-dispatcher";
import { createInboundRepository } from "./inbound.repository";
import { acceptMessage, type InboundEnvelope, isAcceptableRecipient } from "./inbound.usecases";
import { createRecipientCache, withRecipientCache } from "./recipient-cache";

const recipients = createRecipientCache();

const getRepository = async () => withRecipientCache(createInboundRepository(await getDatabase()), recipients);

export async function receiveMessage({ raw, envelope }: { raw: Buffer; envelope: InboundEnvelope }) {
  const repository = await getRepository();
  const dispatcher = getDeliveryDispatcher();
  const claimLeaseMs = dispatcher.getClaimLeaseMs() ?? undefined;
  const result = await acceptMessage({ raw, envelope, repository, rules: getConfig(), claimLeaseMs });
  if (result.claims.length > 0) dispatcher.deliverClaimed(result.claims);
  else if (result.pendingIds.length > 0) dispatcher.deliverSoon(result.pendingIds);
  return result;
}

export async function isAcceptableRecipientAddress(address: string): Promise<boolean> {
  const repository = await getRepository();
  return isAcceptableRecipient({ address, repository, rules: getConfig() });
}
