// Sends the product's own mail (verification, password reset). With SMTP_URL, through that SMTP
// server; without it, into a development outbox: each mail is written as an owner-only JSON file
// (0600, in a 0700 DATA_DIR/outbox) and the log names that file, so a self-hoster can finish sign-up
// from it. Links that grant access never go to the log; in production (NODE_ENV=production or an
// https BASE_URL) start-up also warns loudly that these mails cannot be sent (docs/security.md).
import { randomBytes } from "node:crypto";
import path from "node:path";
import { createTransport } from "nodemailer";
import type { Config } from "@/modules/config/config";
import { createPrivateDirectory, writePrivateFile } from "@/modules/shared/fs/private-files";
import type { Logger } from "@/modules/shared/logging/logger";
import { createMailSendFailedError } from "./mail.errors";

export type OutgoingMail = { to: string; subject: string; text: string; html: string };

export type Mailer = { send(mail: OutgoingMail): Promise<void> };

/** The JSON document written for each mail in development outbox mode. */
export type OutboxMail = OutgoingMail & { links: string[]; createdAt: string };

const SMTP_TIMEOUT_MS = 10_000;

/** The development outbox's directory inside DATA_DIR. */
export const OUTBOX_DIRECTORY = "outbox";

export function createMailer({
  smtpUrl,
  from,
  outboxDir,
  logger,
}: {
  smtpUrl: string | undefined;
  from: string;
  outboxDir: string;
  logger: Logger;
}): Mailer {
  const deliver = smtpUrl ? createSmtpDelivery({ smtpUrl, from }) : createOutboxDelivery({ outboxDir, logger });
  return {
    async send(mail) {
      try {
        await deliver(mail);
      } catch (error) {
        logger.error({ err: error ?? "unknown error", to: mail.to, subject: mail.subject }, "Could not send a mail");
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

function createOutboxDelivery({ outboxDir, logger }: { outboxDir: string; logger: Logger }) {
  return async (mail: OutgoingMail) => {
    const createdAt = new Date();
    const links = findLinksInText(mail.text);
    const outboxMail: OutboxMail = { ...mail, links, createdAt: createdAt.toISOString() };
    createPrivateDirectory(outboxDir);
    const file = path.join(outboxDir, createOutboxFileName(createdAt));
    await writePrivateFile(file, `${JSON.stringify(outboxMail, null, 2)}\n`);
    const linkNote = links.length > 0 ? " (its links are in that file)" : "";
    logger.info(`Mail to ${mail.to} not sent (SMTP_URL is not set), written to ${file}${linkNote}: "${mail.subject}"`);
  };
}

/**
 * The lines start-up logs as a warning when a production deployment has no SMTP_URL: verification
 * and reset mails cannot reach anyone, and their links are not logged either. Empty otherwise.
 */
export function describeMissingSmtpWarning(config: Pick<Config, "isProductionDeployment" | "mail" | "dataDir">): string[] {
  if (!config.isProductionDeployment || config.mail.smtpUrl) return [];
  const outboxDir = path.join(config.dataDir, OUTBOX_DIRECTORY);
  return [
    "WARNING: SMTP_URL is not set in production (NODE_ENV=production or an https BASE_URL).",
    "WARNING: verification and password reset mails CANNOT BE SENT: users cannot verify their address or reset their password.",
    `WARNING: those mails are only written, owner-only, to ${outboxDir}; their links are NOT written to the log.`,
    "WARNING: set SMTP_URL (and MAIL_FROM) to an SMTP server that can deliver mail.",
  ];
}

/** Sorts by time: 2025-01-31T12-00-00-000Z-1a2b3c4d.json */
function createOutboxFileName(createdAt: Date) {
  return `${createdAt.toISOString().replace(/[:.]/g, "-")}-${randomBytes(4).toString("hex")}.json`;
}

function findLinksInText(text: string): string[] {
  const links = [...text.matchAll(/https?:\/\/[^\s<>"']+/g)].map(([link]) => link.replace(/[.,;:!?)\]]+$/, ""));
  return [...new Set(links)];
}

/** The mailer a configuration asks for. */
export function createMailerFromConfig(
  config: Pick<Config, "isProductionDeployment" | "mail" | "dataDir">,
  logger: Logger,
): Mailer {
  return createMailer({
    smtpUrl: config.mail.smtpUrl,
    from: config.mail.from,
    outboxDir: path.join(config.dataDir, OUTBOX_DIRECTORY),
    logger,
  });
}
