// Checks SPF, DKIM, DMARC and ARC on one message with mailauth (docs/webhooks.md: Authentication).
// Runs in a parsing thread (DKIM hashes the whole body: 25 MiB takes about half a second). The From
// mailbox and the signatures' keys are read first (mail-auth-headers.ts): DMARC is judged on that one
// mailbox, and only keys that could align with it are looked up, all at once (dns-resolver.ts). SPF
// runs beside DKIM, ARC beside DMARC. The whole check has a deadline: a verdict not reached by then
// is `temperror`, so a slow or silent resolver never delays acceptance by more than a few seconds.

import { isIP } from "node:net";
import { arc, dkimVerify, dmarc, spf } from "mailauth";
import { readBlob } from "@/modules/shared/bytes/read-blob";
import { createMessageResolver, type MailAuthResolver } from "./dns-resolver";
import { type AuthResult, type MailAuthentication, type MailauthResult, toMailAuthentication } from "./mail-auth.models";
import { isAlignedWith, type MessageAuthor, readHeaderBlockOf, readMailAuthHeaders } from "./mail-auth-headers";

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

/** The From mailbox, or no-from when the header block cannot be read at all. */
async function readHeadersOrNothing(raw: Buffer | Blob): Promise<ReturnType<typeof readMailAuthHeaders>> {
  try {
    return readMailAuthHeaders(await readHeaderBlockOf(raw));
  } catch {
    return { author: { problem: "no-from" }, dkimKeys: [], arcDomains: [] };
  }
}

/** What DKIM reads: the bytes, or a stream of the file (read a chunk at a time, never whole). */
const toDkimInput = (raw: Buffer | Blob) => (Buffer.isBuffer(raw) ? raw : readBlob(raw));

/** Runs the checks, writing each verdict into `verdicts` as soon as it is reached. */
async function runChecks({
  raw,
  client,
  sender,
  mta,
  author,
  resolver,
  verdicts,
}: {
  raw: Buffer | Blob;
  client: SmtpClient | null;
  sender: string | null;
  mta: string;
  author: MessageAuthor;
  resolver: MailAuthResolver;
  verdicts: MailauthResult;
}): Promise<void> {
  const dns = resolver as never;
  const helo = client ? client.helo || client.ip : undefined;
  // SPF and ARC run beside the rest: one that throws leaves its verdict out (temperror), never a rejection nobody awaits.
  const spfCheck = client
    ? spf({ ip: client.ip, helo: helo && isIP(helo) ? `[${helo}]` : helo, sender: sender ?? "", mta, resolver: dns })
        .then((result) => {
          verdicts.spf = result as MailauthResult["spf"];
          return result;
        })
        .catch(() => null)
    : Promise.resolve(null);
  const signatures = await dkimVerify(toDkimInput(raw), { resolver: dns, sender: sender ?? "" });
  verdicts.dkim = signatures as MailauthResult["dkim"];
  const arcCheck = arc(signatures.arc as never, { resolver: dns })
    .then((result) => {
      verdicts.arc = result as MailauthResult["arc"];
    })
    .catch(() => {});
  const spfResult = await spfCheck;
  if ("address" in author) {
    const result = await dmarc({
      headerFrom: author.address,
      spfDomains: spfResult?.status.result === "pass" && spfResult.domain ? [spfResult.domain] : [],
      dkimDomains: signatures.results
        .filter((signature) => signature.status.result === "pass")
        .map((signature) => ({ id: signature.id, domain: signature.signingDomain, underSized: signature.status.underSized })),
      resolver: dns,
    });
    verdicts.dmarc = result as MailauthResult["dmarc"];
  }
  await arcCheck;
}

export async function authenticateMessage({
  raw,
  client,
  providerSpf = null,
  sender,
  resolver,
  mta,
  deadlineMs = MAIL_AUTH_DEADLINE_MS,
}: {
  /** The message's bytes, or its file (a large message spooled as it arrived). */
  raw: Buffer | Blob;
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
  const { author, dkimKeys, arcDomains } = await readHeadersOrNothing(raw);
  const messageResolver = createMessageResolver({
    resolver,
    fromDomain: "domain" in author ? author.domain : null,
    dkimKeys,
    arcDomains,
    isAligned: isAlignedWith,
  });
  const verdicts: MailauthResult = {};
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, deadlineMs);
  });
  // A message mailauth cannot read at all keeps the verdicts reached so far rather than failing the mail.
  const checks = runChecks({ raw, client, sender, mta, author, resolver: messageResolver, verdicts }).catch(() => {});
  try {
    await Promise.race([checks, deadline]);
  } finally {
    clearTimeout(timer);
  }
  // Read now: what the checks still running past the deadline find changes nothing that was answered.
  const answered = toMailAuthentication(verdicts, { hasClient: client !== null, author });
  return withProviderSpf(answered, providerSpf, sender);
}
