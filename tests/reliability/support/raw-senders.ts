// Senders that hand a message's bytes over exactly as they are: one SMTP session on a raw socket
// (EHLO, MAIL FROM, RCPT TO, DATA with the bytes dot-stuffed, QUIT), and POST /api/inbound/raw.
// Each answers what the server said, or why there was no answer; neither retries.
import net from "node:net";
import { describeError } from "@/modules/shared/errors/describe-error";

export type SmtpStage = "connect" | "greeting" | "ehlo" | "mail" | "rcpt" | "data" | "message";

export type SmtpOutcome =
  /** The server's final reply to the message (any code), or its refusal at an earlier stage. */
  | { kind: "reply"; stage: SmtpStage; code: number; text: string }
  /** No reply: the connection failed or closed, or the server did not answer in time. */
  | { kind: "no-reply"; stage: SmtpStage; error: string };

/**
 * Dot-stuffs a message for DATA (RFC 5321 §4.5.2): a "." at the start of a line (after any LF, as
 * smtp-server reads it, or at the very start) is doubled, and a message not ending in CRLF gets
 * one, so that nothing in the bytes can end the data early. Everything else goes as it is.
 */
export function dotStuff(raw: Buffer): Buffer {
  let dots = 0;
  for (let index = 0; index < raw.length; index += 1) {
    if (raw[index] === 0x2e && (index === 0 || raw[index - 1] === 0x0a)) dots += 1;
  }
  const needsCrlf = raw.length > 0 && !(raw.length >= 2 && raw[raw.length - 2] === 0x0d && raw[raw.length - 1] === 0x0a);
  const stuffed = Buffer.allocUnsafe(raw.length + dots + (needsCrlf ? 2 : 0));
  let out = 0;
  for (let index = 0; index < raw.length; index += 1) {
    const byte = raw[index] as number;
    if (byte === 0x2e && (index === 0 || raw[index - 1] === 0x0a)) stuffed[out++] = 0x2e;
    stuffed[out++] = byte;
  }
  if (needsCrlf) {
    stuffed[out++] = 0x0d;
    stuffed[out++] = 0x0a;
  }
  return stuffed;
}

type Reply = { code: number; text: string };

/** Reads SMTP replies (multi-line ones joined) from a socket, one `next()` per reply. */
function createReplyReader(socket: net.Socket) {
  let buffer = "";
  let lines: string[] = [];
  const replies: Reply[] = [];
  const waiters: { resolve: (reply: Reply) => void; reject: (error: Error) => void }[] = [];
  let failure: Error | undefined;

  const fail = (error: Error) => {
    failure ??= error;
    for (const waiter of waiters.splice(0)) waiter.reject(failure);
  };

  socket.on("data", (chunk: Buffer) => {
    buffer += chunk.toString("latin1");
    let end = buffer.indexOf("\n");
    while (end !== -1) {
      const line = buffer.slice(0, end).replace(/\r$/, "");
      buffer = buffer.slice(end + 1);
      lines.push(line);
      if (!/^\d{3}-/.test(line)) {
        const code = Number(line.slice(0, 3));
        const reply = { code: Number.isInteger(code) ? code : 0, text: lines.map((part) => part.slice(4)).join("\n") };
        lines = [];
        const waiter = waiters.shift();
        if (waiter) waiter.resolve(reply);
        else replies.push(reply);
      }
      end = buffer.indexOf("\n");
    }
  });
  socket.on("error", (error) => fail(error));
  socket.on("close", () => fail(new Error("connection closed")));

  return {
    /** A reply that arrived and nobody asked for yet. */
    takeQueued: () => replies.shift(),
    next: (timeoutMs: number) =>
      new Promise<Reply>((resolve, reject) => {
        const ready = replies.shift();
        if (ready) return resolve(ready);
        if (failure) return reject(failure);
        const timer = setTimeout(() => {
          const index = waiters.findIndex((waiter) => waiter.resolve === settle);
          if (index !== -1) waiters.splice(index, 1);
          reject(new Error(`no reply within ${timeoutMs} ms`));
        }, timeoutMs);
        const settle = (reply: Reply) => {
          clearTimeout(timer);
          resolve(reply);
        };
        waiters.push({
          resolve: settle,
          reject: (error) => {
            clearTimeout(timer);
            reject(error);
          },
        });
      }),
  };
}

/** One SMTP transaction for one message, its bytes as given (dot-stuffed). */
export async function sendRawSmtp({
  host = "127.0.0.1",
  port,
  from,
  to,
  raw,
  replyTimeoutMs = 60_000,
}: {
  host?: string;
  port: number;
  from: string;
  to: string[];
  raw: Buffer;
  replyTimeoutMs?: number;
}): Promise<SmtpOutcome> {
  const socket = net.connect({ host, port });
  socket.setNoDelay(true);
  const reader = createReplyReader(socket);
  let stage: SmtpStage = "connect";
  const write = (data: string | Buffer) =>
    new Promise<void>((resolve, reject) => socket.write(data, (error) => (error ? reject(error) : resolve())));
  const command = async (line: string) => {
    await write(`${line}\r\n`);
    return reader.next(replyTimeoutMs);
  };
  try {
    await new Promise<void>((resolve, reject) => {
      socket.once("connect", resolve);
      socket.once("error", reject);
    });
    stage = "greeting";
    const greeting = await reader.next(replyTimeoutMs);
    if (greeting.code !== 220) return { kind: "reply", stage, ...greeting };
    stage = "ehlo";
    const ehlo = await command("EHLO reliability.test");
    if (ehlo.code !== 250) return { kind: "reply", stage, ...ehlo };
    stage = "mail";
    const mail = await command(`MAIL FROM:<${from}>`);
    if (mail.code !== 250) return { kind: "reply", stage, ...mail };
    stage = "rcpt";
    for (const recipient of to) {
      const rcpt = await command(`RCPT TO:<${recipient}>`);
      if (rcpt.code !== 250) return { kind: "reply", stage, ...rcpt };
    }
    stage = "data";
    const data = await command("DATA");
    if (data.code !== 354) return { kind: "reply", stage, ...data };
    stage = "message";
    await write(dotStuff(raw));
    await write(".\r\n");
    const final = await reader.next(replyTimeoutMs);
    await write("QUIT\r\n").catch(() => undefined);
    return { kind: "reply", stage, ...final };
  } catch (error) {
    // The server may have answered (e.g. refused the message) and closed while the bytes were still being written.
    const early = reader.takeQueued();
    if (early) return { kind: "reply", stage, ...early };
    return { kind: "no-reply", stage, error: describeError(error) };
  } finally {
    socket.end();
    setTimeout(() => socket.destroy(), 1_000).unref();
  }
}

export type HttpOutcome =
  | { kind: "response"; status: number; body: string; json: unknown }
  | { kind: "no-response"; error: string };

/** POST /api/inbound/raw with the message's bytes as they are. */
export async function postRawInbound({
  baseUrl,
  inboundSecret,
  raw,
  envelopeFrom,
  envelopeTo,
  timeoutMs = 60_000,
}: {
  baseUrl: string;
  inboundSecret: string;
  raw: Buffer;
  envelopeFrom: string;
  envelopeTo: string;
  timeoutMs?: number;
}): Promise<HttpOutcome> {
  try {
    const response = await fetch(`${baseUrl}/api/inbound/raw`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${inboundSecret}`,
        "content-type": "message/rfc822",
        "x-envelope-from": envelopeFrom,
        "x-envelope-to": envelopeTo,
      },
      body: new Uint8Array(raw),
      signal: AbortSignal.timeout(timeoutMs),
    });
    const body = await response.text();
    let json: unknown = null;
    try {
      json = JSON.parse(body);
    } catch {
      json = null;
    }
    return { kind: "response", status: response.status, body, json };
  } catch (error) {
    const cause = error instanceof Error && error.cause instanceof Error ? `: ${error.cause.message}` : "";
    return { kind: "no-response", error: `${describeError(error)}${cause}` };
  }
}
