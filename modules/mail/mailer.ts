// Sends the product's own mail (verification, password reset). With SMTP_URL, through that SMTP
// server; without it, into a development outbox: each mail is written as a JSON file in
// DATA_DIR/outbox and its links are logged, so a self-hoster can finish sign-up from the log.
import { randomBytes } from "node:crypto";
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { createTransport } from "nodemailer";
import { getConfig } from "@/modules/config/config";
import { createMailSendFailedError } from "./mail.errors";

export type OutgoingMail = { to: string; subject: string; text: string; html: string };

export type Mailer = { send(mail: OutgoingMail): Promise<void> };

/** Receives a line to log; a failure comes with its cause. */
export type MailerLog = (line: string, cause?: unknown) => void;

/** The JSON document written for each mail in development outbox mode. */
export type OutboxMail = OutgoingMail & { links: string[]; createdAt: string };

const SMTP_TIMEOUT_MS = 10_000;

export function createMailer({
  smtpUrl,
  from,
  outboxDir,
  log,
}: {
  smtpUrl: string | undefined;
  from: string;
  outboxDir: string;
  log: MailerLog;
}): Mailer {
  const deliver = smtpUrl ? createSmtpDelivery({ smtpUrl, from }) : createOutboxDelivery({ outboxDir, log });
  return {
    async send(mail) {
      try {
        await deliver(mail);
      } catch (error) {
        log(`Could not send the mail "${mail.subject}" to ${mail.to}`, error ?? "unknown error");
        throw createMailSendFailedError(error);
      }
    },
  };
}

function createSmtpDelivery({ smtpUrl, from }: { smtpUrl: string; from: string }) {
  // Settings in the URL (?connectionTimeout=…) win over these defaults.
  const transport = createTransport({
    url: smtpUrl,
    connectionTimeout: SMTP_TIMEOUT_MS,
    greetingTimeout: SMTP_TIMEOUT_MS,
    socketTimeout: SMTP_TIMEOUT_MS,
  });
  return async (mail: OutgoingMail) => {
    await transport.sendMail({ from, to: mail.to, subject: mail.subject, text: mail.text, html: mail.html });
  };
}

function createOutboxDelivery({ outboxDir, log }: { outboxDir: string; log: MailerLog }) {
  return async (mail: OutgoingMail) => {
    const createdAt = new Date();
    const links = findLinksInText(mail.text);
    const outboxMail: OutboxMail = { ...mail, links, createdAt: createdAt.toISOString() };
    await mkdir(outboxDir, { recursive: true });
    const file = path.join(outboxDir, createOutboxFileName(createdAt));
    await writeFile(file, `${JSON.stringify(outboxMail, null, 2)}\n`, { flag: "wx" });
    log(`Mail to ${mail.to} not sent (SMTP_URL is not set), written to ${file}: "${mail.subject}"`);
    for (const link of links) log(`  Link: ${link}`);
  };
}

/** Sorts by time: 2025-01-31T12-00-00-000Z-1a2b3c4d.json */
function createOutboxFileName(createdAt: Date) {
  return `${createdAt.toISOString().replace(/[:.]/g, "-")}-${randomBytes(4).toString("hex")}.json`;
}

function findLinksInText(text: string): string[] {
  const links = [...text.matchAll(/https?:\/\/[^\s<>"']+/g)].map(([link]) => link.replace(/[.,;:!?)\]]+$/, ""));
  return [...new Set(links)];
}

const globalForMailer = globalThis as typeof globalThis & { __hookmailMailer?: Mailer };

/** The process's mailer, built from the configuration on first use. */
export function getMailer(): Mailer {
  globalForMailer.__hookmailMailer ??= createMailerFromConfig();
  return globalForMailer.__hookmailMailer;
}

function createMailerFromConfig(): Mailer {
  const config = getConfig();
  return createMailer({
    smtpUrl: config.mail.smtpUrl,
    from: config.mail.from,
    outboxDir: path.join(config.dataDir, "outbox"),
    log: (line, cause) => {
      if (cause === undefined) console.log(`[hookmail] ${line}`);
      else console.error(`[hookmail] ${line}:`, cause);
    },
  });
}
