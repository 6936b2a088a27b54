// The mailboxes of a parsed message's address headers, as the webhook payload lists them.
import type { AddressObject, EmailAddress } from "mailparser";
import type { ParsedMessage } from "./mail-stream";
import type { WebhookAddress } from "./webhook-body";

/** Every mailbox of a header, groups flattened; entries without an address are left out. */
function flattenMailboxes(entries: EmailAddress[]): WebhookAddress[] {
  return entries.flatMap((entry) => [
    ...(entry.address ? [{ address: entry.address, name: entry.name ?? "" }] : []),
    ...flattenMailboxes(entry.group ?? []),
  ]);
}

export function listAddresses(header: AddressObject | AddressObject[] | undefined): WebhookAddress[] {
  if (!header) return [];
  return [header].flat().flatMap((object) => flattenMailboxes(object.value ?? []));
}

/** The first mailbox of the From header, or null when there is none or it cannot be read. */
export function findFromAddress(parsed: ParsedMessage): WebhookAddress | null {
  return listAddresses(parsed.from)[0] ?? null;
}
