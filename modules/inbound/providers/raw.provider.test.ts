import fs, { readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { simpleParser } from "mailparser";
import { describe, expect, it } from "vitest";
import { createMessageSpool } from "../message-spool";
import {
  basicAuth,
  createCountingStream,
  expectAppError,
  INBOUND_SECRET,
  readFixture,
  testSettings,
} from "../test-support/inbound-test-helpers";
import { createProviderRoute, expectRefused } from "../test-support/provider-route-helpers";

const bearer = { authorization: `Bearer ${INBOUND_SECRET}`, "content-type": "message/rfc822" };
const raw = createProviderRoute("raw", bearer);

describe("POST /api/inbound/raw", () => {
  it("passes the relaying client of X-Envelope-Client-IP and X-Envelope-Helo on, for SPF", async () => {
    const { result, received } = raw.post(readFixture("message.eml"), {
      headers: { ...bearer, "x-envelope-client-ip": "2001:db8::25", "x-envelope-helo": "mx.sender.example" },
    });
    await result;
    expect(received[0]?.envelope.client).toEqual({ ip: "2001:db8::25", helo: "mx.sender.example" });
  });

  it.each([
    [{ "x-envelope-client-ip": "mx.sender.example" }],
    [{ "x-envelope-client-ip": "192.0.2.300" }],
    [{ "x-envelope-client-ip": "192.0.2.1", "x-envelope-helo": "bad host name!" }],
    [{ "x-envelope-client-ip": "192.0.2.1", "x-envelope-helo": "a".repeat(256) }],
  ])("refuses a client that is no address or a HELO that is no host name with 400: %o", async (client) => {
    await expectRefused(
      raw.post(readFixture("message.eml"), { headers: { ...bearer, ...client } }),
      "inbound.invalid_message",
      400,
    );
  });

  it("passes the body on byte for byte with the envelope of X-Envelope-From / X-Envelope-To", async () => {
    const message = readFixture("message.eml");
    const { result, received } = raw.post(message, {
      headers: {
        ...bearer,
        "x-envelope-from": "<bounce@sender.example>",
        "x-envelope-to": "alice@hookmail.test, <Dave+news@hookmail.test>",
      },
    });

    expect(await result).toEqual({ accepted: 2 });
    expect(received).toHaveLength(1);
    expect(received[0]?.raw.equals(message)).toBe(true);
    expect(received[0]?.envelope).toEqual({
      from: "bounce@sender.example",
      to: ["alice@hookmail.test", "Dave+news@hookmail.test"],
    });
    const parsed = await simpleParser(received[0]!.raw);
    expect(parsed.subject).toBe("Quarterly report");
    expect(parsed.attachments[0]?.filename).toBe("chart.png");
  });

  it("takes the envelope from From, To, Cc and Delivered-To when the X-Envelope headers are absent", async () => {
    const { result, received } = raw.post(readFixture("message.eml"));
    await result;
    expect(received[0]?.envelope).toEqual({
      from: "bob@sender.example",
      to: ["alice@hookmail.test", "carol@elsewhere.example", "dave+news@hookmail.test"],
    });
  });

  it("reads an empty or <> X-Envelope-From as the null sender of a bounce", async () => {
    for (const from of ["", "<>"]) {
      const { result, received } = raw.post(readFixture("message.eml"), { headers: { ...bearer, "x-envelope-from": from } });
      await result;
      expect(received[0]?.envelope.from).toBeNull();
    }
  });

  it("reads UTF-8 envelope addresses sent as header bytes", async () => {
    const address = "j\u00f6rg@hookmail.test";
    const { result, received } = raw.post(readFixture("message.eml"), {
      headers: { ...bearer, "x-envelope-to": Buffer.from(address, "utf8").toString("latin1") },
    });
    await result;
    expect(received[0]?.envelope.to).toEqual([address]);
  });

  it("answers 401 for a missing or wrong Bearer token, or Basic auth", async () => {
    for (const authorization of [undefined, `Bearer ${INBOUND_SECRET}-not`, basicAuth("x", INBOUND_SECRET)]) {
      const headers: Record<string, string> = authorization ? { authorization } : {};
      await expectRefused(raw.post(readFixture("message.eml"), { headers }), "inbound.unauthorized", 401);
    }
  });

  it("answers 503 while INBOUND_SECRET is unset, whatever the credentials", async () => {
    const { result } = raw.post(readFixture("message.eml"), {
      headers: { authorization: "Bearer " },
      settings: testSettings({ secret: undefined }),
    });
    await expectAppError(result, "inbound.not_configured", 503);
  });

  it("answers 400 for an empty body, a JSON body and a message without any recipient", async () => {
    const noRecipient = "From: bob@sender.example\r\nSubject: hi\r\n\r\nbody\r\n";
    for (const body of ["", '{"hello":"world"}', "just some text\r\n", noRecipient]) {
      await expectRefused(raw.post(body), "inbound.invalid_message", 400);
    }
  });

  it("accepts real mail whose header block has lines that are not fields (obsolete syntax, a broken fold, a stray word)", async () => {
    const corpus = path.resolve(import.meta.dirname, "../../../tests/fixtures/mail-corpus");
    for (const name of [
      "rfc2822/example13.eml",
      "error_emails/multiple_references_with_one_invalid.eml",
      "plain_emails/raw_email_incorrect_header.eml",
    ]) {
      const message = readFileSync(path.join(corpus, name));
      const { result, received } = raw.post(message, { headers: { ...bearer, "x-envelope-to": "alice@hookmail.test" } });
      expect(await result, name).toEqual({ accepted: 1 });
      expect(received[0]?.raw.equals(message), name).toBe(true);
    }
  });

  it("still refuses a body whose first line is not a header field", async () => {
    const body = "Dear Alice,\r\nFrom: bob@sender.example\r\nTo: alice@hookmail.test\r\n\r\nbody\r\n";
    await expectRefused(raw.post(body), "inbound.invalid_message", 400);
  });

  it("answers 413 over MAX_MESSAGE_BYTES, having read no more than the limit and a chunk", async () => {
    const maxMessageBytes = 100 * 1024;
    const { stream, counter } = createCountingStream(50 * 1024 * 1024, 8 * 1024);
    await expectRefused(raw.post(stream, { settings: testSettings({ maxMessageBytes }) }), "inbound.payload_too_large", 413);
    expect(counter.pulledBytes).toBeLessThan(maxMessageBytes + 5 * 8 * 1024);
  });

  it("does not read the body of a request with bad credentials", async () => {
    const { stream, counter } = createCountingStream(50 * 1024 * 1024);
    const { result } = raw.post(stream, { headers: { authorization: "Bearer wrong" } });
    await expectAppError(result, "inbound.unauthorized", 401);
    expect(counter.pulledBytes).toBeLessThanOrEqual(64 * 1024);
  });

  describe("a body over 1 MiB", () => {
    const roomy = testSettings({ maxMessageBytes: 5 * 1024 * 1024 });
    const spoolDir = () => path.join(fs.mkdtempSync(path.join(os.tmpdir(), "hookmail-raw-spool-")), "spool");
    const large = Buffer.concat([
      Buffer.from("From: Bob <bob@sender.example>\r\nTo: alice@hookmail.test\r\nSubject: large\r\n\r\n"),
      Buffer.from(`${"a line of a large message\r\n".repeat(60_000)}`),
    ]);

    it("is written to the spool as it arrives, handed on as that file with the envelope of its headers, and deleted once answered", async () => {
      const directory = spoolDir();
      const { result, received } = raw.post(large, { spool: createMessageSpool(directory), settings: roomy });
      expect(await result).toEqual({ accepted: 1 });
      expect(received[0]?.spoolPath).toBeDefined();
      expect(received[0]?.raw.equals(large)).toBe(true);
      expect(received[0]?.envelope).toEqual({ from: "bob@sender.example", to: ["alice@hookmail.test"] });
      expect(fs.readdirSync(directory)).toEqual([]);
    });

    it("leaves nothing in the spool when it is refused: no message headers (400), over MAX_MESSAGE_BYTES (413)", async () => {
      const directory = spoolDir();
      const spool = createMessageSpool(directory);
      const noHeaders = Buffer.alloc(2 * 1024 * 1024, 0x78);
      await expectRefused(raw.post(noHeaders, { spool, settings: roomy }), "inbound.invalid_message", 400);
      const small = testSettings({ maxMessageBytes: 1536 * 1024 });
      await expectRefused(raw.post(large, { spool, settings: small }), "inbound.payload_too_large", 413);
      expect(fs.readdirSync(directory)).toEqual([]);
    });

    it("is kept in memory where the spool makes no file", async () => {
      const unavailable = { open: async () => null, sweep: async () => 0 };
      const { result, received } = raw.post(large, { spool: unavailable, settings: roomy });
      expect(await result).toEqual({ accepted: 1 });
      expect(received[0]?.spoolPath).toBeUndefined();
      expect(received[0]?.raw.equals(large)).toBe(true);
    });
  });
});
