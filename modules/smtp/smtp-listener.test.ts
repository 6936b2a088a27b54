// The SMTP listener over real SMTP sessions on loopback, with the pipeline replaced by recorders.
import { fileURLToPath } from "node:url";
import { createTransport } from "nodemailer";
import { afterEach, describe, expect, it } from "vitest";
import { AppError } from "@/modules/shared/errors/app-error";
import { createSmtpListener, MAX_RECIPIENTS_PER_MESSAGE, type SmtpListenerDependencies } from "./smtp-listener";

type Received = { raw: Buffer; envelope: { from: string | null; to: string[] } };

let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await close?.();
  close = undefined;
});

const TLS_FIXTURES = fileURLToPath(new URL("../../tests/fixtures/tls/", import.meta.url));

async function startListener(
  overrides: Partial<SmtpListenerDependencies> = {},
  maxMessageBytes = 64 * 1024,
  tls: { certPath: string; keyPath: string } | undefined = undefined,
) {
  const received: Received[] = [];
  const logged: string[] = [];
  const listener = createSmtpListener({
    config: { smtp: { host: "127.0.0.1", port: 0, tls, maxClients: 1000, maxClientsPerIp: 20, maxUnknownRecipients: 20, maxSessionMs: 600_000 }, inbound: { maxMessageBytes, secret: undefined, mailgunSigningKey: undefined } },
    isAcceptableRecipient: async (address) => address.toLowerCase().endsWith("@hookmail.test") && !address.startsWith("nobody"),
    receive: async (message) => {
      received.push(message);
      return { accepted: message.envelope.to.length };
    },
    log: (line) => logged.push(line),
    ...overrides,
  });
  await listener.listen();
  close = listener.close;
  const transport = createTransport({ host: "127.0.0.1", port: listener.getPort(), secure: false, ignoreTLS: true });
  const port = listener.getPort();
  return { received, logged, transport, port };
}

describe("SMTP listener", () => {
  it("accepts a message for a known recipient and hands the raw bytes and the envelope to the pipeline", async () => {
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
    expect(received[0]?.envelope).toEqual({ from: "bob@example.org", to: ["Alice+orders@hookmail.test"] });
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
    await transport.sendMail({ envelope: { from: "bob@example.org", to: ["alice@hookmail.test"], ...(size ? { size } : {}) } as never, raw });
    expect(received).toHaveLength(1);
    expect(received[0]!.raw.equals(raw)).toBe(true);
  });

  it("refuses an unknown recipient at RCPT time with 550 5.1.1", async () => {
    const { received, transport } = await startListener();
    const error = await transport
      .sendMail({ envelope: { from: "bob@example.org", to: ["nobody@hookmail.test"] }, subject: "x", text: "x" })
      .catch((caught: { responseCode?: number; response?: string }) => caught);
    expect(error).toMatchObject({ responseCode: 550 });
    expect((error as { response: string }).response).toMatch(/5\.1\.1/);
    const foreign = await transport
      .sendMail({ envelope: { from: "bob@example.org", to: ["alice@elsewhere.com"] }, subject: "x", text: "x" })
      .catch((caught: { responseCode?: number }) => caught);
    expect(foreign).toMatchObject({ responseCode: 550 });
    expect(received).toHaveLength(0);
  });

  it("refuses a message over the size limit with 552 and records nothing", async () => {
    const { received, transport } = await startListener({}, 10 * 1024);
    const error = await transport
      .sendMail({ envelope: { from: "bob@example.org", to: ["alice@hookmail.test"] }, subject: "big", text: "x".repeat(50 * 1024) })
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
    const { transport } = await startListener({ isAcceptableRecipient: async () => Promise.reject(new Error("db down")) });
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
    const info = await secured.sendMail({ envelope: { from: "bob@example.org", to: ["alice@hookmail.test"] }, subject: "tls", text: "x" });
    expect(info.response).toMatch(/^250 /);
    expect(received).toHaveLength(1);
  });

  it("does not offer STARTTLS without a certificate", async () => {
    const { port } = await startListener();
    const requiresTls = createTransport({ host: "127.0.0.1", port, secure: false, requireTLS: true });
    await expect(requiresTls.sendMail({ envelope: { from: "bob@example.org", to: ["alice@hookmail.test"] }, subject: "x", text: "x" })).rejects.toThrow(/STARTTLS/i);
  });
});
