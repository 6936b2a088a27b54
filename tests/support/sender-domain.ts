// A sending domain for mail authentication tests: a DKIM key pair, the DNS records that publish it
// with SPF and DMARC (served by tests/support/dns-server.ts), and messages built and DKIM-signed by
// nodemailer as a real sender's MTA would.
import { generateKeyPairSync } from "node:crypto";
import { dkimSign } from "mailauth";
import { createTransport } from "nodemailer";
import type Mail from "nodemailer/lib/mailer";
import type { DnsEntry } from "./dns-server";

export type SenderDomainOptions = {
  domain?: string;
  selector?: string;
  /** The address SPF allows to send for the domain. */
  allowedIp?: string;
  spf?: string;
  /** The DMARC record; null publishes none. */
  dmarc?: string | null;
};

export type SenderDomain = Required<Pick<SenderDomainOptions, "domain" | "selector" | "allowedIp">> & {
  privateKey: string;
  /** The DNS records to serve: DKIM key, SPF and DMARC. */
  records: Record<string, DnsEntry>;
  /** The message as nodemailer writes it, DKIM-signed by the domain unless `sign` is false. */
  build: (mail: Mail.Options, options?: { sign?: boolean }) => Promise<Buffer>;
};

export function createSenderDomain({
  domain = "sender.example",
  selector = "s1",
  allowedIp = "192.0.2.10",
  spf = `v=spf1 ip4:${allowedIp} -all`,
  dmarc = "v=DMARC1; p=reject",
}: SenderDomainOptions = {}): SenderDomain {
  const keys = generateKeyPairSync("rsa", { modulusLength: 1024 });
  const privateKey = keys.privateKey.export({ type: "pkcs8", format: "pem" }).toString();
  const publicKey = keys.publicKey.export({ type: "spki", format: "der" }).toString("base64");
  const records: Record<string, DnsEntry> = {
    [`${selector}._domainkey.${domain}`]: { TXT: [`v=DKIM1; k=rsa; p=${publicKey}`] },
    [domain]: { TXT: [spf], A: [allowedIp] },
    ...(dmarc ? { [`_dmarc.${domain}`]: { TXT: [dmarc] } } : {}),
  };
  return {
    domain,
    selector,
    allowedIp,
    privateKey,
    records,
    build: async (mail, { sign = true } = {}) => {
      const dkim = sign ? { domainName: domain, keySelector: selector, privateKey } : undefined;
      const transport = createTransport({ streamTransport: true, buffer: true, newline: "\r\n", dkim });
      const info = await transport.sendMail(mail);
      return info.message as Buffer;
    },
  };
}

/** The message with one more DKIM-Signature on top per signer, as relays and list servers add theirs. */
export async function addDkimSignatures(
  raw: Buffer,
  signers: Pick<SenderDomain, "domain" | "selector" | "privateKey">[],
): Promise<Buffer> {
  const { signatures } = await dkimSign(raw, {
    // mailauth's types leave out the list of signatures it takes; it signs with each.
    signatureData: signers.map(({ domain, selector, privateKey }) => ({ signingDomain: domain, selector, privateKey })),
  } as unknown as Parameters<typeof dkimSign>[1]);
  return Buffer.concat([Buffer.from(signatures), raw]);
}
