// Mail in, webhook out, over real sockets on loopback: nodemailer → the SMTP listener → the
// pipeline on a fresh database → the delivery worker → an HTTP sink that verifies the signature
// with the standardwebhooks package.

import { createHash } from "node:crypto";
import { createTransport } from "nodemailer";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type MailPipeline, startMailPipeline } from "@/tests/support/mail-pipeline";
import { startProductSmtpListener } from "@/tests/support/product-smtp";
import { seedEmailCallback, seedUser } from "@/tests/support/seed";
import { connectRawSmtpClient } from "./test-support/raw-smtp-client";

const SECRET = "integration-webhook-secret-0123456789";
const MAX_MESSAGE_BYTES = 2 * 1024 * 1024;

const address = "relay@hookmail.test";

let pipeline: MailPipeline;
let emailCallbackId: string;

beforeAll(async () => {
  pipeline = await startMailPipeline({
    name: "relay",
    environment: { WEBHOOK_TIMEOUT_MS: "5000", MAX_MESSAGE_BYTES: String(MAX_MESSAGE_BYTES) },
  });
  const { database, sink } = pipeline;
  const { id: userId } = await seedUser(database, { email: "relay@example.com", name: "Relay" });
  ({ id: emailCallbackId } = await seedEmailCallback(database, {
    userId,
    username: "relay",
    webhookUrl: sink.url("/hook"),
    webhookSecret: SECRET,
  }));
});
afterAll(() => pipeline?.close());

const transport = () => createTransport({ host: "127.0.0.1", port: pipeline.listener.getPort(), secure: false, ignoreTLS: true });

const sha256 = (data: Buffer) => createHash("sha256").update(data).digest("hex");

describe("SMTP to webhook", () => {
  it("delivers text, HTML, a UTF-8 subject, an inline image and two attachments byte-exact, signed", async () => {
    const image = Buffer.from("89504e470d0a1a0a0000000d4948445200000001000000010806000000", "hex");
    const pdf = Buffer.concat([Buffer.from("%PDF-1.4\n"), Buffer.alloc(3000, 7), Buffer.from([0, 255, 128, 10, 13])]);
    const csv = Buffer.from("id;name\n1;Zoë\n2;Łukasz\n", "utf8");
    const info = await transport().sendMail({
      envelope: { from: "bob@example.org", to: [address] },
      from: "Bob Sender <bob@example.org>",
      to: `Relay <${address}>`,
      subject: "Réunion ✓ — 会議",
      text: "Plain text body ✓",
      html: '<p>HTML body <img src="cid:logo@hookmail"></p>',
      attachments: [
        { filename: "logo.png", content: image, cid: "logo@hookmail", contentType: "image/png" },
        { filename: "report.pdf", content: pdf, contentType: "application/pdf" },
        { filename: "données.csv", content: csv, contentType: "text/csv" },
      ],
    });
    expect(info.response).toMatch(/^250 /);

    await pipeline.sink.waitForRequests(1);
    const request = pipeline.sink.requests[0];
    if (!request) throw new Error("no webhook request");
    const payload = new Webhook(SECRET, { format: "raw" }).verify(request.body.toString("utf8"), {
      "webhook-id": String(request.headers["webhook-id"]),
      "webhook-timestamp": String(request.headers["webhook-timestamp"]),
      "webhook-signature": String(request.headers["webhook-signature"]),
    }) as { type: string; data: Record<string, any> };

    expect(request.headers["content-type"]).toBe("application/json");
    expect(request.headers["user-agent"]).toBe("Hookmail-Webhook/1");
    expect(payload.type).toBe("email.received");
    expect(payload.data).toMatchObject({
      id: request.headers["webhook-id"],
      emailCallbackId,
      address,
      tag: null,
      envelope: { from: "bob@example.org", to: [address] },
      from: { address: "bob@example.org", name: "Bob Sender" },
      subject: "Réunion ✓ — 会議",
    });
    expect(payload.data.text.trim()).toBe("Plain text body ✓");
    expect(payload.data.html).toContain('src="cid:logo@hookmail"');
    const attachments = payload.data.attachments as {
      filename: string;
      content: string;
      contentId: string | null;
      size: number;
    }[];
    const byName = (name: string) => attachments.find((attachment) => attachment.filename === name);
    expect(sha256(Buffer.from(byName("logo.png")?.content ?? "", "base64"))).toBe(sha256(image));
    expect(byName("logo.png")?.contentId).toBe("<logo@hookmail>");
    expect(sha256(Buffer.from(byName("report.pdf")?.content ?? "", "base64"))).toBe(sha256(pdf));
    expect(byName("report.pdf")?.size).toBe(pdf.length);
    expect(sha256(Buffer.from(byName("données.csv")?.content ?? "", "base64"))).toBe(sha256(csv));

    await pipeline.worker.whenIdle();
    const processing = await pipeline.database.prisma.emailProcessing.findUniqueOrThrow({ where: { id: payload.data.id } });
    expect(processing).toMatchObject({ status: "success", webhookResponseStatusCode: 200, attemptCount: 1 });
  });

  it("refuses an unknown recipient at RCPT and a message over MAX_MESSAGE_BYTES, recording nothing", async () => {
    const before = await pipeline.database.prisma.emailProcessing.count();
    const unknown = await transport()
      .sendMail({ envelope: { from: "bob@example.org", to: ["ghost@hookmail.test"] }, subject: "x", text: "x" })
      .catch((error: { responseCode?: number }) => error);
    expect(unknown).toMatchObject({ responseCode: 550 });
    const big = await transport()
      .sendMail({
        envelope: { from: "bob@example.org", to: [address] },
        subject: "big",
        text: "x".repeat(MAX_MESSAGE_BYTES + 1024),
      })
      .catch((error: { responseCode?: number }) => error);
    expect(big).toMatchObject({ responseCode: 552 });
    expect(await pipeline.database.prisma.emailProcessing.count()).toBe(before);
  });

  it("delivers a mail accepted earlier in a session that is then closed with 421 4.7.0 for probing unknown recipients", async () => {
    const limited = await startProductSmtpListener(pipeline.services, { maxUnknownRecipients: 2 });
    try {
      const before = pipeline.sink.requests.length;
      const client = await connectRawSmtpClient({ host: "127.0.0.1", port: limited.getPort() });
      expect(await client.readReply()).toMatch(/^220 /);
      await client.command("EHLO client.example");
      await client.command("MAIL FROM:<bob@example.org>");
      expect(await client.command(`RCPT TO:<${address}>`)).toMatch(/^250 /);
      expect(await client.command("DATA")).toMatch(/^354 /);
      expect(
        await client.command("Message-ID: <probe-1@example.org>\r\nSubject: before the probing\r\n\r\nbody\r\n.", 30_000),
      ).toMatch(/^250 /);
      await client.command("MAIL FROM:<bob@example.org>");
      for (const name of ["admin", "info"])
        expect(await client.command(`RCPT TO:<${name}@hookmail.test>`)).toMatch(/^550 5\.1\.1 /);
      expect(await client.command("RCPT TO:<sales@hookmail.test>")).toMatch(/^421 4\.7\.0 /);
      await client.closed;

      await pipeline.sink.waitForRequests(before + 1);
      const body = JSON.parse(pipeline.sink.requests[before]!.body.toString("utf8")) as { data: { id: string; subject: string } };
      expect(body.data.subject).toBe("before the probing");
      await pipeline.worker.whenIdle();
      const processing = await pipeline.database.prisma.emailProcessing.findUniqueOrThrow({ where: { id: body.data.id } });
      expect(processing).toMatchObject({ status: "success" });
    } finally {
      await limited.close();
    }
  });
});
