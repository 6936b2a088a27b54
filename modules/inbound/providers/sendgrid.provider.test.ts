import iconv from "iconv-lite";
import { simpleParser } from "mailparser";
import { describe, expect, it } from "vitest";
import { CHARSET_SAMPLES } from "../test-support/charset-samples";
import {
  basicAuth,
  createCountingStream,
  expectAppError,
  INBOUND_SECRET,
  readFixture,
  type TestBody,
  testSettings,
} from "../test-support/inbound-test-helpers";
import { createProviderRoute, expectRebuiltMessage, expectRefused } from "../test-support/provider-route-helpers";

const MULTIPART = "multipart/form-data; boundary=xYzZY";
const sendgridHeaders = { authorization: basicAuth("sendgrid", INBOUND_SECRET), "content-type": MULTIPART };
const sendgrid = createProviderRoute("sendgrid", sendgridHeaders);

/** The bytes of one field of a fixture, cut out by hand: what the receiver must get exactly. */
function cutField(body: Buffer, name: string): Buffer {
  const start = body.indexOf("\r\n\r\n", body.indexOf(`name="${name}"`)) + 4;
  return body.subarray(start, body.indexOf("\r\n--xYzZY", start));
}

/** A parsed SendGrid post whose subject and text fields are in `charset`, as `charsets` says. */
function buildCharsetPost(charset: string, text: string): Buffer {
  const field = (name: string, value: Buffer | string) =>
    Buffer.concat([
      Buffer.from(`--xYzZY\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n`),
      Buffer.from(value),
      Buffer.from("\r\n"),
    ]);
  return Buffer.concat([
    field("from", "Bob <bob@example.org>"),
    field("to", "alice@hookmail.test"),
    field("subject", iconv.encode(text, charset)),
    field("text", iconv.encode(text, charset)),
    field("charsets", JSON.stringify({ from: "UTF-8", to: "UTF-8", subject: charset, text: charset })),
    Buffer.from("--xYzZY--\r\n"),
  ]);
}

describe("POST /api/inbound/sendgrid", () => {
  it.each(CHARSET_SAMPLES)(
    "decodes text fields sent in %s, as the charsets field names it, with iconv-lite",
    async (charset, text) => {
      const { result, received } = sendgrid.post(buildCharsetPost(charset, text));
      expect(await result).toEqual({ accepted: 1 });
      const parsed = await simpleParser(received[0]!.raw);
      expect(parsed.subject).toBe(text);
      expect(parsed.text?.trim()).toBe(text);
    },
  );

  it("decodes a text field of an unknown charset label as UTF-8 when valid, else as latin1", async () => {
    const post = (bytes: Buffer) =>
      Buffer.concat([
        Buffer.from('--xYzZY\r\nContent-Disposition: form-data; name="from"\r\n\r\nbob@example.org\r\n'),
        Buffer.from('--xYzZY\r\nContent-Disposition: form-data; name="to"\r\n\r\nalice@hookmail.test\r\n'),
        Buffer.from('--xYzZY\r\nContent-Disposition: form-data; name="subject"\r\n\r\n'),
        bytes,
        Buffer.from(
          '\r\n--xYzZY\r\nContent-Disposition: form-data; name="charsets"\r\n\r\n{"subject":"x-no-such-charset"}\r\n--xYzZY--\r\n',
        ),
      ]);
    for (const [bytes, subject] of [
      [Buffer.from("Café €"), "Café €"],
      [Buffer.from([0x43, 0x61, 0x66, 0xe9]), "Café"],
    ] as const) {
      const { result, received } = sendgrid.post(post(bytes));
      expect(await result).toEqual({ accepted: 1 });
      expect((await simpleParser(received[0]!.raw)).subject).toBe(subject);
    }
  });

  it("rebuilds the message of a parsed post: fields decoded with their charsets, headers kept, attachment bytes", async () => {
    const { result, received } = sendgrid.post(readFixture("sendgrid-parsed.multipart"));

    expect(await result).toEqual({ accepted: 1 });
    expect(received[0]?.envelope).toEqual({
      from: "bounces+123@example.com",
      to: ["inbound@hookmail.test"],
      // SendGrid's own verdict, from its SPF field: there is no SMTP client to check.
      spf: "pass",
    });
    const parsed = await expectRebuiltMessage(received[0]!.raw, {
      from: [{ address: "test@example.com", name: "Example User" }],
      to: [{ address: "inbound@hookmail.test" }],
      subject: "Testing non-raw",
      html: "<strong>Hello SendGrid!</strong> Caf\u00e9",
      messageId: "<CAN_sample_1234@mail.example.com>",
      date: "2016-08-11T01:10:13.000Z",
      header: ["received", "by 0.0.0.0 with HTTP; Wed, 10 Aug 2016 18:10:13 -0700 (PDT)"],
      attachment: {
        filename: "notes.txt",
        contentType: "text/plain",
        content: Buffer.from("Notes for the inbound parse test.\nLine two.\n"),
      },
    });
    // the text field was sent in ISO-8859-1, as `charsets` says
    expect(parsed.text?.trim()).toBe("Hello SendGrid! Caf\u00e9");
  });

  it("passes the email field of a raw post on byte for byte, with the envelope field's recipients", async () => {
    const body = readFixture("sendgrid-raw.multipart");
    const { result, received } = sendgrid.post(body);

    expect(await result).toEqual({ accepted: 2 });
    expect(received[0]?.raw.equals(cutField(body, "email"))).toBe(true);
    expect(received[0]?.envelope).toEqual({
      from: "test@example.com",
      to: ["inbound@hookmail.test", "second@hookmail.test"],
      spf: "pass",
    });
    const parsed = await simpleParser(received[0]!.raw);
    expect(parsed.subject).toBe("Raw Payload");
    expect(parsed.text?.trim()).toBe("Hello SendGrid! Caf\u00e9 \u2615");
    expect(parsed.attachments[0]?.content.toString()).toBe("Notes for the inbound parse test.\nLine two.\n");
  });

  it("keeps 8-bit bytes of a raw message that are not UTF-8", async () => {
    const latin1Message = Buffer.concat([
      Buffer.from(
        "From: a@example.com\r\nTo: inbound@hookmail.test\r\nSubject: latin\r\n" +
          "Content-Type: text/plain; charset=iso-8859-1\r\nContent-Transfer-Encoding: 8bit\r\n\r\n",
      ),
      Buffer.from("Caf\u00e9 cr\u00e8me\r\n", "latin1"),
    ]);
    const form = new FormData();
    form.append("email", new Blob([new Uint8Array(latin1Message)]));
    const request = new Request("http://hookmail.test/api/inbound/sendgrid", { method: "POST", body: form });
    const body = Buffer.from(await request.arrayBuffer());
    const { result, received } = sendgrid.post(body, {
      headers: { ...sendgridHeaders, "content-type": request.headers.get("content-type")! },
    });
    await result;
    expect(received[0]?.raw.equals(latin1Message)).toBe(true);
    expect((await simpleParser(received[0]!.raw)).text?.trim()).toBe("Caf\u00e9 cr\u00e8me");
  });

  it("answers 401 for a wrong basic-auth password and for no credentials", async () => {
    for (const headers of [{ ...sendgridHeaders, authorization: basicAuth("sendgrid", "nope") }, { "content-type": MULTIPART }]) {
      await expectRefused(sendgrid.post(readFixture("sendgrid-raw.multipart"), { headers }), "inbound.unauthorized", 401);
    }
  });

  it("answers 503 while INBOUND_SECRET is unset", async () => {
    const { result } = sendgrid.post(readFixture("sendgrid-raw.multipart"), { settings: testSettings({ secret: undefined }) });
    await expectAppError(result, "inbound.not_configured", 503);
  });

  it("answers 400 for an empty body, an email field that is not mail, JSON, and a form without message fields", async () => {
    const onlySpam = Buffer.from('--xYzZY\r\nContent-Disposition: form-data; name="spam_score"\r\n\r\n0.1\r\n--xYzZY--\r\n');
    const notMail = Buffer.from('--xYzZY\r\nContent-Disposition: form-data; name="email"\r\n\r\nhello\r\n--xYzZY--\r\n');
    const posts: [TestBody, Record<string, string>?][] = [
      [""],
      [notMail],
      [JSON.stringify({ to: "inbound@hookmail.test" }), { ...sendgridHeaders, "content-type": "application/json" }],
      [onlySpam],
    ];
    for (const [body, headers] of posts) {
      await expectRefused(sendgrid.post(body, { headers }), "inbound.invalid_message", 400);
    }
  });

  it("answers 413 for a post over its allowance, without reading it all", async () => {
    const { stream, counter } = createCountingStream(100 * 1024 * 1024);
    const settings = testSettings({ maxMessageBytes: 64 * 1024 });
    const { result } = sendgrid.post(stream, { settings });
    await expectAppError(result, "inbound.payload_too_large", 413);
    expect(counter.pulledBytes).toBeLessThan(1024 * 1024);
  });
});
