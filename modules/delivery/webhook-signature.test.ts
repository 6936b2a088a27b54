import { Webhook } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import { buildWebhookHeaders, signWebhook } from "./webhook-signature";

const id = "ep_0123456789abcdefghijkl";
const secret = "whk-secret-0123456789";
const body = '{"type":"email.received","data":{"subject":"Grüße — 👋","text":"a\\nb"}}';
const now = () => Math.floor(Date.now() / 1000);

describe("buildWebhookHeaders", () => {
  it("sends the JSON content type, the Hookmail user agent and the Standard Webhooks id and timestamp", () => {
    const timestamp = now();
    expect(buildWebhookHeaders({ id, timestamp, body, secret })).toEqual({
      "Content-Type": "application/json",
      "User-Agent": "Hookmail-Webhook/1",
      "webhook-id": id,
      "webhook-timestamp": String(timestamp),
      "webhook-signature": signWebhook({ id, timestamp, body, secret }),
    });
  });

  it("sends no signature header when the callback has no secret", () => {
    for (const noSecret of [undefined, null, ""]) {
      expect(buildWebhookHeaders({ id, timestamp: now(), body, secret: noSecret })).not.toHaveProperty("webhook-signature");
    }
  });
});

describe("signWebhook", () => {
  it("is accepted by the standardwebhooks verifier with the secret as a raw key", () => {
    const headers = buildWebhookHeaders({ id, timestamp: now(), body, secret });
    expect(new Webhook(secret, { format: "raw" }).verify(body, headers)).toEqual(JSON.parse(body));
  });

  it("signs the exact body bytes: a Buffer and its UTF-8 string sign alike", () => {
    const timestamp = now();
    const bytes = new Uint8Array(Buffer.from(body, "utf8"));
    expect(signWebhook({ id, timestamp, body: bytes, secret })).toBe(signWebhook({ id, timestamp, body, secret }));
    const headers = buildWebhookHeaders({ id, timestamp, body: bytes, secret });
    expect(() => new Webhook(secret, { format: "raw" }).verify(Buffer.from(bytes), headers)).not.toThrow();
  });

  it("is rejected for a tampered body, another id or another timestamp", () => {
    const timestamp = now();
    const headers = buildWebhookHeaders({ id, timestamp, body, secret });
    const verifier = new Webhook(secret, { format: "raw" });
    expect(() => verifier.verify(body.replace("Grüße", "Grusse"), headers)).toThrow(/signature/i);
    expect(() => verifier.verify(body, { ...headers, "webhook-id": `${id}x` })).toThrow(/signature/i);
    expect(() => verifier.verify(body, { ...headers, "webhook-timestamp": String(timestamp - 1) })).toThrow(/signature/i);
    expect(() => new Webhook(`${secret}x`, { format: "raw" }).verify(body, headers)).toThrow(/signature/i);
  });

  it("keys the HMAC with the secret's UTF-8 bytes", () => {
    const unicodeSecret = "clé-secrète-ünïcode";
    const headers = buildWebhookHeaders({ id, timestamp: now(), body, secret: unicodeSecret });
    const utf8Key = new TextEncoder().encode(unicodeSecret);
    expect(() => new Webhook(utf8Key, { format: "raw" }).verify(body, headers)).not.toThrow();
  });

  it("has the v1,<base64> form of the contract and refuses a timestamp that is not whole seconds", () => {
    expect(signWebhook({ id, timestamp: 1_700_000_000, body, secret })).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
    expect(() => signWebhook({ id, timestamp: 1_700_000_000_123 / 1000, body, secret })).toThrow(/Unix seconds/);
  });
});
