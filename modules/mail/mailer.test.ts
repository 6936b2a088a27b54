import { statSync } from "node:fs";
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import type net from "node:net";
import os from "node:os";
import path from "node:path";
import { SMTPServer } from "smtp-server";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "@/modules/config/config";
import { isAppError } from "@/modules/shared/errors/app-error";
import { findFreePort } from "@/modules/shared/net/free-port";
import { createMemoryLogger } from "@/tests/support/memory-logger";
import { type SmtpSink, startSmtpSink } from "@/tests/support/smtp-sink";
import { createMailer, createMailerFromConfig, describeMissingSmtpWarning, type OutboxMail, type OutgoingMail } from "./mailer";

const FROM = "Hookmail <no-reply@hookmail.test>";
const MAIL: OutgoingMail = {
  to: "ada@example.com",
  subject: "Verify your email address",
  text: "Hello Ada,\n\nOpen https://hookmail.test/verify?token=abc&next=%2F to continue.\n",
  html: '<p>Hello Ada,</p><p><a href="https://hookmail.test/verify?token=abc&amp;next=%2F">Verify</a></p>',
};

function createLogCollector() {
  const { logger, infos, errors, entries } = createMemoryLogger();
  return { log: logger, infos, errors, entries };
}

async function captureRejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error("expected the promise to reject");
}

describe("createMailer with an SMTP URL", () => {
  let sink: SmtpSink;
  beforeAll(async () => {
    sink = await startSmtpSink({ port: 0 });
  });
  afterAll(async () => {
    await sink.close();
  });
  afterEach(() => sink.clear());

  it("delivers the mail over SMTP from the configured sender, with its subject, text and HTML", async () => {
    const { log, infos, errors } = createLogCollector();
    const mailer = createMailer({ smtpUrl: sink.url, from: FROM, outboxDir: "/nonexistent", logger: log });

    await mailer.send(MAIL);

    const received = await sink.waitForMail((mail) => mail.envelopeTo.includes(MAIL.to));
    expect(received.envelopeTo).toEqual([MAIL.to]);
    expect(received.from).toBe('"Hookmail" <no-reply@hookmail.test>');
    expect(received.to).toBe(MAIL.to);
    expect(received.subject).toBe(MAIL.subject);
    expect(received.text.trim()).toBe(MAIL.text.trim());
    expect(received.html).toBe(MAIL.html);
    expect(received.links).toEqual(["https://hookmail.test/verify?token=abc&next=%2F"]);
    expect(infos).toEqual([]);
    expect(errors).toEqual([]);
  });

  it("delivers successive mails through the same mailer, each to its own recipient", async () => {
    const mailer = createMailer({ smtpUrl: sink.url, from: FROM, outboxDir: "/nonexistent", logger: createLogCollector().log });

    await mailer.send({ ...MAIL, to: "first@example.com" });
    await mailer.send({ ...MAIL, to: "second@example.com" });

    expect(sink.messages.map((mail) => mail.envelopeTo)).toEqual([["first@example.com"], ["second@example.com"]]);
  });
});

describe("createMailer without an SMTP URL (development outbox)", () => {
  let outboxRoot: string;
  beforeAll(async () => {
    outboxRoot = await mkdtemp(path.join(os.tmpdir(), "hookmail-outbox-"));
  });
  afterAll(async () => {
    await rm(outboxRoot, { recursive: true, force: true });
  });

  it("writes one JSON file per mail, creating the outbox, and logs the recipient, subject and links (development)", async () => {
    const outboxDir = path.join(outboxRoot, "created", "outbox");
    const { log, infos, errors } = createLogCollector();
    const mailer = createMailer({ smtpUrl: undefined, from: FROM, outboxDir, logger: log });

    await mailer.send(MAIL);
    await mailer.send({ ...MAIL, to: "grace@example.com", text: "https://hookmail.test/reset?token=xyz." });

    const files = (await readdir(outboxDir)).sort();
    expect(files).toHaveLength(2);
    for (const file of files) expect(file).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-\d{3}Z-[0-9a-f]{8}\.json$/);
    const written = await Promise.all(
      files.map(async (file) => JSON.parse(await readFile(path.join(outboxDir, file), "utf8")) as OutboxMail),
    );
    expect(written.map(({ to }) => to).sort()).toEqual(["ada@example.com", "grace@example.com"]);
    const first = written.find(({ to }) => to === MAIL.to);
    expect(first).toEqual({ ...MAIL, links: ["https://hookmail.test/verify?token=abc&next=%2F"], createdAt: expect.any(String) });
    expect(Number.isNaN(Date.parse(first?.createdAt ?? ""))).toBe(false);

    const logged = infos.join("\n");
    expect(logged).toContain("ada@example.com");
    expect(logged).toContain(MAIL.subject);
    expect(logged).toContain(path.join(outboxDir, files[0]!));
    expect(logged).toContain("its links are in that file");
    expect(logged).not.toContain("token=abc");
    expect(logged).not.toContain("token=xyz");
    expect(errors).toEqual([]);
  });

  it("keeps the outbox owner-only: the directory 0700 (an existing 0755 one tightened) and each mail 0600", async () => {
    const outboxDir = path.join(outboxRoot, "modes", "outbox");
    await mkdir(outboxDir, { recursive: true, mode: 0o755 });
    const previousUmask = process.umask(0);
    try {
      await createMailer({ smtpUrl: undefined, from: FROM, outboxDir, logger: createLogCollector().log }).send(MAIL);
    } finally {
      process.umask(previousUmask);
    }
    expect(statSync(outboxDir).mode & 0o777).toBe(0o700);
    const [file] = await readdir(outboxDir);
    expect(statSync(path.join(outboxDir, file!)).mode & 0o777).toBe(0o600);
  });

  it.each([
    ["NODE_ENV=production", { NODE_ENV: "production" }],
    ["an https BASE_URL", { BASE_URL: "https://hookmail.example.com" }],
  ])(
    "in production (%s), never writes a verification or reset link to the log; the owner-only outbox keeps it",
    async (_label, environment) => {
      const dataDir = path.join(outboxRoot, `production-${Math.random().toString(36).slice(2)}`);
      const { log, infos, errors } = createLogCollector();
      const mailer = createMailerFromConfig(loadConfig({ DATA_DIR: dataDir, ...environment }), log);

      await mailer.send(MAIL);

      const logged = infos.join("\n");
      expect(logged).toContain("ada@example.com");
      expect(logged).not.toContain("token=abc");
      expect(logged).not.toContain("https://hookmail.test/verify");
      expect(errors).toEqual([]);
      const [file] = await readdir(path.join(dataDir, "outbox"));
      const written = JSON.parse(await readFile(path.join(dataDir, "outbox", file!), "utf8")) as OutboxMail;
      expect(written.links).toEqual(["https://hookmail.test/verify?token=abc&next=%2F"]);
    },
  );

  it("in development (no NODE_ENV, an http BASE_URL) too, logs the outbox file that holds the links, never a link's token", async () => {
    const dataDir = path.join(outboxRoot, "development");
    const { log, infos } = createLogCollector();
    await createMailerFromConfig(loadConfig({ DATA_DIR: dataDir, BASE_URL: "http://localhost:3000" }), log).send(MAIL);
    const [file] = await readdir(path.join(dataDir, "outbox"));
    expect(infos.join("\n")).toContain(path.join(dataDir, "outbox", file!));
    expect(infos.join("\n")).not.toContain("token=abc");
  });

  it("rejects with mail.send_failed and logs the cause when the outbox cannot be written", async () => {
    const notADirectory = path.join(outboxRoot, "a-file");
    await writeFile(notADirectory, "");
    const { log, errors } = createLogCollector();
    const mailer = createMailer({ smtpUrl: undefined, from: FROM, outboxDir: path.join(notADirectory, "outbox"), logger: log });

    const error = await captureRejection(mailer.send(MAIL));

    expect(isAppError(error) && error.code).toBe("mail.send_failed");
    expect(errors).toHaveLength(1);
    expect(errors[0]?.cause).toBeInstanceOf(Error);
  });
});

describe("createMailer send failures", () => {
  it("rejects with mail.send_failed (503) and logs the connection error when nothing listens on the SMTP port", async () => {
    const port = await findFreePort();
    const { log, errors, entries } = createLogCollector();
    const mailer = createMailer({ smtpUrl: `smtp://127.0.0.1:${port}`, from: FROM, outboxDir: "/nonexistent", logger: log });

    const error = await captureRejection(mailer.send(MAIL));

    expect(isAppError(error)).toBe(true);
    if (!isAppError(error)) return;
    expect(error.code).toBe("mail.send_failed");
    expect(error.httpStatus).toBe(503);
    expect(error.message).toBe("The email could not be sent. Please try again later.");
    expect(error.cause).toBeInstanceOf(Error);
    expect(errors).toHaveLength(1);
    expect(entries).toContainEqual(expect.objectContaining({ msg: "Could not send a mail", to: MAIL.to }));
    expect(errors[0]?.cause).toBe(error.cause);
  });

  it("rejects with mail.send_failed and logs the SMTP reply when the server refuses the recipient", async () => {
    const refusingServer = new SMTPServer({
      authOptional: true,
      disabledCommands: ["STARTTLS"],
      disableReverseLookup: true,
      logger: false,
      onRcptTo(_address, _session, callback) {
        callback(Object.assign(new Error("Mailbox unavailable"), { responseCode: 550 }));
      },
    });
    await new Promise<void>((resolve) => refusingServer.listen(0, "127.0.0.1", () => resolve()));
    const { port } = refusingServer.server.address() as net.AddressInfo;
    try {
      const { log, errors } = createLogCollector();
      const mailer = createMailer({ smtpUrl: `smtp://127.0.0.1:${port}`, from: FROM, outboxDir: "/nonexistent", logger: log });

      const error = await captureRejection(mailer.send(MAIL));

      expect(isAppError(error) && error.code).toBe("mail.send_failed");
      expect(String(errors[0]?.cause)).toContain("Mailbox unavailable");
    } finally {
      await new Promise<void>((resolve) => refusingServer.close(() => resolve()));
    }
  });
});

describe("the start-up warning about a missing SMTP_URL", () => {
  it.each([
    ["NODE_ENV=production", { NODE_ENV: "production" }],
    ["an https BASE_URL", { BASE_URL: "https://hookmail.example.com" }],
  ])(
    "in production (%s) without SMTP_URL, says loudly that verification and reset mails cannot be sent and where they go",
    (_label, environment) => {
      const lines = describeMissingSmtpWarning(loadConfig({ DATA_DIR: "/srv/hookmail", ...environment }));
      expect(lines.length).toBeGreaterThanOrEqual(3);
      for (const line of lines) expect(line).toMatch(/^WARNING: /);
      const text = lines.join("\n");
      expect(text).toContain("SMTP_URL is not set");
      expect(text).toMatch(/verification and password reset mails CANNOT BE SENT/);
      expect(text).toContain(path.join("/srv/hookmail", "outbox"));
      expect(text).toMatch(/links are NOT written to the log/);
    },
  );

  it("says nothing with SMTP_URL set, or in development", () => {
    expect(describeMissingSmtpWarning(loadConfig({ NODE_ENV: "production", SMTP_URL: "smtp://mail.example.com:587" }))).toEqual(
      [],
    );
    expect(describeMissingSmtpWarning(loadConfig({ BASE_URL: "http://localhost:3000" }))).toEqual([]);
    expect(describeMissingSmtpWarning(loadConfig({}))).toEqual([]);
  });
});
