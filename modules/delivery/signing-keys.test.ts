import { createHmac, generateKeyPairSync, hkdfSync } from "node:crypto";
import { describe, expect, it } from "vitest";
import { deriveContentLinkKey } from "@/modules/content-links/content-links";
import {
  decryptSigningKey,
  deriveSigningKeyEncryptionKey,
  encryptSigningKey,
  formatPublicKey,
  generateSigningKeyPair,
  parsePublicKey,
  SigningKeyUnreadableError,
} from "./signing-keys";
import { signWebhookEd25519, verifyWebhookSignature } from "./webhook-signature";

const authSecret = "a-test-auth-secret-a-test-auth-secret";
const encryptionKey = deriveSigningKeyEncryptionKey(authSecret);

describe("generateSigningKeyPair (docs/webhooks.md: Ed25519 signatures)", () => {
  it("gives a public key as whpk_ and the base64 of its 32 raw bytes, the same as its JWK x", () => {
    const { publicKey, privateKey } = generateSigningKeyPair();
    expect(publicKey).toMatch(/^whpk_[A-Za-z0-9+/]{43}=$/);
    const { x } = privateKey.export({ format: "jwk" });
    expect(Buffer.from(publicKey.slice(5), "base64").toString("base64url")).toBe(x);
    expect(formatPublicKey(parsePublicKey(publicKey))).toBe(publicKey);
  });

  it("gives a new pair each time", () => {
    expect(generateSigningKeyPair().publicKey).not.toBe(generateSigningKeyPair().publicKey);
  });

  it("refuses to format a key that is not Ed25519", () => {
    expect(() => formatPublicKey(generateKeyPairSync("x25519").publicKey)).toThrow(/Ed25519/);
  });
});

describe("the private key at rest", () => {
  it("encrypts to one versioned string that holds no key material in the clear, and decrypts to a key that signs for the pair", () => {
    const { publicKey, privateKey } = generateSigningKeyPair();
    const encrypted = encryptSigningKey(privateKey, encryptionKey);
    expect(encrypted).toMatch(/^v1:[A-Za-z0-9_-]{80}$/);
    const { d } = privateKey.export({ format: "jwk" });
    const seed = Buffer.from(d!, "base64url");
    for (const form of [seed.toString("base64"), seed.toString("base64url"), seed.toString("hex")]) {
      expect(encrypted).not.toContain(form.slice(0, 16));
    }
    const decrypted = decryptSigningKey({ encrypted, publicKey, encryptionKey });
    const signature = signWebhookEd25519({ id: "ep_1", timestamp: 1_700_000_000, body: "{}", privateKey: decrypted });
    const key = { scheme: "ed25519" as const, publicKey };
    expect(verifyWebhookSignature({ id: "ep_1", timestamp: 1_700_000_000, body: "{}", signature, key })).toBe(true);
  });

  it("uses a fresh nonce each time: the same key encrypts to different strings", () => {
    const { privateKey } = generateSigningKeyPair();
    expect(encryptSigningKey(privateKey, encryptionKey)).not.toBe(encryptSigningKey(privateKey, encryptionKey));
  });

  it("fails loudly under another AUTH_SECRET instead of giving another key", () => {
    const { publicKey, privateKey } = generateSigningKeyPair();
    const encrypted = encryptSigningKey(privateKey, encryptionKey);
    const otherKey = deriveSigningKeyEncryptionKey(`${authSecret}-rotated`);
    expect(() => decryptSigningKey({ encrypted, publicKey, encryptionKey: otherKey })).toThrow(SigningKeyUnreadableError);
    expect(() => decryptSigningKey({ encrypted, publicKey, encryptionKey: otherKey })).toThrow(/AUTH_SECRET/);
  });

  it("refuses a value with a changed character, a wrong length or an unknown version", () => {
    const { publicKey, privateKey } = generateSigningKeyPair();
    const encrypted = encryptSigningKey(privateKey, encryptionKey);
    const flipped = `${encrypted.slice(0, 20)}${encrypted[20] === "A" ? "B" : "A"}${encrypted.slice(21)}`;
    for (const damaged of [flipped, encrypted.slice(0, -2), `v2:${encrypted.slice(3)}`, encrypted.slice(3), ""]) {
      expect(() => decryptSigningKey({ encrypted: damaged, publicKey, encryptionKey })).toThrow(SigningKeyUnreadableError);
    }
  });

  it("refuses a stored key that is not the other half of the endpoint's public key", () => {
    const encrypted = encryptSigningKey(generateSigningKeyPair().privateKey, encryptionKey);
    const { publicKey } = generateSigningKeyPair();
    expect(() => decryptSigningKey({ encrypted, publicKey, encryptionKey })).toThrow(/does not match its public key/);
  });

  it("derives its key with HKDF-SHA256 under its own label, apart from the content-link key", () => {
    const expected = Buffer.from(hkdfSync("sha256", authSecret, Buffer.alloc(0), "hookmail endpoint signing keys v1", 32));
    expect(encryptionKey.export().equals(expected)).toBe(true);
    expect(encryptionKey.export().toString("base64url")).not.toBe(deriveContentLinkKey(authSecret));
    const hmacWithContentLabel = createHmac("sha256", authSecret).update("hookmail content links v1").digest();
    expect(encryptionKey.export().equals(hmacWithContentLabel)).toBe(false);
    expect(() => deriveSigningKeyEncryptionKey("")).toThrow(/empty/);
  });

  it("never shows the key in an error's message", () => {
    const { publicKey, privateKey } = generateSigningKeyPair();
    const encrypted = encryptSigningKey(privateKey, encryptionKey);
    const error = (() => {
      try {
        decryptSigningKey({ encrypted, publicKey, encryptionKey: deriveSigningKeyEncryptionKey("another-secret-0123456789") });
      } catch (caught) {
        return caught as Error;
      }
    })();
    expect(error?.message).not.toContain(encrypted.slice(3, 23));
  });
});
