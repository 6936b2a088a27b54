// The built-in MX (role smtp): a real SMTP server on SMTP_HOST:SMTP_PORT. Unknown recipients are
// refused at RCPT time (550 5.1.2 for a domain not served, 5.1.1 for no such address), oversize messages with 552, and 250 is answered only once the
// message is recorded and queued; a storage failure answers 451 so the sender retries. What one
// client may hold (sessions in all and per address, session length, unknown recipients) is in
// client-limits.ts (docs/security.md).
import fs from "node:fs";
import os from "node:os";
import { SMTPServer, type SMTPServerDataStream, type SMTPServerSession } from "smtp-server";
import type { Config } from "@/modules/config/config";
import { type CollectedMessage, collectMessage, type MessageSpool } from "@/modules/inbound/message-spool";
import type { SpooledMessage } from "@/modules/inbound/parsing/message-source";
import { countAcceptedMail, countRefusedMail, findRefusalReason } from "@/modules/metrics/metrics";
import { MAIL_REFUSAL_REASON as REFUSED } from "@/modules/metrics/metrics.constants";
import type { ProcessMetrics } from "@/modules/metrics/metrics.registry";
import { isAppError } from "@/modules/shared/errors/app-error";
import type { Logger } from "@/modules/shared/logging/logger";
import { createSmtpClientLimits } from "./client-limits";

export const MAX_RECIPIENTS_PER_MESSAGE = 50;
export const SESSION_IDLE_TIMEOUT_MS = 60_000;

export type SmtpListenerDependencies = {
  config: Pick<Config, "smtp" | "inbound">;
  /** Accepted; or refused: a domain nobody serves (550 5.1.2), no address routes it (550 5.1.1). */
  checkRecipient: (address: string) => Promise<"accepted" | "unknown-domain" | "unknown-address">;
  receive: (message: {
    /** The message's bytes, or its file in the spool (a large one), deleted once it is answered. */
    raw: Buffer | SpooledMessage;
    envelope: { from: string | null; to: string[]; client: { ip: string; helo: string | null } };
  }) => Promise<{ accepted: number }>;
  logger: Logger;
  /** Where accepted and refused mail is counted. */
  metrics: ProcessMetrics;
  /** Where a large message is written as it arrives (inbound/message-spool.ts): the process's spool. */
  spool: MessageSpool;
};

type SmtpReplyError = Error & { responseCode: number };

function createReply(responseCode: number, message: string): SmtpReplyError {
  return Object.assign(new Error(message), { responseCode });
}

export function createSmtpListener({ config, checkRecipient, receive, logger, metrics, spool }: SmtpListenerDependencies) {
  const maxBytes = config.inbound.maxMessageBytes;
  const tls = config.smtp.tls
    ? { key: fs.readFileSync(config.smtp.tls.keyPath), cert: fs.readFileSync(config.smtp.tls.certPath) }
    : undefined;

  const clientLimits = createSmtpClientLimits({
    limits: config.smtp,
    onSessionExpired: (sessionId) => {
      const connection = [...server.connections].find(({ id }) => id === sessionId);
      if (!connection) return;
      logger.warn(
        { remoteAddress: connection.remoteAddress, maxSessionMs: config.smtp.maxSessionMs },
        "SMTP: ended a session at its time limit (SMTP_MAX_SESSION_MS)",
      );
      // A 421 reply makes smtp-server close the connection; nothing the client sends extends it.
      connection.send(421, "4.4.2 Session too long, closing connection");
    },
  });

  const server = new SMTPServer({
    name: os.hostname(),
    banner: "Hookmail ESMTP",
    size: maxBytes,
    authOptional: true,
    disabledCommands: tls ? ["AUTH"] : ["AUTH", "STARTTLS"],
    ...(tls ? { key: tls.key, cert: tls.cert } : {}),
    // Concurrent sessions are counted by clientLimits, which answers 421 with the reason and logs it.
    socketTimeout: SESSION_IDLE_TIMEOUT_MS,
    closeTimeout: 5_000,
    // The client's PTR name is used nowhere, and looking it up delays every greeting by up to 1.5 s
    // and lets a sender make this server query DNS servers of its choosing.
    disableReverseLookup: true,
    logger: false,

    onConnect(session, callback) {
      const refusal = clientLimits.admitSession(session.id, session.remoteAddress);
      if (!refusal) return callback();
      logger.warn({ remoteAddress: session.remoteAddress, reason: refusal.reason }, "SMTP: refused a session");
      countRefusedMail(metrics, "smtp", REFUSED.TOO_MANY_SESSIONS);
      callback(createReply(refusal.responseCode, refusal.message));
    },

    onClose(session) {
      clientLimits.endSession(session.id);
    },

    onRcptTo(address, session, callback) {
      if (session.envelope.rcptTo.length >= MAX_RECIPIENTS_PER_MESSAGE) {
        countRefusedMail(metrics, "smtp", REFUSED.TOO_MANY_RECIPIENTS);
        return callback(createReply(452, "4.5.3 Too many recipients"));
      }
      checkRecipient(address.address)
        .then((verdict) => {
          if (verdict === "accepted") return callback();
          if (clientLimits.recordUnknownRecipient(session.id)) {
            logger.warn(
              { remoteAddress: session.remoteAddress, maxUnknownRecipients: config.smtp.maxUnknownRecipients },
              "SMTP: closed a session after too many unknown recipients (SMTP_MAX_UNKNOWN_RECIPIENTS)",
            );
            countRefusedMail(metrics, "smtp", REFUSED.TOO_MANY_UNKNOWN_RECIPIENTS);
            return callback(createReply(421, "4.7.0 Too many unknown recipients, closing connection"));
          }
          countRefusedMail(metrics, "smtp", REFUSED.UNKNOWN_RECIPIENT);
          callback(
            verdict === "unknown-domain"
              ? createReply(550, `5.1.2 <${address.address}>: Recipient address rejected: domain not served here`)
              : createReply(550, `5.1.1 <${address.address}>: Recipient address rejected: no such mailbox`),
          );
        })
        .catch((error: unknown) => {
          logger.error({ err: error, recipient: address.address }, "SMTP: cannot check a recipient");
          countRefusedMail(metrics, "smtp", REFUSED.RECIPIENT_CHECK_FAILED);
          callback(createReply(451, "4.3.0 Temporary failure, please try again later"));
        });
    },

    onData(stream, session, reply) {
      const callback = holdSessionUntilReplied(stream, session.id, reply);
      let release: () => Promise<void> = async () => undefined;
      readMessage(stream, spool)
        .then(async (message) => {
          release = message.release;
          if (stream.sizeExceeded) {
            countRefusedMail(metrics, "smtp", REFUSED.MESSAGE_TOO_LARGE);
            return callback(createReply(552, `5.3.4 Message exceeds the maximum size of ${maxBytes} bytes`));
          }
          const { accepted } = await receive({ raw: message.raw, envelope: readEnvelope(session) });
          countAcceptedMail(metrics, "smtp");
          callback(null, `2.0.0 Accepted for ${accepted} address(es)`);
        })
        .catch((error: unknown) => {
          // The connection closed before the end of the message (the client left, or its session
          // was ended): nothing was accepted, and there is no one to answer.
          if (stream.destroyed && (error as { code?: unknown }).code === "ECONNECTION") {
            countRefusedMail(metrics, "smtp", REFUSED.CONNECTION_CLOSED);
            return callback(createReply(451, "4.3.0 Connection closed before the end of the message"));
          }
          // The reason of the answer below: invalid_message, message_too_complex, busy or internal_error.
          countRefusedMail(metrics, "smtp", findRefusalReason(error));
          if (isAppError(error) && error.code === "inbound.invalid_message") {
            return callback(createReply(554, "5.6.0 Message could not be parsed"));
          }
          // Refused for good: the same bytes would take as long again (docs/security.md).
          if (isAppError(error) && error.code === "inbound.message_too_complex") {
            return callback(createReply(554, "5.6.0 Message too complex to parse in time"));
          }
          logger.error({ err: error }, "SMTP: could not store a message, answered 451");
          callback(createReply(451, "4.3.0 Temporary failure, please try again later"));
        })
        // Answered: a spooled file has nothing left to give (the database has the message, or it was refused).
        .finally(() =>
          release().catch((error: unknown) => logger.warn({ err: error }, "SMTP: could not delete a spooled message")),
        );
    },
  });

  server.on("error", (error) => logger.error({ err: error }, "SMTP server error"));

  /** Once the message is in, the session's deadline waits for the reply to it (client-limits.ts). */
  function holdSessionUntilReplied(
    stream: SMTPServerDataStream,
    sessionId: string,
    reply: (error?: Error | null, message?: string) => void,
  ) {
    stream.once("end", () => clientLimits.holdForReply(sessionId));
    return (error?: Error | null, message?: string) => {
      reply(error, message);
      clientLimits.replySent(sessionId);
    };
  }

  return {
    listen: () =>
      new Promise<void>((resolve, reject) => {
        server.once("error", reject);
        server.listen(config.smtp.port, config.smtp.host, () => {
          server.off("error", reject);
          resolve();
        });
      }),
    close: () =>
      new Promise<void>((resolve) =>
        server.close(() => {
          clientLimits.stop();
          resolve();
        }),
      ),
    /** The bound port (useful when SMTP_PORT is 0 in tests). */
    getPort: () => {
      const address = server.server.address();
      return typeof address === "object" && address ? address.port : config.smtp.port;
    },
  };
}

/**
 * Reads the DATA stream into memory, or past 1 MiB into a file of the spool as it comes
 * (collectMessage); past the size limit the rest is drained without being kept. A write that fails
 * gives the message up: the rest is drained, and the error thrown (451, the sender retries).
 */
async function readMessage(stream: SMTPServerDataStream, spool: MessageSpool): Promise<CollectedMessage> {
  const collected = collectMessage(spool);
  let failure: { error: unknown } | undefined;
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      if (stream.sizeExceeded || failure) {
        // Refused once it ends (552, or 451 for a failed write): nothing more is kept.
        await collected.discard();
        continue;
      }
      await collected.add(chunk).catch((error: unknown) => {
        failure = { error };
      });
    }
    if (failure) throw failure.error;
    if (stream.sizeExceeded) return { raw: Buffer.alloc(0), release: collected.discard };
    return await collected.finish();
  } catch (error) {
    await collected.discard();
    throw error;
  }
}

/** The envelope, and the client as SPF judges it: its address (IPv4 unmapped) and the name it greeted with. */
function readEnvelope(session: SMTPServerSession) {
  const from = session.envelope.mailFrom ? session.envelope.mailFrom.address : "";
  const ip = session.remoteAddress.replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/i, "");
  const helo = session.hostNameAppearsAs?.trim() || null;
  return { from: from || null, to: session.envelope.rcptTo.map(({ address }) => address), client: { ip, helo } };
}
