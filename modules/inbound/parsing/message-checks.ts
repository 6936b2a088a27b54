// The checks a parsing thread runs on a message before building its webhook bodies (docs/webhooks.md:
// Authentication, Spam, Content by link): SPF, DKIM, DMARC and ARC through the configured resolvers,
// rspamd's score when one is configured (both at once), and the signer of the links to its content. What a check needs travels with the parse task, so the
// thread reads no configuration of its own.
import { type ContentLinkSigner, createContentLinkSigner } from "@/modules/content-links/content-links";
import { createMailAuthResolver } from "@/modules/mail-checks/dns-resolver";
import type { AuthResult, MailAuthentication } from "@/modules/mail-checks/mail-auth.models";
import { authenticateMessage, type SmtpClient } from "@/modules/mail-checks/mail-auth.usecases";
import { checkSpam, type SpamVerdict } from "@/modules/mail-checks/spam-check";

export type MessageChecks = {
  /** Check SPF, DKIM, DMARC and ARC; null: not checked (the payload's authentication is null). */
  authentication: { client: SmtpClient | null; providerSpf: AuthResult | null; dnsServers: string[]; mta: string } | null;
  /** Ask rspamd (RSPAMD_URL) for a score; null: no spam engine (the payload's spam is null). */
  spam: { url: string; client: SmtpClient | null; recipients: string[] } | null;
  /** Sign links to the content: where they point, their key, and when they expire (ms since the epoch); null: no links. */
  links: { baseUrl: string; key: string; expiresAt: number } | null;
};

export const NO_CHECKS: MessageChecks = { authentication: null, spam: null, links: null };

export async function runMessageChecks({
  raw,
  sender,
  checks = NO_CHECKS,
}: {
  /** The message's bytes, or its spooled file (parsing/message-source.ts). */
  raw: Buffer | Blob;
  sender: string | null;
  checks?: MessageChecks;
}): Promise<{ authentication: MailAuthentication | null; spam: SpamVerdict | null; links: ContentLinkSigner | null }> {
  const { authentication: authenticationCheck, spam: spamCheck, links } = checks;
  const [authentication, spam] = await Promise.all([
    authenticationCheck
      ? authenticateMessage({
          raw,
          client: authenticationCheck.client,
          providerSpf: authenticationCheck.providerSpf,
          sender,
          mta: authenticationCheck.mta,
          resolver: createMailAuthResolver({ servers: authenticationCheck.dnsServers }),
        })
      : null,
    spamCheck ? checkSpam({ ...spamCheck, raw, sender }) : null,
  ]);
  return {
    authentication,
    spam,
    links: links ? createContentLinkSigner({ ...links, expiresAt: new Date(links.expiresAt) }) : null,
  };
}
