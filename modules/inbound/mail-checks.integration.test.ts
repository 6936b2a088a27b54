// The checks on each mail, end to end over real sockets: a sender's MTA (nodemailer, greeting as
// its own host) → the SMTP listener → the parsing thread, which checks SPF, DKIM, DMARC and ARC
// against a DNS server on loopback → the per-address rules → the webhook sink; and the content
// links of a large mail, served by their route (docs/webhooks.md: Authentication, Content by link).
import { createHash, randomBytes } from "node:crypto";
import { createTransport } from "nodemailer";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as content from "@/app/api/content/[processingId]/[...part]/route";
import { PROCESSING_ERROR, PROCESSING_STATUS } from "@/modules/processings/processings.constants";
import { startDnsServer, type TestDnsServer } from "@/tests/support/dns-server";
import { type MailPipeline, startMailPipeline } from "@/tests/support/mail-pipeline";
import { GTUBE, startTestRspamd, type TestRspamd } from "@/tests/support/rspamd";
import { seedEmailCallback, seedUser } from "@/tests/support/seed";
import { addDkimSignatures, createSenderDomain } from "@/tests/support/sender-domain";

// The test's SMTP client connects from 127.0.0.1: the honest domain's SPF lists it, the forger's does not.
const honest = createSenderDomain({ domain: "honest.example", allowedIp: "127.0.0.1" });
const forged = createSenderDomain({ domain: "forged.example", allowedIp: "192.0.2.99" });
// A sender that authenticates its own domain (SPF lists 127.0.0.1, DKIM signs) and claims forged.example's.
const attacker = createSenderDomain({ domain: "attacker.example", allowedIp: "127.0.0.1", dmarc: "v=DMARC1; p=none" });
// A domain that signs and passes SPF but publishes no DMARC record.
const unpublished = createSenderDomain({ domain: "unpublished.example", allowedIp: "127.0.0.1", dmarc: null });
// A sender whose own domain's DMARC record never answers.
const silent = createSenderDomain({ domain: "silent.example", allowedIp: "127.0.0.1" });
// Domains whose DNS never answers: each key lookup waits out the resolver's timeout.
const hanging = Array.from({ length: 6 }, (_, index) => createSenderDomain({ domain: `hang${index + 1}.example` }));

let dns: TestDnsServer;
let rspamd: TestRspamd;
let pipeline: MailPipeline;

beforeAll(async () => {
  dns = await startDnsServer({
    ...honest.records,
    ...forged.records,
    ...attacker.records,
    ...unpublished.records,
    ...silent.records,
  });
  dns.silence("_dmarc.silent.example");
  for (const { domain, selector } of hanging) dns.silence(`${selector}._domainkey.${domain}`);
  rspamd = await startTestRspamd({ dnsServer: dns.address });
  pipeline = await startMailPipeline({
    name: "mail-checks",
    environment: {
      AUTH_SECRET: "mail-checks-test-secret-mail-checks-test",
      BASE_URL: "http://hookmail.test:3000",
      DNS_SERVERS: dns.address,
      RSPAMD_URL: rspamd.url,
      // The checks the mail pipeline's tests leave off are what this file tests.
      MAIL_AUTH_CHECKS: "true",
    },
  });
  const { database, sink } = pipeline;
  const { id: userId } = await seedUser(database);
  for (const [username, settings] of [
    ["open", {}],
    ["strict", { authenticationPolicy: "dmarc" }],
    ["large", { attachmentDelivery: "url" }],
    ["guarded", { spamThreshold: 10 }],
  ] as const) {
    await seedEmailCallback(database, { userId, username, webhookUrl: sink.url(`/${username}`), ...settings });
  }
}, 90_000);

afterAll(async () => {
  await pipeline?.close();
  await rspamd?.stop();
  await dns?.close();
});

/** Sends the message as the domain's own MTA would: MAIL FROM at the domain, EHLO its mail host. */
async function sendFrom(domain: string, raw: Buffer, to: string[]) {
  const transport = createTransport({
    host: "127.0.0.1",
    port: pipeline.listener.getPort(),
    secure: false,
    ignoreTLS: true,
    name: `mx.${domain}`,
  });
  const info = await transport.sendMail({ envelope: { from: `bob@${domain}`, to }, raw });
  expect(info.response).toMatch(/^250 /);
}

const payloadTo = (username: string) => {
  const request = pipeline.sink.requests.find((candidate) => candidate.path === `/${username}`);
  return request ? (JSON.parse(request.body.toString("utf8")) as { data: Record<string, any> }) : undefined;
};

const processingOf = (username: string) =>
  pipeline.database.prisma.emailProcessing.findFirstOrThrow({
    where: { emailCallback: { username } },
    orderBy: { createdAt: "desc" },
  });

const sha256 = (bytes: Buffer) => createHash("sha256").update(bytes).digest("hex");

const REPLY = {
  from: "Bob <bob@honest.example>",
  to: "open@hookmail.test",
  subject: "Re: the meeting",
  text: "Thursday works for me.\n\nOn Mon, 23 Nov 2026 at 10:00, Alice <alice@hookmail.test> wrote:\n> Can we meet this week?\n> Alice\n",
  inReplyTo: "<meeting-1@hookmail.test>",
  references: ["<meeting-1@hookmail.test>"],
};

describe("a mail from a domain with SPF, DKIM and DMARC", () => {
  it("arrives with every verdict pass and its reply text stripped", async () => {
    pipeline.sink.reset();
    const raw = await honest.build(REPLY);
    await sendFrom("honest.example", raw, ["open@hookmail.test"]);
    await pipeline.sink.waitForRequests(1);
    const { data } = payloadTo("open")!;
    expect(data.authentication).toEqual({
      spf: { result: "pass", domain: "honest.example" },
      dkim: [{ result: "pass", domain: "honest.example", selector: "s1", aligned: true }],
      dmarc: { result: "pass", policy: "reject", domain: "honest.example", reason: null },
      arc: { result: "none" },
    });
    expect(data.reply).toEqual({ text: "Thursday works for me." });
    expect(data.threadId).toBe("meeting-1@hookmail.test");
    expect(data.flags).toEqual({ isAutoReply: false, isBounce: false, isMailingList: false });
    expect(data.raw).toMatchObject({ size: raw.length, sha256: sha256(raw) });
  });
});

describe("a mail whose DKIM signature no longer verifies and whose SPF does not align", () => {
  it("is recorded authentication-failed and not delivered where the address requires DMARC, and delivered with its fail verdicts elsewhere", async () => {
    pipeline.sink.reset();
    const signed = (await forged.build({ ...REPLY, from: "Bob <bob@forged.example>", to: "open@hookmail.test" })).toString();
    const tampered = Buffer.from(signed.replace("Thursday works for me.", "Send the invoice to my new account."));
    await sendFrom("forged.example", tampered, ["open@hookmail.test", "strict@hookmail.test"]);
    await pipeline.sink.waitForRequests(1);
    await pipeline.worker.whenIdle();

    const { data } = payloadTo("open")!;
    expect(data.authentication.dkim).toEqual([{ result: "fail", domain: "forged.example", selector: "s1", aligned: true }]);
    expect(data.authentication.spf).toEqual({ result: "fail", domain: "forged.example" });
    expect(data.authentication.dmarc).toEqual({ result: "fail", policy: "reject", domain: "forged.example", reason: null });
    expect(payloadTo("strict")).toBeUndefined();
    expect(pipeline.sink.requests).toHaveLength(1);
    expect(await processingOf("strict")).toMatchObject({
      status: PROCESSING_STATUS.NOT_PROCESSED,
      error: PROCESSING_ERROR.AUTHENTICATION_FAILED,
    });
    expect((await processingOf("open")).status).toBe(PROCESSING_STATUS.SUCCESS);
  });
});

/** Sends the mail to an open address and to one that requires DMARC, and waits until both are recorded. */
async function sendToOpenAndStrict(envelopeDomain: string, raw: Buffer) {
  pipeline.sink.reset();
  await sendFrom(envelopeDomain, raw, ["open@hookmail.test", "strict@hookmail.test"]);
  await pipeline.sink.waitForRequests(1);
  await pipeline.worker.whenIdle();
}

async function expectRefusedByStrict(dmarc: Record<string, unknown>) {
  expect(payloadTo("open")!.data.authentication.dmarc).toEqual(dmarc);
  expect(payloadTo("strict")).toBeUndefined();
  expect(pipeline.sink.requests).toHaveLength(1);
  expect(await processingOf("strict")).toMatchObject({
    status: PROCESSING_STATUS.NOT_PROCESSED,
    error: PROCESSING_ERROR.AUTHENTICATION_FAILED,
  });
}

const FORGED_CEO = { ...REPLY, from: "CEO <ceo@forged.example>", subject: "Urgent wire transfer" };

describe("an address that requires DMARC delivers only a DMARC pass of the one From domain", () => {
  it("refuses a From with two mailboxes (forged p=reject domain first, the sender's own domain second): fail / multiple-from", async () => {
    const raw = await attacker.build({ ...FORGED_CEO, from: "CEO <ceo@forged.example>, x@attacker.example" });
    await sendToOpenAndStrict("attacker.example", raw);
    await expectRefusedByStrict({ result: "fail", policy: null, domain: null, reason: "multiple-from" });
  });

  it("refuses a mail with two From fields: fail / multiple-from", async () => {
    const raw = await attacker.build({ ...FORGED_CEO, from: "x@attacker.example" });
    await sendToOpenAndStrict("attacker.example", Buffer.concat([Buffer.from("From: CEO <ceo@forged.example>\r\n"), raw]));
    await expectRefusedByStrict({ result: "fail", policy: null, domain: null, reason: "multiple-from" });
  });

  it("refuses a mail without a From field sent from the forged domain's envelope: fail / no-from", async () => {
    const signed = (await attacker.build({ ...FORGED_CEO, from: "x@attacker.example" })).toString("utf8");
    await sendToOpenAndStrict("forged.example", Buffer.from(signed.replace(/^From: .*\r\n/m, "")));
    await expectRefusedByStrict({ result: "fail", policy: null, domain: null, reason: "no-from" });
  });

  it("refuses a forged From signed by six domains whose DNS never answers, without looking their keys up: fail, not temperror", async () => {
    const unsigned = await attacker.build(FORGED_CEO, { sign: false });
    await sendToOpenAndStrict("attacker.example", await addDkimSignatures(unsigned, hanging));
    await expectRefusedByStrict({ result: "fail", policy: "reject", domain: "forged.example", reason: null });
    expect(dns.queries.filter((query) => /\.hang\d\.example$/.test(query))).toEqual([]);
  }, 30_000);

  it("refuses a From domain that publishes no DMARC record: none is no pass", async () => {
    const raw = await unpublished.build({ ...REPLY, from: "Bob <bob@unpublished.example>" });
    await sendToOpenAndStrict("unpublished.example", raw);
    await expectRefusedByStrict({ result: "none", policy: null, domain: "unpublished.example", reason: null });
  });

  it("refuses a From domain whose DMARC record lookup never answers: temperror is no pass", async () => {
    const raw = await silent.build({ ...REPLY, from: "Bob <bob@silent.example>" });
    await sendToOpenAndStrict("silent.example", raw);
    await expectRefusedByStrict({ result: "temperror", policy: null, domain: "silent.example", reason: null });
  }, 30_000);

  it("delivers a mail whose aligned DKIM signature and SPF pass, with DMARC pass", async () => {
    pipeline.sink.reset();
    await sendFrom("honest.example", await honest.build({ ...REPLY, to: "strict@hookmail.test" }), ["strict@hookmail.test"]);
    await pipeline.sink.waitForRequests(1);
    expect(payloadTo("strict")!.data.authentication.dmarc).toEqual({
      result: "pass",
      policy: "reject",
      domain: "honest.example",
      reason: null,
    });
    await pipeline.worker.whenIdle();
    expect((await processingOf("strict")).status).toBe(PROCESSING_STATUS.SUCCESS);
  });
});

describe("a 25 MiB mail to an address that takes attachments by link", () => {
  it("arrives as a body under 64 KiB whose links serve the exact bytes, and a changed link answers 404", async () => {
    pipeline.sink.reset();
    const attachment = randomBytes(18 * 1024 * 1024);
    const raw = await honest.build({
      ...REPLY,
      to: "large@hookmail.test",
      attachments: [{ filename: "scan.bin", content: attachment, contentType: "application/octet-stream" }],
    });
    expect(raw.length).toBeGreaterThan(24 * 1024 * 1024);
    await sendFrom("honest.example", raw, ["large@hookmail.test"]);
    await pipeline.sink.waitForRequests(1);

    const body = pipeline.sink.requests[0]!.body;
    expect(body.length).toBeLessThan(64 * 1024);
    const { data } = JSON.parse(body.toString("utf8"));
    expect(data.attachments).toEqual([
      expect.objectContaining({ filename: "scan.bin", size: attachment.length, content: null, sha256: sha256(attachment) }),
    ]);

    const fetchLink = async (url: string) => {
      const { pathname } = new URL(url);
      const [, , , processingId, ...part] = pathname.split("/");
      return content.GET(new Request(url), { params: Promise.resolve({ processingId: processingId!, part }) });
    };
    const served = await fetchLink(data.attachments[0].url);
    expect(served.status).toBe(200);
    expect(served.headers.get("content-type")).toBe("application/octet-stream");
    expect(Buffer.from(await served.arrayBuffer()).equals(attachment)).toBe(true);

    const rawServed = await fetchLink(data.raw.url);
    expect(rawServed.headers.get("content-type")).toBe("message/rfc822");
    expect(sha256(Buffer.from(await rawServed.arrayBuffer()))).toBe(sha256(raw));

    const tampered = data.attachments[0].url.replace(/signature=(.)/, (_: string, first: string) =>
      first === "A" ? "signature=B" : "signature=A",
    );
    expect((await fetchLink(tampered)).status).toBe(404);
    const expired = data.raw.url.replace(/expires=\d+/, "expires=1000000000");
    expect((await fetchLink(expired)).status).toBe(404);
  }, 120_000);
});

describe("a mail the spam engine scores", () => {
  it("is recorded spam and not delivered where it reaches the address's threshold, and delivered with its score elsewhere", async () => {
    pipeline.sink.reset();
    const raw = await honest.build({ ...REPLY, to: "open@hookmail.test", text: `Win now! ${GTUBE}` });
    await sendFrom("honest.example", raw, ["open@hookmail.test", "guarded@hookmail.test"]);
    await pipeline.sink.waitForRequests(1);
    await pipeline.worker.whenIdle();
    expect(payloadTo("open")!.data.spam).toMatchObject({ action: "reject", isSpam: true, score: expect.any(Number) });
    expect(payloadTo("guarded")).toBeUndefined();
    expect(await processingOf("guarded")).toMatchObject({
      status: PROCESSING_STATUS.NOT_PROCESSED,
      error: PROCESSING_ERROR.SPAM,
    });
  });

  it("scores an ordinary mail below the threshold, which is then delivered", async () => {
    pipeline.sink.reset();
    await sendFrom("honest.example", await honest.build({ ...REPLY, to: "guarded@hookmail.test" }), ["guarded@hookmail.test"]);
    await pipeline.sink.waitForRequests(1);
    expect(payloadTo("guarded")!.data.spam).toMatchObject({ isSpam: expect.any(Boolean), score: expect.any(Number) });
    expect(payloadTo("guarded")!.data.spam.score).toBeLessThan(10);
  });
});
