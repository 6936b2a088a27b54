import { simpleParser } from "mailparser";
import { describe, expect, it } from "vitest";
import {
  buildFormData,
  createCountingStream,
  expectAppError,
  NOW_MS,
  readJsonFixture,
  signMailgun,
  testSettings,
} from "../test-support/inbound-test-helpers";
import { createMailgunTokenRegistry } from "../test-support/memory-mailgun-tokens";
import { createProviderRoute, expectRebuiltMessage, expectRefused } from "../test-support/provider-route-helpers";
import { MAILGUN_CREDENTIALS_PREFIX_BYTES } from "./inbound-providers.constants";

const PNG = Buffer.from(readJsonFixture<{ files: { base64: string }[] }>("mailgun-parsed.form.json").files[0]!.base64, "base64");
const URLENCODED = { "content-type": "application/x-www-form-urlencoded" };

const mailgun = createProviderRoute("mailgun");

describe("POST /api/inbound/mailgun", () => {
  it("rebuilds the message from Mailgun's parsed fields, attachment bytes included", async () => {
    const form = buildFormData("mailgun-parsed.form.json", signMailgun());
    const { result, received } = mailgun.post(form);

    expect(await result).toEqual({ accepted: 1 });
    expect(received[0]?.envelope).toEqual({ from: "bob@sandbox.mailgun.example", to: ["alice@hookmail.test"] });
    const parsed = await expectRebuiltMessage(received[0]!.raw, {
      from: [{ address: "bob@sandbox.mailgun.example", name: "Bob" }],
      to: [{ address: "alice@hookmail.test", name: "Alice" }],
      subject: "Re: Sample POST request",
      html: "<p>This is Bob. Crabby the crab is attached.</p>",
      messageId: "<517ACC75.5010709@mg.example.com>",
      date: "2013-04-26T18:50:29.000Z",
      header: ["x-mailgun-variables", '{"my_var_1": "Mailgun Variable #1", "my-var-2": "awesome"}'],
      attachment: { filename: "crabby.png", contentType: "image/png", content: PNG },
    });
    expect(parsed.cc).toMatchObject({ value: [{ address: "carol@hookmail.test" }] });
    expect(parsed.text).toBe("Hi Alice,\n\nThis is Bob. Crabby the crab is attached.\n\nThanks,\nBob\n");
    expect(parsed.inReplyTo).toBe("<517AC78B.5060404@mg.example.com>");
  });

  it("passes body-mime on byte for byte, envelope from sender and the recipient list", async () => {
    const fixture = readJsonFixture<{ fields: Record<string, string> }>("mailgun-mime.form.json");
    const form = buildFormData("mailgun-mime.form.json", signMailgun());
    const { result, received } = mailgun.post(form);

    expect(await result).toEqual({ accepted: 2 });
    expect(received[0]?.raw.equals(Buffer.from(fixture.fields["body-mime"]!, "utf8"))).toBe(true);
    expect(received[0]?.envelope).toEqual({
      from: "bob@sandbox.mailgun.example",
      to: ["alice@hookmail.test", "dave@hookmail.test"],
    });
    const parsed = await simpleParser(received[0]!.raw);
    expect(parsed.subject).toBe("Re: Sample POST request (MIME)");
    expect(parsed.text?.trim()).toBe("Hi Alice, the MIME endpoint says h\u00e9llo.");
    expect(parsed.attachments[0]?.content.equals(PNG)).toBe(true);
  });

  it("reads an urlencoded post too", async () => {
    const fixture = readJsonFixture<{ fields: Record<string, string> }>("mailgun-mime.form.json");
    const body = new URLSearchParams({ ...fixture.fields, ...signMailgun() }).toString();
    const { result, received } = mailgun.post(body, { headers: URLENCODED });
    await result;
    expect(received[0]?.raw.toString("utf8")).toBe(fixture.fields["body-mime"]);
  });

  it("answers 401 for a bad signature, a missing one, and a signature made with another key", async () => {
    const badForms = [
      buildFormData("mailgun-mime.form.json", { ...signMailgun(), signature: "0".repeat(64) }),
      buildFormData("mailgun-mime.form.json"),
      buildFormData("mailgun-mime.form.json", signMailgun({ key: "key-someone-else" })),
    ];
    for (const form of badForms) {
      await expectRefused(mailgun.post(form), "inbound.unauthorized", 401);
    }
  });

  it("answers 401 for a timestamp 6 minutes old or 6 minutes ahead, though correctly signed", async () => {
    for (const offsetSeconds of [-360, 360]) {
      const form = buildFormData("mailgun-mime.form.json", signMailgun({ timestampSeconds: NOW_MS / 1000 + offsetSeconds }));
      await expectAppError(mailgun.post(form).result, "inbound.unauthorized", 401);
    }
  });

  it("answers 401 for a token seen before: a replayed post", async () => {
    const mailgunTokens = createMailgunTokenRegistry();
    const signature = signMailgun();
    const first = mailgun.post(buildFormData("mailgun-mime.form.json", signature), { mailgunTokens });
    expect(await first.result).toEqual({ accepted: 2 });
    const replay = mailgun.post(buildFormData("mailgun-mime.form.json", signature), { mailgunTokens, nowMs: NOW_MS + 60_000 });
    await expectRefused(replay, "inbound.unauthorized", 401);
  });

  it("accepts the same token again when the pipeline failed to store the first post", async () => {
    const mailgunTokens = createMailgunTokenRegistry();
    const signature = signMailgun();
    const failing = mailgun.post(buildFormData("mailgun-mime.form.json", signature), {
      mailgunTokens,
      receive: () => Promise.reject(new Error("database unavailable")),
    });
    await expect(failing.result).rejects.toThrow("database unavailable");
    const retry = mailgun.post(buildFormData("mailgun-mime.form.json", signature), { mailgunTokens });
    expect(await retry.result).toEqual({ accepted: 2 });
  });

  it("answers 503 while MAILGUN_SIGNING_KEY or INBOUND_SECRET is unset", async () => {
    for (const settings of [testSettings({ mailgunSigningKey: undefined }), testSettings({ secret: undefined })]) {
      const form = buildFormData("mailgun-mime.form.json", signMailgun());
      await expectAppError(mailgun.post(form, { settings }).result, "inbound.not_configured", 503);
    }
  });

  it("answers 400 for a signed post without any message field, a body-mime that is not mail, and a JSON body", async () => {
    const form = new FormData();
    for (const [name, value] of Object.entries(signMailgun())) form.append(name, value);
    await expectAppError(mailgun.post(form).result, "inbound.invalid_message", 400);
    const notMail = buildFormData("mailgun-mime.form.json", { ...signMailgun(), "body-mime": "<html>not a message</html>" });
    await expectAppError(mailgun.post(notMail).result, "inbound.invalid_message", 400);
    const json = mailgun.post(JSON.stringify({ recipient: "alice@hookmail.test" }), {
      headers: { "content-type": "application/json" },
    });
    await expectAppError(json.result, "inbound.invalid_message", 400);
  });

  it("answers 401 for an empty body: it carries no signature", async () => {
    await expectAppError(mailgun.post("", { headers: URLENCODED }).result, "inbound.unauthorized", 401);
  });

  it("answers 413 for a post over its allowance, without reading it all", async () => {
    const { stream, counter } = createCountingStream(100 * 1024 * 1024);
    const multipart = { "content-type": "multipart/form-data; boundary=x" };
    const { result } = mailgun.post(stream, { headers: multipart, settings: testSettings({ maxMessageBytes: 64 * 1024 }) });
    await expectAppError(result, "inbound.payload_too_large", 413);
    expect(counter.pulledBytes).toBeLessThan(1024 * 1024);
  });

  it("refuses with 401 an unauthenticated multi-megabyte body after reading only its prefix", async () => {
    const { stream, counter } = createCountingStream(8 * 1024 * 1024);
    const { result } = mailgun.post(stream, {
      headers: URLENCODED,
      settings: testSettings({ maxMessageBytes: 20 * 1024 * 1024 }),
    });
    await expectAppError(result, "inbound.unauthorized", 401);
    expect(counter.pulledBytes).toBeLessThanOrEqual(MAILGUN_CREDENTIALS_PREFIX_BYTES + 64 * 1024);
    expect(counter.isCancelled).toBe(true);
  });

  it("refuses a bad signature with 401 as soon as the signature fields have arrived, reading no further", async () => {
    const fields = new URLSearchParams({ ...signMailgun(), signature: "0".repeat(64), recipient: "alice@hookmail.test" });
    const { stream, counter } = createStreamAfter(Buffer.from(`${fields}&body-mime=`), 8 * 1024 * 1024);
    const { result } = mailgun.post(stream, {
      headers: URLENCODED,
      settings: testSettings({ maxMessageBytes: 20 * 1024 * 1024 }),
    });
    await expectAppError(result, "inbound.unauthorized", 401);
    expect(counter.pulledBytes).toBeLessThanOrEqual(128 * 1024);
  });

  it("answers 503 without MAILGUN_SIGNING_KEY, reading nothing of the body", async () => {
    const { stream, counter } = createCountingStream(8 * 1024 * 1024);
    const { result } = mailgun.post(stream, { headers: URLENCODED, settings: testSettings({ mailgunSigningKey: undefined }) });
    await expectAppError(result, "inbound.not_configured", 503);
    expect(counter.pulledBytes).toBe(0);
  });

  it("accepts a large post whose signature fields come after the text fields and before the attachments, as Mailgun sends them", async () => {
    const form = new FormData();
    form.append("recipient", "alice@hookmail.test");
    form.append("sender", "bob@sandbox.mailgun.example");
    form.append("from", "Bob <bob@sandbox.mailgun.example>");
    form.append("subject", "Big");
    form.append("body-plain", "text ".repeat(100_000));
    for (const [name, value] of Object.entries(signMailgun())) form.append(name, value);
    form.append("attachment-1", new Blob([new Uint8Array(3 * 1024 * 1024)], { type: "application/octet-stream" }), "a.bin");
    const { result, received } = mailgun.post(form, { settings: testSettings({ maxMessageBytes: 10 * 1024 * 1024 }) });
    expect(await result).toEqual({ accepted: 1 });
    expect(received[0]?.raw.length).toBeGreaterThan(3 * 1024 * 1024);
  });
});

/** `head`, then `fillBytes` bytes of "a", pulled in 64 KiB chunks and counted. */
function createStreamAfter(head: Buffer, fillBytes: number) {
  const counter = { pulledBytes: 0 };
  const body = Buffer.concat([head, Buffer.alloc(fillBytes, 0x61)]);
  const stream = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        if (counter.pulledBytes >= body.length) return controller.close();
        const chunk = body.subarray(counter.pulledBytes, counter.pulledBytes + 64 * 1024);
        counter.pulledBytes += chunk.length;
        controller.enqueue(new Uint8Array(chunk));
      },
    },
    { highWaterMark: 0 },
  );
  return { stream, counter };
}
