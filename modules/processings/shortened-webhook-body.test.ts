import { describe, expect, it } from "vitest";
import { shortenWebhookBody } from "./shortened-webhook-body";

const bodyWith = (attachments: unknown[], text = "Hello") =>
  Buffer.from(JSON.stringify({ type: "email.received", data: { subject: "Report", text, attachments } }));

describe("shortenWebhookBody (docs/webhooks.md: Reading a mail afterwards)", () => {
  it("leaves out every attachment's base64 content and keeps the rest of the body as sent", () => {
    const attachments = [
      { filename: "a.bin", size: 3, content: Buffer.from("abc").toString("base64"), sha256: "x", url: null },
      { filename: "b.bin", size: 6000, content: Buffer.alloc(6000, 7).toString("base64"), sha256: "y", url: null },
    ];
    const shortened = JSON.parse(shortenWebhookBody(bodyWith(attachments)).toString("utf8"));
    expect(shortened).toEqual(
      JSON.parse(bodyWith(attachments.map((attachment) => ({ ...attachment, content: null }))).toString("utf8")),
    );
  });

  it("never touches text that only looks like a content key, nor a value with escapes", () => {
    const text = 'A "content":"Zm9v" inside the text\\ and a quote "';
    const attachments = [{ filename: 'say "hi".txt', content: 'not "base64"' }];
    const body = bodyWith(attachments, text);
    expect(shortenWebhookBody(body).equals(body)).toBe(true);
  });

  it("keeps a body without attachments, or with contents already left out, byte for byte", () => {
    for (const body of [bodyWith([]), bodyWith([{ filename: "a", content: null }]), Buffer.from("")]) {
      expect(shortenWebhookBody(body).equals(body)).toBe(true);
    }
  });
});
