// The SMTP listener over real SMTP sessions on loopback, with the pipeline replaced by recorders.

import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createTransport } from "nodemailer";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createMessageSpool } from "@/modules/inbound/message-spool";
import { isSpooledMessage } from "@/modules/inbound/parsing/message-source";
import { createProcessMetrics } from "@/modules/metrics/metrics.registry";
import { AppError } from "@/modules/shared/errors/app-error";
import { createMemoryLogger } from "@/tests/support/memory-logger";
import type { SmtpClientLimitsConfig } from "./client-limits";
import { createSmtpListener, MAX_RECIPIENTS_PER_MESSAGE, type SmtpListenerDependencies } from "./smtp-listener";
import { connectRawSmtpClient, type RawSmtpClient } from "./test-support/raw-smtp-client";

/** The metrics the listener counts in. */
const testMetrics = createProcessMetrics();

/** What the pipeline was handed: the bytes (read from the spooled file, when it was one) and the envelope. */
type Received = { raw: Buffer; spoolPath?: string; envelope: { from: string | null; to: string[] } };

/** The bytes of what the listener hands the pipeline, read while the pipeline has it. */
async function record({ raw, envelope }: Parameters<SmtpListenerDependencies["receive"]>[0]): Promise<Received> {
  if (!isSpooledMessage(raw)) return { raw, envelope };
  return { raw: await fs.promises.readFile(raw.spoolPath), spoolPath: raw.spoolPath, envelope };
}

/** Files in a spool directory. */
const filesIn = (directory: string) => (fs.existsSync(directory) ? fs.readdirSync(directory) : []);

let close: (() => Promise<void>) | undefined;
let clients: RawSmtpClient[] = [];
afterEach(async () => {
  for (const client of clients) client.destroy();
  await close?.();
  close = undefined;
});

const TLS_FIXTURES = fileURLToPath(new URL("../../tests/fixtures/tls/", import.meta.url));

async function startListener(
  overrides: Partial<SmtpListenerDependencies> = {},
  maxMessageBytes = 64 * 1024,
  tls: { certPath: string; keyPath: string } | undefined = undefined,
  { host = "127.0.0.1", ...limits }: Partial<SmtpClientLimitsConfig> & { host?: string } = {},
) {
  const received: Received[] = [];
  const spoolDir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "hookmail-spool-test-")), "spool");
  const memory = createMemoryLogger();
  const logged = memory.lines;
  const listener = createSmtpListener({
    config: {
      smtp: {
        host,
        port: 0,
        tls,
        maxClients: 1000,
        maxClientsPerIp: 20,
        maxUnknownRecipients: 20,
        maxSessionMs: 600_000,
        ...limits,
      },
      inbound: { maxMessageBytes, secret: undefined, mailgunSigningKey: undefined, acceptGroups: { windowMs: 0, maxGroup: 1 } },
    },
    checkRecipient: async (address) => {
      if (!address.toLowerCase().endsWith("@hookmail.test")) return "unknown-domain";
      return address.startsWith("nobody") ? "unknown-address" : "accepted";
    },
    receive: async (message) => {
      received.push(await record(message));
      return { accepted: message.envelope.to.length };
    },
    logger: memory.logger,
    metrics: testMetrics,
    spool: createMessageSpool(spoolDir),
    ...overrides,
  });
  clients = [];
  await listener.listen();
  close = listener.close;
  const transport = createTransport({ host: "127.0.0.1", port: listener.getPort(), secure: false, ignoreTLS: true });
  const port = listener.getPort();
  return { received, logged, logs: memory.entries, transport, port, spoolDir };
}

describe("SMTP listener", () => {
  it("accepts a message for a known recipient and hands the raw bytes, the envelope and the client to the pipeline", async () => {
    const { received, transport } = await startListener();
    const info = await transport.sendMail({
      envelope: { from: "bob@example.org", to: ["Alice+orders@hookmail.test"] },
      from: "Bob <bob@example.org>",
      to: "alice@hookmail.test",
      subject: "Héllo ✓",
      text: "body",
    });
    expect(info.response).toMatch(/^250 /);
    expect(received).toHaveLength(1);
    expect(received[0]?.envelope).toEqual({
      from: "bob@example.org",
      to: ["Alice+orders@hookmail.test"],
      // The client as SPF judges it: its address and the name it greeted with (nodemailer's default is the host name).
      client: { ip: "127.0.0.1", helo: expect.any(String) },
    });
    expect(received[0]?.raw.toString("utf8")).toMatch(/Subject: =\?UTF-8\?/);
  });

  it.each([
    ["no size", undefined],
    ["its exact size", 0],
    ["a size 100 bytes too small", -100],
    ["a size 10 KiB too large", 10 * 1024],
  ])("hands the pipeline exactly the bytes sent when the client declares %s in MAIL FROM", async (_name, sizeError) => {
    const { received, transport } = await startListener();
    const raw = Buffer.from(
      [
        "From: bob@example.org",
        "To: alice@hookmail.test",
        "Subject: bytes",
        "",
        ...Array.from({ length: 400 }, (_, index) => `${index % 7 === 0 ? "." : ""}line ${index}: ${"héllo ".repeat(10)}`),
        "",
      ].join("\r\n"),
    );
    const size = sizeError === undefined ? undefined : raw.length + sizeError;
    await transport.sendMail({
      envelope: { from: "bob@example.org", to: ["alice@hookmail.test"], ...(size ? { size } : {}) } as never,
      raw,
    });
    expect(received).toHaveLength(1);
    expect(received[0]!.raw.equals(raw)).toBe(true);
  });

  it.each([
    ["without a declared size", false],
    ["with its size declared", true],
  ])(
    "writes a message past 1 MiB %s to a file of the spool as it comes, hands the pipeline that file, and deletes it once answered",
    async (_name, declaresSize) => {
      const { received, transport, spoolDir } = await startListener({}, 5 * 1024 * 1024);
      const line = `${"0123456789abcdef".repeat(4)}\r\n`;
      const raw = Buffer.from(
        ["From: bob@example.org", "To: alice@hookmail.test", "Subject: large", "", `.${line}`, line.repeat(45_000)].join("\r\n"),
      );
      const envelope = { from: "bob@example.org", to: ["alice@hookmail.test"], ...(declaresSize ? { size: raw.length } : {}) };
      const info = await transport.sendMail({ envelope: envelope as never, raw });
      expect(info.response).toMatch(/^250 /);
      expect(received).toHaveLength(1);
      expect(received[0]!.raw.equals(raw)).toBe(true);
      expect(path.dirname(received[0]!.spoolPath!)).toBe(spoolDir);
      expect(fs.statSync(spoolDir).mode & 0o777).toBe(0o700);
      await vi.waitFor(() => expect(filesIn(spoolDir)).toEqual([]));
    },
  );

  it("hands a message of up to 1 MiB over in memory, never through the spool", async () => {
    const { received, transport, spoolDir } = await startListener({}, 5 * 1024 * 1024);
    const raw = Buffer.from(["From: bob@example.org", "Subject: small", "", "x".repeat(900 * 1024), ""].join("\r\n"));
    await transport.sendMail({ envelope: { from: "bob@example.org", to: ["alice@hookmail.test"] }, raw });
    expect(received[0]!.raw.equals(raw)).toBe(true);
    expect(received[0]!.spoolPath).toBeUndefined();
    expect(filesIn(spoolDir)).toEqual([]);
  });

  it("deletes the spooled file of a message it could not store (451) and of one over the size limit (552)", async () => {
    const spooled: string[] = [];
    const { transport, spoolDir } = await startListener(
      {
        receive: async (message) => {
          if (isSpooledMessage(message.raw)) spooled.push(message.raw.spoolPath);
          throw new Error("database is down");
        },
      },
      3 * 1024 * 1024,
    );
    const send = (bytes: number) =>
      transport
        .sendMail({ envelope: { from: "bob@example.org", to: ["alice@hookmail.test"] }, subject: "big", text: "y".repeat(bytes) })
        .catch((caught: { responseCode?: number }) => caught);
    expect(await send(2 * 1024 * 1024)).toMatchObject({ responseCode: 451 });
    expect(spooled).toHaveLength(1);
    expect(await send(4 * 1024 * 1024)).toMatchObject({ responseCode: 552 });
    expect(spooled).toHaveLength(1);
    await vi.waitFor(() => expect(filesIn(spoolDir)).toEqual([]));
  });

  it("keeps a large message in memory when the spool cannot make a file; answers 451 when a write fails midway", async () => {
    const line = `${"0123456789abcdef".repeat(4)}\r\n`;
    const raw = Buffer.from(["From: bob@example.org", "Subject: large", "", line.repeat(40_000)].join("\r\n"));
    const envelope = { from: "bob@example.org", to: ["alice@hookmail.test"] };
    const unavailable = await startListener({ spool: { open: async () => null, sweep: async () => 0 } }, 5e6);
    await unavailable.transport.sendMail({ envelope, raw });
    expect(unavailable.received[0]!.raw.equals(raw)).toBe(true);
    await close?.();

    const failingDir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "hookmail-spool-test-")), "spool");
    const spool = createMessageSpool(failingDir);
    let writes = 0;
    const failing = await startListener(
      {
        spool: {
          ...spool,
          open: async () => {
            const writer = (await spool.open())!;
            return {
              ...writer,
              write: async (bytes) => (++writes > 3 ? Promise.reject(new Error("ENOSPC")) : writer.write(bytes)),
            };
          },
        },
      },
      5e6,
    );
    const error = await failing.transport.sendMail({ envelope, raw }).catch((caught: { responseCode?: number }) => caught);
    expect(error).toMatchObject({ responseCode: 451 });
    expect(failing.received).toHaveLength(0);
    await vi.waitFor(() => expect(filesIn(failingDir)).toEqual([]));
  });

  it("refuses an unknown recipient at RCPT time with 550 5.1.1, and one on a domain not served here with 550 5.1.2", async () => {
    const { received, transport } = await startListener();
    const error = await transport
      .sendMail({ envelope: { from: "bob@example.org", to: ["nobody@hookmail.test"] }, subject: "x", text: "x" })
      .catch((caught: { responseCode?: number; response?: string }) => caught);
    expect(error).toMatchObject({ responseCode: 550 });
    expect((error as { response: string }).response).toMatch(/5\.1\.1/);
    const foreign = await transport
      .sendMail({ envelope: { from: "bob@example.org", to: ["alice@elsewhere.com"] }, subject: "x", text: "x" })
      .catch((caught: { responseCode?: number; response?: string }) => caught);
    expect(foreign).toMatchObject({ responseCode: 550 });
    expect((foreign as { response: string }).response).toMatch(/5\.1\.2/);
    expect(received).toHaveLength(0);
  });

  it("refuses a message over the size limit with 552 and records nothing", async () => {
    const { received, transport } = await startListener({}, 10 * 1024);
    const error = await transport
      .sendMail({
        envelope: { from: "bob@example.org", to: ["alice@hookmail.test"] },
        subject: "big",
        text: "x".repeat(50 * 1024),
      })
      .catch((caught: { responseCode?: number }) => caught);
    expect(error).toMatchObject({ responseCode: 552 });
    expect(received).toHaveLength(0);
  });

  it("answers 451 when the message cannot be stored, never 250", async () => {
    const { transport, logged } = await startListener({
      receive: async () => Promise.reject(new Error("database is down")),
    });
    const error = await transport
      .sendMail({ envelope: { from: "bob@example.org", to: ["alice@hookmail.test"] }, subject: "x", text: "x" })
      .catch((caught: { responseCode?: number }) => caught);
    expect(error).toMatchObject({ responseCode: 451 });
    expect(logged.join("\n")).toMatch(/451/);
  });

  it("answers 451 at RCPT when the recipient cannot be checked", async () => {
    const { transport } = await startListener({ checkRecipient: async () => Promise.reject(new Error("db down")) });
    const error = await transport
      .sendMail({ envelope: { from: "bob@example.org", to: ["alice@hookmail.test"] }, subject: "x", text: "x" })
      .catch((caught: { responseCode?: number }) => caught);
    expect(error).toMatchObject({ responseCode: 451 });
  });

  it("answers 554 5.6.0 to a message the pipeline cannot read as mail", async () => {
    const { transport } = await startListener({
      receive: async () => Promise.reject(new AppError({ code: "inbound.invalid_message", message: "not mail" })),
    });
    const error = await transport
      .sendMail({ envelope: { from: "bob@example.org", to: ["alice@hookmail.test"] }, subject: "x", text: "x" })
      .catch((caught: { responseCode?: number }) => caught);
    expect(error).toMatchObject({ responseCode: 554 });
  });

  it(`caps recipients at ${MAX_RECIPIENTS_PER_MESSAGE} per message`, async () => {
    const { received, transport } = await startListener();
    const to = Array.from({ length: MAX_RECIPIENTS_PER_MESSAGE + 5 }, (_, index) => `user${index}@hookmail.test`);
    const info = await transport.sendMail({ envelope: { from: "bob@example.org", to }, subject: "many", text: "x" });
    expect(info.accepted).toHaveLength(MAX_RECIPIENTS_PER_MESSAGE);
    expect(info.rejected).toHaveLength(5);
    expect(received[0]?.envelope.to).toHaveLength(MAX_RECIPIENTS_PER_MESSAGE);
  });

  it("offers STARTTLS when SMTP_TLS_CERT and SMTP_TLS_KEY are set, and accepts mail over it", async () => {
    const { received, port } = await startListener({}, 64 * 1024, {
      certPath: `${TLS_FIXTURES}cert.pem`,
      keyPath: `${TLS_FIXTURES}key.pem`,
    });
    const secured = createTransport({
      host: "127.0.0.1",
      port,
      secure: false,
      requireTLS: true,
      tls: { rejectUnauthorized: false },
    });
    const info = await secured.sendMail({
      envelope: { from: "bob@example.org", to: ["alice@hookmail.test"] },
      subject: "tls",
      text: "x",
    });
    expect(info.response).toMatch(/^250 /);
    expect(received).toHaveLength(1);
  });

  it("does not offer STARTTLS without a certificate", async () => {
    const { port } = await startListener();
    const requiresTls = createTransport({ host: "127.0.0.1", port, secure: false, requireTLS: true });
    await expect(
      requiresTls.sendMail({ envelope: { from: "bob@example.org", to: ["alice@hookmail.test"] }, subject: "x", text: "x" }),
    ).rejects.toThrow(/STARTTLS/i);
  });
});

describe("SMTP listener limits on one client (docs/security.md)", () => {
  const open = async (port: number, { host = "127.0.0.1", localAddress }: { host?: string; localAddress?: string } = {}) => {
    const client = await connectRawSmtpClient({ host, port, ...(localAddress ? { localAddress } : {}) });
    clients.push(client);
    return { client, greeting: await client.readReply() };
  };

  it("refuses the session one over SMTP_MAX_CLIENTS_PER_IP from one address with 421 4.7.0 and closes it, while another address still gets 220", async () => {
    const { port, logs } = await startListener({}, undefined, undefined, { maxClientsPerIp: 2 });
    for (let index = 0; index < 2; index += 1) expect((await open(port)).greeting).toMatch(/^220 /);
    const refused = await open(port);
    expect(refused.greeting).toMatch(/^421 4\.7\.0 /);
    await refused.client.closed;
    expect((await open(port, { localAddress: "127.0.0.2" })).greeting).toMatch(/^220 /);
    expect(logs).toContainEqual(
      expect.objectContaining({
        msg: "SMTP: refused a session",
        remoteAddress: "127.0.0.1",
        reason: expect.stringMatching(/^2 sessions already open from 127\.0\.0\.1/),
      }),
    );
  });

  it("counts an IPv4 client of a dual-stack listener by its IPv4 address, and an IPv6 client apart", async () => {
    const { port } = await startListener({}, undefined, undefined, { host: "::", maxClientsPerIp: 1 });
    expect((await open(port, { host: "127.0.0.1" })).greeting).toMatch(/^220 /);
    expect((await open(port, { host: "127.0.0.1" })).greeting).toMatch(/^421 4\.7\.0 /);
    expect((await open(port, { host: "::1" })).greeting).toMatch(/^220 /);
    expect((await open(port, { host: "::1" })).greeting).toMatch(/^421 4\.7\.0 /);
  });

  it("gives an address its slot back when a session quits or its socket is destroyed abruptly", async () => {
    const { port } = await startListener({}, undefined, undefined, { maxClientsPerIp: 1 });
    const first = await open(port);
    expect(await first.client.command("QUIT")).toMatch(/^221 /);
    await first.client.closed;
    const second = await open(port);
    expect(second.greeting).toMatch(/^220 /);
    second.client.destroy();
    await vi.waitFor(
      async () => {
        const next = await open(port);
        next.client.destroy();
        expect(next.greeting).toMatch(/^220 /);
      },
      { timeout: 3_000, interval: 100 },
    );
  });

  it("refuses a session over SMTP_MAX_CLIENTS with 421 whatever its address, and admits one again when a session ends", async () => {
    const { port, logs } = await startListener({}, undefined, undefined, { maxClients: 2 });
    const first = await open(port, { localAddress: "127.0.0.1" });
    expect(first.greeting).toMatch(/^220 /);
    expect((await open(port, { localAddress: "127.0.0.2" })).greeting).toMatch(/^220 /);
    const refused = await open(port, { localAddress: "127.0.0.3" });
    expect(refused.greeting).toMatch(/^421 /);
    await refused.client.closed;
    expect(logs).toContainEqual(
      expect.objectContaining({
        msg: "SMTP: refused a session",
        remoteAddress: "127.0.0.3",
        reason: expect.stringMatching(/^2 sessions open in all/),
      }),
    );
    await first.client.command("QUIT");
    await vi.waitFor(async () => expect((await open(port, { localAddress: "127.0.0.3" })).greeting).toMatch(/^220 /), {
      timeout: 3_000,
      interval: 100,
    });
  });

  it.each([
    [
      "trickles a byte into DATA every 200 ms",
      async (client: RawSmtpClient) => {
        await client.command("MAIL FROM:<bob@example.org>");
        expect(await client.command("RCPT TO:<alice@hookmail.test>")).toMatch(/^250 /);
        expect(await client.command("DATA")).toMatch(/^354 /);
        client.write("Subject: slow\r\n\r\n");
        return setInterval(() => client.write("x"), 200);
      },
    ],
    ["sends a NOOP every 200 ms", async (client: RawSmtpClient) => setInterval(() => client.write("NOOP\r\n"), 200)],
  ])("ends a session at SMTP_MAX_SESSION_MS with 421 4.4.2 and closes it while the client %s", async (_name, keepBusy) => {
    const { port, received, logged, logs } = await startListener({}, undefined, undefined, { maxSessionMs: 1_500 });
    const { client, greeting } = await open(port);
    expect(greeting).toMatch(/^220 /);
    const startedAt = Date.now();
    await client.command("EHLO client.example");
    const timer = await keepBusy(client);
    try {
      let reply = await client.readReply(4_000);
      while (reply.startsWith("250")) reply = await client.readReply(4_000);
      expect(reply).toMatch(/^421 4\.4\.2 /);
      await client.closed;
    } finally {
      clearInterval(timer);
    }
    expect(Date.now() - startedAt).toBeLessThan(3_000);
    expect(received).toHaveLength(0);
    expect(logs).toContainEqual(
      expect.objectContaining({
        msg: "SMTP: ended a session at its time limit (SMTP_MAX_SESSION_MS)",
        remoteAddress: "127.0.0.1",
        maxSessionMs: 1500,
      }),
    );
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(logged.join("\n")).not.toMatch(/could not store/);
  });

  it("answers a message received in full before the session's deadline, then ends the session with 421 4.4.2", async () => {
    const { port, received } = await startListener(
      {
        receive: async (message) => {
          await new Promise((resolve) => setTimeout(resolve, 1_500));
          received.push(await record(message));
          return { accepted: 1 };
        },
      },
      undefined,
      undefined,
      { maxSessionMs: 1_000 },
    );
    const { client } = await open(port);
    await client.command("EHLO client.example");
    await client.command("MAIL FROM:<bob@example.org>");
    await client.command("RCPT TO:<alice@hookmail.test>");
    await client.command("DATA");
    expect(await client.command("Subject: in time\r\n\r\nbody\r\n.", 4_000)).toMatch(/^250 /);
    expect(await client.readReply(2_000)).toMatch(/^421 4\.4\.2 /);
    await client.closed;
    expect(received).toHaveLength(1);
  });

  it("closes a session with 421 4.7.0 at the unknown recipient one over SMTP_MAX_UNKNOWN_RECIPIENTS; known recipients and a mail sent before still go through", async () => {
    const { port, received, logs } = await startListener({}, undefined, undefined, { maxUnknownRecipients: 3 });
    const { client } = await open(port);
    await client.command("EHLO client.example");
    await client.command("MAIL FROM:<bob@example.org>");
    expect(await client.command("RCPT TO:<alice@hookmail.test>")).toMatch(/^250 /);
    expect(await client.command("DATA")).toMatch(/^354 /);
    expect(await client.command("Subject: first\r\n\r\nbody\r\n.")).toMatch(/^250 /);
    await client.command("MAIL FROM:<bob@example.org>");
    for (const name of ["nobody1", "nobody2"])
      expect(await client.command(`RCPT TO:<${name}@hookmail.test>`)).toMatch(/^550 5\.1\.1 /);
    expect(await client.command("RCPT TO:<carol@hookmail.test>")).toMatch(/^250 /);
    expect(await client.command("RCPT TO:<mallory@elsewhere.example>")).toMatch(/^550 5\.1\.2 /);
    expect(await client.command("RCPT TO:<nobody4@hookmail.test>")).toMatch(/^421 4\.7\.0 /);
    await client.closed;
    expect(received.map(({ envelope }) => envelope.to)).toEqual([["alice@hookmail.test"]]);
    expect(logs).toContainEqual(
      expect.objectContaining({
        msg: "SMTP: closed a session after too many unknown recipients (SMTP_MAX_UNKNOWN_RECIPIENTS)",
        remoteAddress: "127.0.0.1",
        maxUnknownRecipients: 3,
      }),
    );
    // Another session starts with a count of its own.
    const next = await open(port);
    await next.client.command("EHLO client.example");
    await next.client.command("MAIL FROM:<bob@example.org>");
    expect(await next.client.command("RCPT TO:<nobody5@hookmail.test>")).toMatch(/^550 5\.1\.1 /);
  });
});
