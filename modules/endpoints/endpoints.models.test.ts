import { describe, expect, it } from "vitest";
import { deriveSigningKeyEncryptionKey, encryptSigningKey, generateSigningKeyPair } from "@/modules/delivery/signing-keys";
import { type EndpointRecord, findHeaderProblem, formatEndpointForApi } from "./endpoints.models";

const createdAt = new Date("2026-11-28T08:00:00.000Z");
const base: EndpointRecord = {
  id: "wep_1",
  emailCallbackId: "ecb_1",
  url: "https://hooks.example.com/in",
  format: "json",
  signingScheme: "none",
  secret: null,
  publicKey: null,
  privateKeyEncrypted: null,
  headers: { "X-Tenant": "acme" },
  timeoutMs: null,
  filter: null,
  isEnabled: true,
  createdAt,
};

describe("formatEndpointForApi (docs/webhooks.md: Endpoints)", () => {
  it("answers an hmac endpoint with its secret masked", () => {
    const record = { ...base, signingScheme: "hmac" as const, secret: "whk-secret-0123456789", timeoutMs: 5000 };
    expect(formatEndpointForApi(record, { defaultTimeoutMs: 10_000 })).toEqual({
      id: "wep_1",
      url: "https://hooks.example.com/in",
      format: "json",
      signing: { scheme: "hmac", maskedSecret: "••••••••6789" },
      headers: { "X-Tenant": "acme" },
      timeoutMs: 5000,
      filter: null,
      isEnabled: true,
      createdAt: "2026-11-28T08:00:00.000Z",
    });
  });

  it("answers the secret in full only for the call that set it", () => {
    const record = { ...base, signingScheme: "hmac" as const, secret: "whk-secret-0123456789" };
    expect(formatEndpointForApi(record, { defaultTimeoutMs: 10_000, revealsSecret: true }).signing).toEqual({
      scheme: "hmac",
      secret: "whk-secret-0123456789",
      maskedSecret: "••••••••6789",
    });
  });

  it("answers an ed25519 endpoint with its public key and nothing of its private key", () => {
    const { publicKey, privateKey } = generateSigningKeyPair();
    const privateKeyEncrypted = encryptSigningKey(privateKey, deriveSigningKeyEncryptionKey("auth-secret-auth-secret-0123"));
    const record = { ...base, format: "raw" as const, signingScheme: "ed25519" as const, publicKey, privateKeyEncrypted };
    const answer = formatEndpointForApi(record, { defaultTimeoutMs: 10_000 });
    expect(answer.signing).toEqual({ scheme: "ed25519", publicKey });
    expect(answer.format).toBe("raw");
    const text = JSON.stringify(answer);
    expect(text).not.toContain(privateKeyEncrypted.slice(3));
    expect(text).not.toMatch(/privateKey|encrypted/i);
  });

  it("answers a none endpoint with the scheme alone, and a timeout left to the default with the default", () => {
    const answer = formatEndpointForApi(base, { defaultTimeoutMs: 10_000 });
    expect(answer.signing).toEqual({ scheme: "none" });
    expect(answer.timeoutMs).toBe(10_000);
  });

  it("answers the filter as stored, and a copy of the headers", () => {
    const filter = { match: "all", conditions: [{ field: "subject", op: "contains", value: "invoice" }] };
    const answer = formatEndpointForApi({ ...base, filter }, { defaultTimeoutMs: 10_000 });
    expect(answer.filter).toEqual(filter);
    answer.headers["X-Other"] = "changed";
    expect(base.headers).toEqual({ "X-Tenant": "acme" });
  });

  it("refuses a record whose scheme lacks its key rather than answer half an endpoint", () => {
    expect(() => formatEndpointForApi({ ...base, signingScheme: "hmac" }, { defaultTimeoutMs: 1 })).toThrow(/without a secret/);
    expect(() => formatEndpointForApi({ ...base, signingScheme: "ed25519" }, { defaultTimeoutMs: 1 })).toThrow(/public key/);
  });
});

describe("findHeaderProblem", () => {
  it("names the first problem of a header, or none", () => {
    expect(findHeaderProblem("X-Tenant", "acme")).toBeNull();
    expect(findHeaderProblem("X:Tenant", "acme")).toBe("name-invalid");
    expect(findHeaderProblem("X-Ünïcode", "acme")).toBe("name-invalid");
    expect(findHeaderProblem("x-hookmail-id", "a\nb")).toBe("name-reserved");
    expect(findHeaderProblem("X-A", "a\u007fb")).toBe("value-invalid");
    expect(findHeaderProblem("X-A", "a\u0001b")).toBe("value-invalid");
    expect(findHeaderProblem("X-A", "x".repeat(1025))).toBe("value-too-long");
    expect(findHeaderProblem("X-A", "x".repeat(1024))).toBeNull();
    expect(findHeaderProblem("X-A", "")).toBeNull();
  });
});
