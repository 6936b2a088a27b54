import { simpleParser } from "mailparser";
import { describe, expect, it } from "vitest";
import {
  basicAuth,
  createCountingStream,
  expectAppError,
  INBOUND_SECRET,
  readFixture,
  readJsonFixture,
  testSettings,
} from "../test-support/inbound-test-helpers";
import { createProviderRoute, expectRebuiltMessage, expectRefused } from "../test-support/provider-route-helpers";

const postmark = createProviderRoute("postmark", {
  authorization: basicAuth("postmark", INBOUND_SECRET),
  "content-type": "application/json",
});

/**
 * The envelope of both fixture posts; spf is Postmark's own verdict, from its Received-SPF header:
 * there is no SMTP client to check.
 */
const FIXTURE_ENVELOPE = { from: "support@postmarkapp.com", to: ["alice+orders@hookmail.test"], spf: "pass" };

describe("POST /api/inbound/postmark", () => {
  it("rebuilds the message from Postmark's parsed fields, attachment included", async () => {
    const { result, received } = postmark.post(readFixture("postmark-inbound.json"));

    expect(await result).toEqual({ accepted: 1 });
    expect(received[0]?.envelope).toEqual(FIXTURE_ENVELOPE);
    const parsed = await expectRebuiltMessage(received[0]!.raw, {
      from: [{ address: "support@postmarkapp.com", name: "Postmarkapp Support" }],
      to: [{ address: "alice+orders@hookmail.test", name: "Alice Example" }],
      subject: "Test subject \u2014 caf\u00e9",
      html: "<p>This is a test html body.</p>",
      messageId: "<CAHbrRv6-1gS9B7HN5pM2E0YQ@mail.gmail.com>",
      date: "2014-08-01T20:45:32.000Z",
      header: ["x-spam-status", "No"],
      attachment: {
        filename: "test.txt",
        contentType: "text/plain",
        content: Buffer.from("This is attachment contents, base-64 encoded.\n"),
      },
    });
    expect(parsed.cc).toMatchObject({ value: [{ address: "firstcc@postmarkapp.com" }, { address: "bob@hookmail.test" }] });
    expect(parsed.replyTo?.value[0]?.address).toBe("replyto@postmarkapp.com");
    expect(parsed.text).toBe("This is a test text body.\nSecond line: d\u00e9j\u00e0 vu.");
  });

  it("passes RawEmail on as the message when Postmark includes it", async () => {
    const payload = readJsonFixture<{ RawEmail: string }>("postmark-inbound-raw-email.json");
    const { result, received } = postmark.post(JSON.stringify(payload));

    await result;
    expect(received[0]?.raw.toString("utf8")).toBe(payload.RawEmail);
    expect(received[0]?.envelope).toEqual(FIXTURE_ENVELOPE);
    const parsed = await simpleParser(received[0]!.raw);
    expect(parsed.subject).toBe("Raw subject \u2014 caf\u00e9");
    expect(parsed.text?.trim()).toBe("This is the raw text body, d\u00e9j\u00e0 vu.");
    expect(parsed.attachments[0]?.content.toString()).toBe("This is attachment contents, base-64 encoded.\n");
  });

  it("takes the recipients from ToFull and CcFull when OriginalRecipient is absent", async () => {
    const payload = readJsonFixture("postmark-inbound.json");
    delete payload.OriginalRecipient;
    const { result, received } = postmark.post(JSON.stringify(payload));
    await result;
    expect(received[0]?.envelope.to).toEqual(["alice+orders@hookmail.test", "firstcc@postmarkapp.com", "bob@hookmail.test"]);
  });

  it("gives a rebuilt message without a Message-ID header one derived from Postmark's MessageID", async () => {
    const payload = readJsonFixture<{ Headers: { Name: string }[] }>("postmark-inbound.json");
    payload.Headers = payload.Headers.filter(({ Name }) => Name !== "Message-ID");
    const { result, received } = postmark.post(JSON.stringify(payload));
    await result;
    expect((await simpleParser(received[0]!.raw)).messageId).toBe("<73e6d360-66eb-11e1-8e72-a8904824019b@postmarkapp.com>");
  });

  it("answers 401 for a wrong basic-auth password or a Bearer token", async () => {
    for (const authorization of [basicAuth("postmark", "wrong-password"), `Bearer ${INBOUND_SECRET}`]) {
      const { result } = postmark.post(readFixture("postmark-inbound.json"), { headers: { authorization } });
      await expectAppError(result, "inbound.unauthorized", 401);
    }
  });

  it("answers 503 while INBOUND_SECRET is unset", async () => {
    const { result } = postmark.post(readFixture("postmark-inbound.json"), { settings: testSettings({ secret: undefined }) });
    await expectAppError(result, "inbound.not_configured", 503);
  });

  it("answers 400 for an empty body, JSON without the message fields, and malformed attachments", async () => {
    const bodies = [
      "",
      "not json",
      "{}",
      JSON.stringify({ Subject: "no sender, no recipient" }),
      JSON.stringify({ From: "a@b", To: "c@d", Attachments: [{ Content: "%%%" }] }),
      JSON.stringify({ RawEmail: '{"not":"a message"}', OriginalRecipient: "alice@hookmail.test" }),
    ];
    for (const body of bodies) {
      await expectRefused(postmark.post(body), "inbound.invalid_message", 400);
    }
  });

  it("answers 413 for a body over its allowance, without reading it all", async () => {
    const maxMessageBytes = 64 * 1024;
    const { stream, counter } = createCountingStream(100 * 1024 * 1024);
    const { result } = postmark.post(stream, { settings: testSettings({ maxMessageBytes }) });
    await expectAppError(result, "inbound.payload_too_large", 413);
    expect(counter.pulledBytes).toBeLessThan(1024 * 1024);
  });

  it("answers 413 when the message found in the JSON is over MAX_MESSAGE_BYTES", async () => {
    const payload = readJsonFixture<{ RawEmail: string }>("postmark-inbound-raw-email.json");
    payload.RawEmail += "x".repeat(8 * 1024);
    const { result } = postmark.post(JSON.stringify(payload), { settings: testSettings({ maxMessageBytes: 8 * 1024 }) });
    await expectAppError(result, "inbound.payload_too_large", 413);
  });
});
