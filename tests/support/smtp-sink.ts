// A real SMTP server on loopback for tests: accepts every mail (no auth needed, no TLS), parses it
// and keeps it in memory, so a test can wait for a mail and follow its links. Used by the Vitest
// tests and by the Playwright test server. Self-contained on purpose: it checks the product's
// mail from the outside, with none of the product's code.
import type { AddressInfo } from "node:net";
import { type AddressObject, simpleParser } from "mailparser";
import { SMTPServer } from "smtp-server";

export type ReceivedMail = {
  /** The RCPT TO addresses of the SMTP envelope. */
  envelopeTo: string[];
  /** The To and From headers as written, e.g. `Hookmail <no-reply@hookmail.test>`. */
  to: string;
  from: string;
  subject: string;
  text: string;
  html: string;
  /** The http(s) links of the text and HTML parts, each once, in order of appearance. */
  links: string[];
};

export type SmtpSink = {
  port: number;
  /** smtp://127.0.0.1:<port>, to use as SMTP_URL. */
  url: string;
  /** Every mail received since the start or the last clear(), oldest first. */
  messages: ReceivedMail[];
  /** The first mail, received or still to come, that matches; rejects after timeoutMs. */
  waitForMail(predicate: (mail: ReceivedMail) => boolean, timeoutMs?: number): Promise<ReceivedMail>;
  clear(): void;
  close(): Promise<void>;
};

type Waiter = { predicate: (mail: ReceivedMail) => boolean; resolve: (mail: ReceivedMail) => void };

export async function startSmtpSink({ port = 0 }: { port?: number } = {}): Promise<SmtpSink> {
  const messages: ReceivedMail[] = [];
  const waiters = new Set<Waiter>();

  const server = new SMTPServer({
    authOptional: true,
    allowInsecureAuth: true,
    disabledCommands: ["STARTTLS"],
    disableReverseLookup: true,
    logger: false,
    closeTimeout: 1_000,
    onAuth(_auth, _session, callback) {
      callback(null, { user: "test" });
    },
    onData(stream, session, callback) {
      const envelopeTo = session.envelope.rcptTo.map(({ address }) => address);
      simpleParser(stream)
        .then((parsed) => {
          const html = typeof parsed.html === "string" ? parsed.html : "";
          const text = parsed.text ?? "";
          const mail: ReceivedMail = {
            envelopeTo,
            to: formatAddresses(parsed.to),
            from: formatAddresses(parsed.from),
            subject: parsed.subject ?? "",
            text,
            html,
            links: [...new Set([...findLinks(text), ...findLinks(decodeHtmlEntities(html))])],
          };
          messages.push(mail);
          for (const waiter of waiters) {
            if (waiter.predicate(mail)) waiter.resolve(mail);
          }
          callback();
        })
        .catch((error: unknown) => callback(error instanceof Error ? error : new Error(String(error))));
    },
  });

  await new Promise<void>((resolve, reject) => {
    server.server.once("error", reject);
    server.listen(port, "127.0.0.1", () => {
      server.server.off("error", reject);
      resolve();
    });
  });
  const listeningPort = (server.server.address() as AddressInfo).port;

  return {
    port: listeningPort,
    url: `smtp://127.0.0.1:${listeningPort}`,
    messages,
    waitForMail(predicate, timeoutMs = 10_000) {
      const received = messages.find(predicate);
      if (received) return Promise.resolve(received);
      return new Promise<ReceivedMail>((resolve, reject) => {
        const waiter: Waiter = {
          predicate,
          resolve: (mail) => {
            clearTimeout(timer);
            waiters.delete(waiter);
            resolve(mail);
          },
        };
        const timer = setTimeout(() => {
          waiters.delete(waiter);
          const seen = messages.map((mail) => `"${mail.subject}" to ${mail.envelopeTo.join(", ")}`);
          reject(
            new Error(
              `No matching mail within ${timeoutMs} ms; received ${seen.length}${seen.length > 0 ? `: ${seen.join("; ")}` : ""}`,
            ),
          );
        }, timeoutMs);
        waiters.add(waiter);
      });
    },
    clear() {
      messages.splice(0, messages.length);
    },
    close() {
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** The http(s) links of a text, each once, without trailing punctuation. */
export function findLinks(text: string): string[] {
  const links = [...text.matchAll(/https?:\/\/[^\s<>"'`]+/g)].map(([link]) => link.replace(/[.,;:!?)\]}]+$/, ""));
  return [...new Set(links)];
}

function formatAddresses(addresses: AddressObject | AddressObject[] | undefined): string {
  if (!addresses) return "";
  return (Array.isArray(addresses) ? addresses : [addresses]).map(({ text }) => text).join(", ");
}

function decodeHtmlEntities(html: string): string {
  return html
    .replace(/&(?:quot|#34|#x22);/gi, '"')
    .replace(/&(?:#39|#x27|apos);/gi, "'")
    .replace(/&lt;/gi, "<")
    .replace(/&gt;/gi, ">")
    .replace(/&amp;/gi, "&");
}
