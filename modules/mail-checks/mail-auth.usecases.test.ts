import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { sealMessage } from "mailauth";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startDnsServer, type TestDnsServer } from "@/tests/support/dns-server";
import { createSenderDomain } from "@/tests/support/sender-domain";
import { createMailAuthResolver } from "./dns-resolver";
import { authenticateMessage } from "./mail-auth.usecases";

const sender = createSenderDomain({ domain: "sender.example", allowedIp: "192.0.2.10" });
const lenient = createSenderDomain({ domain: "lenient.example", allowedIp: "192.0.2.20", spf: "v=spf1 ip4:192.0.2.20 ~all" });
const forwarder = createSenderDomain({ domain: "forwarder.example", selector: "arc", allowedIp: "192.0.2.30" });
const OTHER_IP = "198.51.100.7";
const CORPUS_DIR = fileURLToPath(new URL("../../tests/fixtures/mail-corpus", import.meta.url));

let dns: TestDnsServer;
let resolver: ReturnType<typeof createMailAuthResolver>;

beforeAll(async () => {
  dns = await startDnsServer({ ...sender.records, ...lenient.records, ...forwarder.records });
  // The product's own query timeout: a busy machine can take longer than a few hundred
  // milliseconds to answer a loopback query, and a timed-out key lookup reads as a failed check.
  resolver = createMailAuthResolver({ servers: [dns.address] });
});
afterAll(() => dns.close());

const mailFrom = (domain: string) => ({
  from: `Bob <bob@${domain}>`,
  to: "inbox@hookmail.test",
  subject: "Authenticated",
  text: "Hello from a domain with SPF, DKIM and DMARC.",
  messageId: `<m-${Date.now()}@${domain}>`,
});

const check = (raw: Buffer, ip: string | null, from = "bob@sender.example") =>
  authenticateMessage({
    raw,
    client: ip ? { ip, helo: "mx.sender.example" } : null,
    sender: from,
    resolver,
    mta: "mx.hookmail.test",
  });

describe("authenticateMessage (docs/webhooks.md: Authentication)", () => {
  it("passes SPF, DKIM (aligned) and DMARC with the domain's policy for a signed mail from an allowed address", async () => {
    const verdicts = await check(await sender.build(mailFrom("sender.example")), sender.allowedIp);
    expect(verdicts).toEqual({
      spf: { result: "pass", domain: "sender.example" },
      dkim: [{ result: "pass", domain: "sender.example", selector: "s1", aligned: true }],
      dmarc: { result: "pass", policy: "reject", domain: "sender.example" },
      arc: { result: "none" },
    });
  });

  it("fails DKIM when the body was changed after signing, and DMARC when SPF does not align either", async () => {
    const signed = (await sender.build(mailFrom("sender.example"))).toString("utf8");
    const tampered = Buffer.from(signed.replace("Hello from a domain", "Hello from a forger"));
    const verdicts = await check(tampered, OTHER_IP);
    expect(verdicts.dkim).toEqual([{ result: "fail", domain: "sender.example", selector: "s1", aligned: true }]);
    expect(verdicts.spf).toEqual({ result: "fail", domain: "sender.example" });
    expect(verdicts.dmarc).toEqual({ result: "fail", policy: "reject", domain: "sender.example" });
  });

  it("gives softfail for a client the domain's ~all does not list", async () => {
    const verdicts = await check(await lenient.build(mailFrom("lenient.example")), OTHER_IP, "bob@lenient.example");
    expect(verdicts.spf).toEqual({ result: "softfail", domain: "lenient.example" });
    expect(verdicts.dmarc.result).toBe("pass");
  });

  it("lists no DKIM signature for an unsigned mail, and no SPF verdict when the client is unknown", async () => {
    const verdicts = await check(await sender.build(mailFrom("sender.example"), { sign: false }), null);
    expect(verdicts.dkim).toEqual([]);
    expect(verdicts.spf).toBeNull();
    expect(verdicts.dmarc).toEqual({ result: "fail", policy: "reject", domain: "sender.example" });
  });

  it("passes ARC for a mail sealed by a forwarder whose key DNS publishes", async () => {
    const original = await sender.build(mailFrom("sender.example"));
    const seal = await sealMessage(original, {
      // mailauth's types leave out the fields of the seal beyond the key; it reads them all.
      signingDomain: forwarder.domain,
      selector: forwarder.selector,
      privateKey: forwarder.privateKey,
      authResults: "mx.forwarder.example; spf=pass smtp.mailfrom=bob@sender.example; dkim=pass header.d=sender.example",
      cv: "none",
    } as Parameters<typeof sealMessage>[1]);
    const verdicts = await check(Buffer.concat([seal, original]), forwarder.allowedIp);
    expect(verdicts.arc).toEqual({ result: "pass" });
  });

  it("answers temperror within its deadline when DNS does not answer", async () => {
    const silent = createSenderDomain({ domain: "silent.example" });
    dns.silence("silent.example");
    dns.silence("s1._domainkey.silent.example");
    dns.silence("_dmarc.silent.example");
    const started = performance.now();
    const verdicts = await authenticateMessage({
      raw: await silent.build(mailFrom("silent.example")),
      client: { ip: OTHER_IP, helo: null },
      sender: "bob@silent.example",
      resolver,
      mta: "mx.hookmail.test",
      deadlineMs: 1_500,
    });
    expect(performance.now() - started).toBeLessThan(2_500);
    expect(verdicts.spf?.result).toBe("temperror");
    expect(verdicts.dmarc.result).toBe("temperror");
  });
});

describe("authenticateMessage over the mail corpus (tests/fixtures/mail-corpus)", () => {
  it("gives every real-world and malformed message verdicts in RFC 8601 words, never an error", async () => {
    const corpus = (fs.readdirSync(CORPUS_DIR, { recursive: true }) as string[]).filter((file) => file.endsWith(".eml")).sort();
    expect(corpus.length).toBeGreaterThanOrEqual(100);
    const words = ["pass", "fail", "softfail", "neutral", "none", "temperror", "permerror"];
    for (const file of corpus) {
      const verdicts = await check(fs.readFileSync(path.join(CORPUS_DIR, file)), OTHER_IP, "sender@example.org");
      for (const result of [
        verdicts.spf?.result,
        verdicts.dmarc.result,
        verdicts.arc.result,
        ...verdicts.dkim.map((d) => d.result),
      ]) {
        expect(words, `${file}: ${result}`).toContain(result);
      }
    }
  }, 120_000);
});
