// The checks a parsing thread runs on a message before building its webhook bodies (docs/webhooks.md:
// Authentication, Content by link): SPF, DKIM, DMARC and ARC through the configured resolvers, and
// the signer of the links to its content. What a check needs travels with the parse task, so the
// thread reads no configuration of its own.
import { type ContentLinkSigner, createContentLinkSigner } from "@/modules/content-links/content-links";
import { createMailAuthResolver } from "@/modules/mail-auth/dns-resolver";
import type { MailAuthentication } from "@/modules/mail-auth/mail-auth.models";
import { authenticateMessage, type SmtpClient } from "@/modules/mail-auth/mail-auth.usecases";

export type MessageChecks = {
  /** Check SPF, DKIM, DMARC and ARC; null: not checked (the payload's authentication is null). */
  authentication: { client: SmtpClient | null; dnsServers: string[]; mta: string } | null;
  /** Sign links to the content: where they point, their key, and when they expire (ms since the epoch); null: no links. */
  links: { baseUrl: string; key: string; expiresAt: number } | null;
};

export const NO_CHECKS: MessageChecks = { authentication: null, links: null };

export async function runMessageChecks({
  raw,
  sender,
  checks = NO_CHECKS,
}: {
  raw: Buffer;
  sender: string | null;
  checks?: MessageChecks;
}): Promise<{ authentication: MailAuthentication | null; links: ContentLinkSigner | null }> {
  const { authentication: authenticationCheck, links } = checks;
  const authentication = authenticationCheck
    ? await authenticateMessage({
        raw,
        client: authenticationCheck.client,
        sender,
        mta: authenticationCheck.mta,
        resolver: createMailAuthResolver({ servers: authenticationCheck.dnsServers }),
      })
    : null;
  return {
    authentication,
    links: links ? createContentLinkSigner({ ...links, expiresAt: new Date(links.expiresAt) }) : null,
  };
}
