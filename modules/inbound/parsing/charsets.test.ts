import iconv from "iconv-lite";
import { describe, expect, it } from "vitest";
import { CHARSET_SAMPLES } from "../test-support/charset-samples";
import { decodeCharset } from "./charsets";
import { buildWebhookPayload, describeRawMessage, parseMail } from "./webhook-payload";

describe("decodeCharset (iconv-lite)", () => {
  it.each(CHARSET_SAMPLES)("decodes %s", (charset, text) => {
    expect(decodeCharset(iconv.encode(text, charset), charset)).toBe(text);
  });

  it("decodes windows-1252's bytes 0x80–0x9F as € ‘ ’ “ ” – —, not as control characters", () => {
    expect(decodeCharset(Buffer.from([0x80, 0x91, 0x92, 0x93, 0x94, 0x96, 0x97]), "Windows-1252")).toBe("€‘’“”–—");
  });

  it("decodes ISO-2022-JP, which iconv-lite lacks, with the platform's WHATWG decoder", () => {
    expect(decodeCharset(Buffer.from("GyRCJF4kXyRgJGEkYhsoQg==", "base64"), "ISO-2022-JP")).toBe("まみむめも");
  });

  it("decodes an unknown or absent label as UTF-8 when the bytes are valid UTF-8, else as latin1", () => {
    expect(decodeCharset(Buffer.from("naïve €"), "x-no-such-charset")).toBe("naïve €");
    expect(decodeCharset(Buffer.from([0x6e, 0x61, 0xef, 0x76, 0x65]), "x-no-such-charset")).toBe("naïve");
    expect(decodeCharset(Buffer.from([0x6e, 0x61, 0xef, 0x76, 0x65]), undefined)).toBe("naïve");
  });
});

describe("encoded-word subjects in the webhook payload", () => {
  it.each(CHARSET_SAMPLES)("a %s subject comes out the same in data.subject and in data.headers", async (charset, text) => {
    const word = `=?${charset}?B?${iconv.encode(text, charset).toString("base64")}?=`;
    const raw = Buffer.from(
      `From: bob@example.org\r\nTo: alice@example.com\r\nSubject: ${word}\r\nMessage-ID: <a@example.org>\r\n\r\nHello\r\n`,
    );
    const { data } = buildWebhookPayload({
      processingId: "p1",
      emailCallbackId: "c1",
      address: "alice@example.com",
      tag: null,
      envelope: { from: "bob@example.org", to: ["alice@example.com"] },
      parsed: await parseMail(raw),
      receivedAt: new Date("2026-11-21T10:00:00Z"),
      rawFacts: describeRawMessage(raw),
    });
    expect(data.subject).toBe(text);
    expect(data.headers.find(({ name }) => name === "Subject")?.value).toBe(text);
  });
});
