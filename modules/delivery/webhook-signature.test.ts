import { createPrivateKey, createPublicKey, generateKeyPairSync, verify } from "node:crypto";
import { Webhook } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import { formatPublicKey, generateSigningKeyPair } from "./signing-keys";
import {
  buildWebhookHeaders,
  createWebhookEd25519Signer,
  signWebhook,
  signWebhookEd25519,
  verifyWebhookSignature,
} from "./webhook-signature";

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

describe("signWebhookEd25519 (docs/webhooks.md: Ed25519 signatures)", () => {
  // RFC 8032's first test key; the expected signature was made by another implementation (Python's
  // cryptography) over `ep_….1795305600.` and the body's UTF-8 bytes.
  const seed = Buffer.from("9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60", "hex");
  const rfcKey = createPrivateKey({
    key: Buffer.concat([Buffer.from("302e020100300506032b657004220420", "hex"), seed]),
    format: "der",
    type: "pkcs8",
  });
  const vector = {
    id,
    timestamp: 1_795_305_600,
    body: '{"type":"email.received","data":{"subject":"Grüße"}}',
    publicKey: "whpk_11qYAYKxCrfVS/7TyWQHOg7hcvPapiMlrwIaaPcHURo=",
    signature: "v1a,rxZvJJ0Z6Zqgy0UxsrjBcrxcM574rCWZ7w86KfyRqvKpaEfasAhISwbw/6fxAW7S8yXmQQnZJlo7YfgJHsoZCQ==",
  };

  it("signs `{id}.{timestamp}.{body}` as Standard Webhooks' v1a: the known answer of an independent implementation", () => {
    expect(formatPublicKey(rfcKey)).toBe(vector.publicKey);
    expect(signWebhookEd25519({ ...vector, privateKey: rfcKey })).toBe(vector.signature);
  });

  it("verifies with node:crypto's verify and the raw key of the whpk_ public key", () => {
    const { publicKey, privateKey } = generateSigningKeyPair();
    const timestamp = now();
    const signature = signWebhookEd25519({ id, timestamp, body, privateKey });
    expect(signature).toMatch(/^v1a,[A-Za-z0-9+/]{86}==$/);
    const raw = Buffer.from(publicKey.slice("whpk_".length), "base64");
    expect(raw).toHaveLength(32);
    const key = createPublicKey({ key: { kty: "OKP", crv: "Ed25519", x: raw.toString("base64url") }, format: "jwk" });
    const content = Buffer.from(`${id}.${timestamp}.${body}`, "utf8");
    expect(verify(null, content, key, Buffer.from(signature.slice(4), "base64"))).toBe(true);
  });

  it("signs the exact body bytes: a Buffer, its UTF-8 string and the same bytes in parts sign alike", () => {
    const timestamp = now();
    const { privateKey } = generateSigningKeyPair();
    const bytes = Buffer.from(body, "utf8");
    const whole = signWebhookEd25519({ id, timestamp, body: bytes, privateKey });
    expect(signWebhookEd25519({ id, timestamp, body, privateKey })).toBe(whole);
    const signer = createWebhookEd25519Signer({ id, timestamp, privateKey });
    for (let offset = 0; offset < bytes.length; offset += 7) signer.update(bytes.subarray(offset, offset + 7));
    expect(signer.sign()).toBe(whole);
  });

  it("signs a body that is not text, byte for byte", () => {
    const { publicKey, privateKey } = generateSigningKeyPair();
    const binary = new Uint8Array([0xff, 0xfe, 0x00, 0x80, 0x0d, 0x0a]);
    const signature = signWebhookEd25519({ id, timestamp: 1_700_000_000, body: binary, privateKey });
    const key = { scheme: "ed25519" as const, publicKey };
    expect(verifyWebhookSignature({ id, timestamp: "1700000000", body: binary, signature, key })).toBe(true);
    const asText = Buffer.from(binary).toString("utf8");
    expect(verifyWebhookSignature({ id, timestamp: "1700000000", body: asText, signature, key })).toBe(false);
  });

  it("refuses a timestamp that is not whole seconds and a key that is not an Ed25519 private key", () => {
    const { publicKey, privateKey } = generateKeyPairSync("ed25519");
    expect(() => signWebhookEd25519({ id, timestamp: 1.5, body, privateKey })).toThrow(/Unix seconds/);
    expect(() => signWebhookEd25519({ id, timestamp: 1, body, privateKey: publicKey })).toThrow(/Ed25519 private key/);
  });
});

describe("verifyWebhookSignature", () => {
  const timestamp = 1_795_305_600;
  const pair = generateSigningKeyPair();
  const ed25519 = { scheme: "ed25519" as const, publicKey: pair.publicKey };
  const signature = signWebhookEd25519({ id, timestamp, body, privateKey: pair.privateKey });

  it("accepts a v1a signature under its whpk_ key, alone or among other signatures", () => {
    expect(verifyWebhookSignature({ id, timestamp, body, signature, key: ed25519 })).toBe(true);
    const several = `v1,${"A".repeat(43)}= v1a,${"B".repeat(86)}== ${signature}`;
    expect(verifyWebhookSignature({ id, timestamp: String(timestamp), body, signature: several, key: ed25519 })).toBe(true);
  });

  it("refuses a tampered body, another id, another timestamp or another key", () => {
    const other = { scheme: "ed25519" as const, publicKey: generateSigningKeyPair().publicKey };
    expect(verifyWebhookSignature({ id, timestamp, body: body.replace("Grüße", "Grusse"), signature, key: ed25519 })).toBe(false);
    expect(verifyWebhookSignature({ id: `${id}x`, timestamp, body, signature, key: ed25519 })).toBe(false);
    expect(verifyWebhookSignature({ id, timestamp: timestamp + 1, body, signature, key: ed25519 })).toBe(false);
    expect(verifyWebhookSignature({ id, timestamp, body, signature, key: other })).toBe(false);
  });

  it("takes a v1a signature only as v1a, and a v1 signature only under its secret", () => {
    const hmac = signWebhook({ id, timestamp, body, secret });
    expect(verifyWebhookSignature({ id, timestamp, body, signature: hmac, key: { scheme: "hmac", secret } })).toBe(true);
    expect(verifyWebhookSignature({ id, timestamp, body, signature: hmac, key: ed25519 })).toBe(false);
    expect(verifyWebhookSignature({ id, timestamp, body, signature, key: { scheme: "hmac", secret } })).toBe(false);
    // One bit of the signature flipped (its last byte's: a fixed replacement would equal it once in 256 keys).
    const bytes = Buffer.from(signature.slice("v1a,".length), "base64");
    bytes[bytes.length - 1]! ^= 1;
    expect(verifyWebhookSignature({ id, timestamp, body, signature: `v1a,${bytes.toString("base64")}`, key: ed25519 })).toBe(
      false,
    );
  });

  it("throws on a public key that is not whpk_ and the base64 of 32 bytes", () => {
    for (const publicKey of [
      "11qYAYKxCrfVS/7TyWQHOg7hcvPapiMlrwIaaPcHURo=",
      "whpk_AAAA",
      "whsk_11qYAYKxCrfVS/7TyWQHOg7hcvPapiMlrwIaaPcHURo=",
    ]) {
      expect(() => verifyWebhookSignature({ id, timestamp, body, signature, key: { scheme: "ed25519", publicKey } })).toThrow(
        /whpk_/,
      );
    }
  });
});
