import { simpleParser } from "mailparser";
import { describe, expect, it } from "vitest";
import {
  basicAuth,
  createCountingStream,
  createInboundRequest,
  expectAppError,
  INBOUND_SECRET,
  readFixture,
  readJsonFixture,
  runInbound,
  type TestBody,
  testSettings,
} from "./fixtures/inbound-test-helpers";

const postmarkHeaders = { authorization: basicAuth("postmark", INBOUND_SECRET), "content-type": "application/json" };
const postmarkRequest = (body: TestBody, headers: Record<string, string> = postmarkHeaders) =>
  createInboundRequest("postmark", { body, headers });

describe("POST /api/inbound/postmark", () => {
  it("rebuilds the message from Postmark's parsed fields, attachment included", async () => {
    const { result, received } = runInbound("postmark", postmarkRequest(readFixture("postmark-inbound.json")));

    expect(await result).toEqual({ accepted: 1 });
    expect(received[0]?.envelope).toEqual({ from: "support@postmarkapp.com", to: ["alice+orders@hookmail.test"] });
    const parsed = await simpleParser(received[0]!.raw);
    expect(parsed.from?.value).toEqual([{ address: "support@postmarkapp.com", name: "Postmarkapp Support" }]);
    expect(parsed.to).toMatchObject({ value: [{ address: "alice+orders@hookmail.test", name: "Alice Example" }] });
    expect(parsed.cc).toMatchObject({ value: [{ address: "firstcc@postmarkapp.com" }, { address: "bob@hookmail.test" }] });
    expect(parsed.replyTo?.value[0]?.address).toBe("replyto@postmarkapp.com");
    expect(parsed.subject).toBe("Test subject \u2014 caf\u00e9");
    expect(parsed.text).toBe("This is a test text body.\nSecond line: d\u00e9j\u00e0 vu.");
    expect(parsed.html).toContain("<p>This is a test html body.</p>");
    expect(parsed.messageId).toBe("<CAHbrRv6-1gS9B7HN5pM2E0YQ@mail.gmail.com>");
    expect(parsed.date?.toISOString()).toBe("2014-08-01T20:45:32.000Z");
    expect(parsed.headers.get("x-spam-status")).toBe("No");
    expect(parsed.attachments).toHaveLength(1);
    expect(parsed.attachments[0]).toMatchObject({ filename: "test.txt", contentType: "text/plain" });
    expect(parsed.attachments[0]?.content.toString()).toBe("This is attachment contents, base-64 encoded.\n");
  });

  it("passes RawEmail on as the message when Postmark includes it", async () => {
    const payload = readJsonFixture<{ RawEmail: string }>("postmark-inbound-raw-email.json");
    const { result, received } = runInbound("postmark", postmarkRequest(JSON.stringify(payload)));

    await result;
    expect(received[0]?.raw.toString("utf8")).toBe(payload.RawEmail);
    expect(received[0]?.envelope).toEqual({ from: "support@postmarkapp.com", to: ["alice+orders@hookmail.test"] });
    const parsed = await simpleParser(received[0]!.raw);
    expect(parsed.subject).toBe("Raw subject \u2014 caf\u00e9");
    expect(parsed.text?.trim()).toBe("This is the raw text body, d\u00e9j\u00e0 vu.");
    expect(parsed.attachments[0]?.content.toString()).toBe("This is attachment contents, base-64 encoded.\n");
  });

  it("takes the recipients from ToFull and CcFull when OriginalRecipient is absent", async () => {
    const payload = readJsonFixture("postmark-inbound.json");
    delete payload.OriginalRecipient;
    const { result, received } = runInbound("postmark", postmarkRequest(JSON.stringify(payload)));
    await result;
    expect(received[0]?.envelope.to).toEqual(["alice+orders@hookmail.test", "firstcc@postmarkapp.com", "bob@hookmail.test"]);
  });

  it("gives a rebuilt message without a Message-ID header one derived from Postmark's MessageID", async () => {
    const payload = readJsonFixture<{ Headers: { Name: string }[] }>("postmark-inbound.json");
    payload.Headers = payload.Headers.filter(({ Name }) => Name !== "Message-ID");
    const { result, received } = runInbound("postmark", postmarkRequest(JSON.stringify(payload)));
    await result;
    expect((await simpleParser(received[0]!.raw)).messageId).toBe("<73e6d360-66eb-11e1-8e72-a8904824019b@postmarkapp.com>");
  });

  it("answers 401 for a wrong basic-auth password or a Bearer token", async () => {
    for (const authorization of [basicAuth("postmark", "wrong-password"), `Bearer ${INBOUND_SECRET}`]) {
      const request = postmarkRequest(readFixture("postmark-inbound.json"), { authorization });
      await expectAppError(runInbound("postmark", request).result, "inbound.unauthorized", 401);
    }
  });

  it("answers 503 while INBOUND_SECRET is unset", async () => {
    const { result } = runInbound("postmark", postmarkRequest(readFixture("postmark-inbound.json")), {
      settings: testSettings({ secret: undefined }),
    });
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
      const { result, received } = runInbound("postmark", postmarkRequest(body));
      await expectAppError(result, "inbound.invalid_message", 400);
      expect(received).toHaveLength(0);
    }
  });

  it("answers 413 for a body over its allowance, without reading it all", async () => {
    const maxMessageBytes = 64 * 1024;
    const { stream, counter } = createCountingStream(100 * 1024 * 1024);
    const { result } = runInbound("postmark", postmarkRequest(stream), { settings: testSettings({ maxMessageBytes }) });
    await expectAppError(result, "inbound.payload_too_large", 413);
    expect(counter.pulledBytes).toBeLessThan(1024 * 1024);
  });

  it("answers 413 when the message found in the JSON is over MAX_MESSAGE_BYTES", async () => {
    const payload = readJsonFixture<{ RawEmail: string }>("postmark-inbound-raw-email.json");
    payload.RawEmail += "x".repeat(8 * 1024);
    const { result } = runInbound("postmark", postmarkRequest(JSON.stringify(payload)), {
      settings: testSettings({ maxMessageBytes: 8 * 1024 }),
    });
    await expectAppError(result, "inbound.payload_too_large", 413);
  });
});
