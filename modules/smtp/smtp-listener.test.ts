// The SMTP listener over real SMTP sessions on loopback, with the pipeline replaced by recorders.
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

async function startListener(overrides: Partial<SmtpListenerDependencies> = {}, maxMessageBytes = 64 * 1024) {
  const received: Received[] = [];
  const logged: string[] = [];
  const listener = createSmtpListener({
    config: { smtp: { host: "127.0.0.1", port: 0, tls: undefined }, inbound: { maxMessageBytes, secret: undefined, mailgunSigningKey: undefined } },
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
  return { received, logged, transport };
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
});
