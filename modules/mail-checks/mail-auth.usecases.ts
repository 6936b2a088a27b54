// Checks SPF, DKIM, DMARC and ARC on one message with mailauth (docs/webhooks.md: Authentication).
// Runs in a parsing thread (DKIM hashes the whole body: 25 MiB takes about half a second). The
// whole check has a deadline: whatever DNS has not answered by then makes the verdicts `temperror`,
// so a slow or silent resolver never delays acceptance by more than a few seconds.
import { authenticate } from "mailauth";
import type { MailAuthResolver } from "./dns-resolver";
import {
  type AuthResult,
  type MailAuthentication,
  type MailauthResult,
  temporaryFailure,
  toMailAuthentication,
} from "./mail-auth.models";

/** A provider's own SPF verdict stands in for the check we could not make without the client. */
function withProviderSpf(
  verdicts: MailAuthentication,
  providerSpf: AuthResult | null,
  sender: string | null,
): MailAuthentication {
  if (verdicts.spf !== null || providerSpf === null) return verdicts;
  return { ...verdicts, spf: { result: providerSpf, domain: sender?.split("@").at(-1)?.toLowerCase() || null } };
}

/** The longest a whole check may take. */
export const MAIL_AUTH_DEADLINE_MS = 5_000;

/** The SMTP client as the sender's MTA presented itself: its address and its HELO name. */
export type SmtpClient = { ip: string; helo: string | null };

export async function authenticateMessage({
  raw,
  client,
  providerSpf = null,
  sender,
  resolver,
  mta,
  deadlineMs = MAIL_AUTH_DEADLINE_MS,
}: {
  raw: Buffer;
  client: SmtpClient | null;
  /** Without a client: the SPF verdict the relaying provider reported, taken as it is. */
  providerSpf?: AuthResult | null;
  /** The envelope sender (MAIL FROM), or null for a bounce. */
  sender: string | null;
  resolver: MailAuthResolver;
  /** Our own host name, as it appears in the verdicts' comments. */
  mta: string;
  deadlineMs?: number;
}): Promise<MailAuthentication> {
  const hasClient = client !== null;
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<MailAuthentication>((resolve) => {
    timer = setTimeout(() => resolve(temporaryFailure({ hasClient })), deadlineMs);
  });
  const check = authenticate(raw, {
    ...(client ? { ip: client.ip, helo: client.helo ?? undefined } : {}),
    sender: sender ?? "",
    mta,
    resolver: resolver as never,
    disableBimi: true,
  })
    .then((result) => withProviderSpf(toMailAuthentication(result as MailauthResult, { hasClient }), providerSpf, sender))
    // A message mailauth cannot read at all gets no verdicts rather than failing the mail.
    .catch(() => temporaryFailure({ hasClient }));
  try {
    return await Promise.race([check, deadline]);
  } finally {
    clearTimeout(timer);
  }
}
