import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { sealMessage } from "mailauth";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startDnsServer, type TestDnsServer } from "@/tests/support/dns-server";
import { addDkimSignatures, createSenderDomain } from "@/tests/support/sender-domain";
import { createMailAuthResolver, MAX_DKIM_KEY_LOOKUPS } from "./dns-resolver";
import { authenticateMessage } from "./mail-auth.usecases";

const sender = createSenderDomain({ domain: "sender.example", allowedIp: "192.0.2.10" });
const lenient = createSenderDomain({ domain: "lenient.example", allowedIp: "192.0.2.20", spf: "v=spf1 ip4:192.0.2.20 ~all" });
const forwarder = createSenderDomain({ domain: "forwarder.example", selector: "arc", allowedIp: "192.0.2.30" });
// A sender who authenticates its own domain and forges a From at sender.example, whose DMARC says p=reject.
const attacker = createSenderDomain({ domain: "attacker.example", allowedIp: "192.0.2.40", dmarc: "v=DMARC1; p=none" });
// Domains whose DNS never answers: their keys' lookups time out.
const hanging = Array.from({ length: 6 }, (_, index) => createSenderDomain({ domain: `hang${index + 1}.example` }));
const OTHER_IP = "198.51.100.7";
const CORPUS_DIR = fileURLToPath(new URL("../../tests/fixtures/mail-corpus", import.meta.url));

let dns: TestDnsServer;
let resolver: ReturnType<typeof createMailAuthResolver>;

beforeAll(async () => {
  dns = await startDnsServer({ ...sender.records, ...lenient.records, ...forwarder.records, ...attacker.records });
  for (const { domain, selector } of hanging) dns.silence(`${selector}._domainkey.${domain}`);
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

/** The message as a parsing thread reads a spooled one: a Blob of its file. */
async function asFile(raw: Buffer): Promise<Blob> {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "hookmail-auth-")), "message.eml");
  fs.writeFileSync(file, raw);
  return fs.openAsBlob(file);
}

describe("authenticateMessage (docs/webhooks.md: Authentication)", () => {
  it("gives a large message read from its file the verdicts of the same bytes in memory, a header block past the first read included", async () => {
    const mail = {
      ...mailFrom("sender.example"),
      // A header block of about 200 KiB: read from the file in larger prefixes until its end.
      headers: { "X-Padding": Array.from({ length: 2_500 }, (_, index) => `padding-${index}-${"p".repeat(60)}`).join("\r\n ") },
      text: `${"A long body read a chunk at a time.\r\n".repeat(60_000)}`,
    };
    const signed = await sender.build(mail);
    const tampered = Buffer.from(signed.toString("utf8").replace(/chunk at a time\.\r\n$/, "chunk at a time!\r\n"));
    expect(signed.length).toBeGreaterThan(2 * 1024 * 1024);
    for (const raw of [signed, tampered]) {
      const inMemory = await check(raw, sender.allowedIp);
      const fromFile = await authenticateMessage({
        raw: await asFile(raw),
        client: { ip: sender.allowedIp, helo: "mx.sender.example" },
        sender: "bob@sender.example",
        resolver,
        mta: "mx.hookmail.test",
      });
      expect(fromFile).toEqual(inMemory);
    }
    expect((await check(signed, sender.allowedIp)).dkim[0]?.result).toBe("pass");
    expect((await check(tampered, sender.allowedIp)).dkim[0]?.result).toBe("fail");
  });

  it("passes SPF, DKIM (aligned) and DMARC with the domain's policy for a signed mail from an allowed address", async () => {
    const verdicts = await check(await sender.build(mailFrom("sender.example")), sender.allowedIp);
    expect(verdicts).toEqual({
      spf: { result: "pass", domain: "sender.example" },
      dkim: [{ result: "pass", domain: "sender.example", selector: "s1", aligned: true }],
      dmarc: { result: "pass", policy: "reject", domain: "sender.example", reason: null },
      arc: { result: "none" },
    });
  });

  it("fails DKIM when the body was changed after signing, and DMARC when SPF does not align either", async () => {
    const signed = (await sender.build(mailFrom("sender.example"))).toString("utf8");
    const tampered = Buffer.from(signed.replace("Hello from a domain", "Hello from a forger"));
    const verdicts = await check(tampered, OTHER_IP);
    expect(verdicts.dkim).toEqual([{ result: "fail", domain: "sender.example", selector: "s1", aligned: true }]);
    expect(verdicts.spf).toEqual({ result: "fail", domain: "sender.example" });
    expect(verdicts.dmarc).toEqual({ result: "fail", policy: "reject", domain: "sender.example", reason: null });
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
    expect(verdicts.dmarc).toEqual({ result: "fail", policy: "reject", domain: "sender.example", reason: null });
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

const attack = (raw: Buffer) => check(raw, attacker.allowedIp, "bob@attacker.example");
const keyLookups = (domain: string) => dns.queries.filter((query) => query.endsWith(`._domainkey.${domain}`));

describe("DMARC judges the one From mailbox (docs/webhooks.md: Authentication)", () => {
  it("fails DMARC with reason multiple-from for a From with two mailboxes, even when the second one's domain passes", async () => {
    const raw = await attacker.build({ ...mailFrom("attacker.example"), from: "CEO <ceo@sender.example>, x@attacker.example" });
    const verdicts = await attack(raw);
    expect(verdicts.dmarc).toEqual({ result: "fail", policy: null, domain: null, reason: "multiple-from" });
  });

  it("fails DMARC with reason multiple-from for a mail with two From fields", async () => {
    const signed = await attacker.build(mailFrom("attacker.example"));
    const verdicts = await attack(Buffer.concat([Buffer.from("From: CEO <ceo@sender.example>\r\n"), signed]));
    expect(verdicts.dmarc).toEqual({ result: "fail", policy: null, domain: null, reason: "multiple-from" });
  });

  it("fails DMARC with reason no-from for a mail without a From field, whatever its envelope sender", async () => {
    const signed = (await attacker.build(mailFrom("attacker.example"))).toString("utf8");
    const verdicts = await check(Buffer.from(signed.replace(/^From: .*\r\n/m, "")), sender.allowedIp, "ceo@sender.example");
    expect(verdicts.dmarc).toEqual({ result: "fail", policy: null, domain: null, reason: "no-from" });
  });

  it("fails DMARC with reason no-from for a From whose only mailbox has no address (an encoded word a parser could read as one)", async () => {
    const signed = await attacker.build(mailFrom("attacker.example"));
    const encoded = Buffer.from("CEO <ceo@sender.example>").toString("base64");
    const raw = Buffer.from(signed.toString("utf8").replace(/^From: .*$/m, `From: =?utf-8?B?${encoded}?=`));
    expect((await attack(raw)).dmarc).toEqual({ result: "fail", policy: null, domain: null, reason: "no-from" });
  });

  it("fails DMARC with reason no-from for a From address holding an encoded word (forbidden there; the message parser decodes it)", async () => {
    const signed = await attacker.build(mailFrom("attacker.example"));
    const raw = Buffer.from(
      signed.toString("utf8").replace(/^From: .*$/m, "From: =?utf-8?q?ceo=40sender.example?=@attacker.example"),
    );
    expect((await attack(raw)).dmarc).toEqual({ result: "fail", policy: null, domain: null, reason: "no-from" });
  });

  it("counts the members of a group in From as its mailboxes", async () => {
    const signed = await attacker.build(mailFrom("attacker.example"));
    const raw = Buffer.from(
      signed.toString("utf8").replace(/^From: .*$/m, "From: staff: ceo@sender.example;, x@attacker.example"),
    );
    expect((await attack(raw)).dmarc.reason).toBe("multiple-from");
  });
});

describe("DKIM keys are looked up only for signatures that could align with the From domain", () => {
  it("fails DMARC at once for a forged From signed by six domains whose DNS never answers, looking none of their keys up", async () => {
    const forged = await attacker.build({ ...mailFrom("sender.example"), from: "CEO <ceo@sender.example>" }, { sign: false });
    const started = performance.now();
    const verdicts = await attack(await addDkimSignatures(forged, hanging));
    expect(performance.now() - started).toBeLessThan(1_500);
    expect(verdicts.dmarc).toEqual({ result: "fail", policy: "reject", domain: "sender.example", reason: null });
    expect(verdicts.dkim.map(({ result, aligned }) => ({ result, aligned }))).toEqual(
      hanging.map(() => ({ result: "neutral", aligned: false })),
    );
    for (const { domain } of hanging) expect(keyLookups(domain)).toEqual([]);
  });

  it("still passes an aligned signed mail that also carries six signatures whose keys never answer", async () => {
    const signed = await sender.build(mailFrom("sender.example"));
    const verdicts = await check(await addDkimSignatures(signed, hanging), sender.allowedIp);
    expect(verdicts.dmarc).toEqual({ result: "pass", policy: "reject", domain: "sender.example", reason: null });
    expect(verdicts.dkim.filter((signature) => signature.aligned)).toEqual([
      { result: "pass", domain: "sender.example", selector: "s1", aligned: true },
    ]);
  });

  it(`looks up at most ${MAX_DKIM_KEY_LOOKUPS} keys of ARC signers, however many ARC sets name domains that also sign`, async () => {
    const signers = Array.from({ length: MAX_DKIM_KEY_LOOKUPS + 4 }, (_, index) => ({
      ...attacker,
      domain: `arc${index}.example`,
    }));
    const seals = signers.map(
      ({ domain }, index) => `ARC-Seal: i=${index + 1}; a=rsa-sha256; d=${domain}; s=s1; cv=none; b=AAAA\r\n`,
    );
    const signed = await addDkimSignatures(await attacker.build(mailFrom("attacker.example"), { sign: false }), signers);
    await attack(Buffer.concat([Buffer.from(seals.join("")), signed]));
    expect(dns.queries.filter((query) => /\._domainkey\.arc\d+\.example$/.test(query))).toHaveLength(MAX_DKIM_KEY_LOOKUPS);
  });

  it(`looks up at most ${MAX_DKIM_KEY_LOOKUPS} keys of the From domain, however many signatures name it`, async () => {
    const many = createSenderDomain({ domain: "many.example" });
    const signers = Array.from({ length: MAX_DKIM_KEY_LOOKUPS + 4 }, (_, index) => ({ ...many, selector: `k${index}` }));
    await check(
      await addDkimSignatures(await many.build(mailFrom("many.example"), { sign: false }), signers),
      OTHER_IP,
      "bob@many.example",
    );
    expect(keyLookups("many.example")).toHaveLength(MAX_DKIM_KEY_LOOKUPS);
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
