// The built-in MX (role smtp): a real SMTP server on SMTP_HOST:SMTP_PORT. Unknown recipients are
// refused at RCPT time (550 5.1.1), oversize messages with 552, and 250 is answered only once the
// message is recorded and queued; a storage failure answers 451 so the sender retries.
import fs from "node:fs";
import os from "node:os";
import { SMTPServer, type SMTPServerDataStream, type SMTPServerSession } from "smtp-server";
import type { Config } from "@/modules/config/config";
import { isAppError } from "@/modules/shared/errors/app-error";

export const MAX_RECIPIENTS_PER_MESSAGE = 50;
export const MAX_CONCURRENT_SESSIONS = 200;
export const SESSION_IDLE_TIMEOUT_MS = 60_000;

export type SmtpListenerDependencies = {
  config: Pick<Config, "smtp" | "inbound">;
  isAcceptableRecipient: (address: string) => Promise<boolean>;
  receive: (message: { raw: Buffer; envelope: { from: string | null; to: string[] } }) => Promise<{ accepted: number }>;
  log: (line: string, cause?: unknown) => void;
};

type SmtpReplyError = Error & { responseCode: number };

function createReply(responseCode: number, message: string): SmtpReplyError {
  return Object.assign(new Error(message), { responseCode });
}

export function createSmtpListener({ config, isAcceptableRecipient, receive, log }: SmtpListenerDependencies) {
  const maxBytes = config.inbound.maxMessageBytes;
  const tls = config.smtp.tls
    ? { key: fs.readFileSync(config.smtp.tls.keyPath), cert: fs.readFileSync(config.smtp.tls.certPath) }
    : undefined;

  const server = new SMTPServer({
    name: os.hostname(),
    banner: "Hookmail ESMTP",
    size: maxBytes,
    authOptional: true,
    disabledCommands: tls ? ["AUTH"] : ["AUTH", "STARTTLS"],
    ...(tls ? { key: tls.key, cert: tls.cert } : {}),
    maxClients: MAX_CONCURRENT_SESSIONS,
    socketTimeout: SESSION_IDLE_TIMEOUT_MS,
    closeTimeout: 5_000,
    logger: false,

    onRcptTo(address, session, callback) {
      if (session.envelope.rcptTo.length >= MAX_RECIPIENTS_PER_MESSAGE) {
        return callback(createReply(452, "4.5.3 Too many recipients"));
      }
      isAcceptableRecipient(address.address)
        .then((isAcceptable) =>
          callback(isAcceptable ? null : createReply(550, `5.1.1 <${address.address}>: Recipient address rejected: no such mailbox`)),
        )
        .catch((error: unknown) => {
          log(`SMTP: cannot check recipient ${address.address}`, error);
          callback(createReply(451, "4.3.0 Temporary failure, please try again later"));
        });
    },

    onData(stream, session, callback) {
      readMessage(stream, readDeclaredSize(session, maxBytes))
        .then(async (raw) => {
          if (stream.sizeExceeded) return callback(createReply(552, `5.3.4 Message exceeds the maximum size of ${maxBytes} bytes`));
          const { accepted } = await receive({ raw, envelope: readEnvelope(session) });
          callback(null, `2.0.0 Accepted for ${accepted} address(es)`);
        })
        .catch((error: unknown) => {
          if (isAppError(error) && error.code === "inbound.invalid_message") {
            return callback(createReply(554, "5.6.0 Message could not be parsed"));
          }
          // Refused for good: the same bytes would take as long again (docs/security.md).
          if (isAppError(error) && error.code === "inbound.message_too_complex") {
            return callback(createReply(554, "5.6.0 Message too complex to parse in time"));
          }
          log("SMTP: could not store a message, answered 451", error);
          callback(createReply(451, "4.3.0 Temporary failure, please try again later"));
        });
    },
  });

  server.on("error", (error) => log("SMTP server error", error));

  return {
    listen: () =>
      new Promise<void>((resolve, reject) => {
        server.once("error", reject);
        server.listen(config.smtp.port, config.smtp.host, () => {
          server.off("error", reject);
          resolve();
        });
      }),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
    /** The bound port (useful when SMTP_PORT is 0 in tests). */
    getPort: () => {
      const address = server.server.address();
      return typeof address === "object" && address ? address.port : config.smtp.port;
    },
  };
}

/**
 * The message size the client declared in MAIL FROM (RFC 1870 SIZE=), when it is within the limit.
 * smtp-server has already refused a declared size over the limit with 552.
 */
function readDeclaredSize(session: SMTPServerSession, maxBytes: number): number | undefined {
  const args = session.envelope.mailFrom ? (session.envelope.mailFrom.args as { SIZE?: string }) : undefined;
  const declared = Number(args?.SIZE);
  return Number.isSafeInteger(declared) && declared > 0 && declared <= maxBytes ? declared : undefined;
}

/**
 * Reads the DATA stream into one Buffer; past the size limit the rest is drained without being kept.
 * With a declared size, the bytes are copied as they come into one Buffer of that size (no second
 * copy of a large message at the end); without one, or when more arrives than declared, the chunks
 * are kept and joined at the end.
 */
async function readMessage(stream: SMTPServerDataStream, declaredSize: number | undefined): Promise<Buffer> {
  // Not zero-filled: the pages of a declared size that never arrives are never written, so they take
  // address space, not memory; only the bytes received are handed on.
  let target = declaredSize === undefined ? undefined : Buffer.allocUnsafe(declaredSize);
  let length = 0;
  const chunks: Buffer[] = [];
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    if (stream.sizeExceeded) continue;
    if (target && length + chunk.length <= target.length) {
      length += chunk.copy(target, length);
      continue;
    }
    if (target) {
      chunks.push(target.subarray(0, length));
      target = undefined;
    }
    chunks.push(chunk);
  }
  return target ? target.subarray(0, length) : Buffer.concat(chunks);
}

function readEnvelope(session: SMTPServerSession) {
  const from = session.envelope.mailFrom ? session.envelope.mailFrom.address : "";
  return { from: from || null, to: session.envelope.rcptTo.map(({ address }) => address) };
}
