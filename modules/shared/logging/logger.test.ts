import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "@/modules/config/config";
import { createContentLinkSigner, deriveContentLinkKey } from "@/modules/content-links/content-links";
import { createLogger, loggerOptionsFromEnvironment } from "./logger";

function captureLines(options: Parameters<typeof createLogger>[0] = {}) {
  const lines: string[] = [];
  const logger = createLogger({ ...options, destination: { write: (line: string) => void lines.push(line) } });
  return { logger, lines };
}

describe("the logger (docs/architecture.md: Logs)", () => {
  it("writes one JSON object per line with the level, the ISO time, the message and the line's fields", () => {
    const { logger, lines } = captureLines();
    logger.info({ processingId: "ep_1" }, "Delivered");
    expect(lines).toHaveLength(1);
    expect(lines[0]?.endsWith("\n")).toBe(true);
    const entry = JSON.parse(lines[0]!);
    expect(entry).toMatchObject({ level: 30, msg: "Delivered", processingId: "ep_1" });
    expect(entry.time).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  });

  it("writes an error's type, message and stack under err", () => {
    const { logger, lines } = captureLines();
    logger.error({ err: new TypeError("boom") }, "Delivery task failed");
    expect(JSON.parse(lines[0]!).err).toMatchObject({ type: "TypeError", message: "boom" });
    expect(JSON.parse(lines[0]!).err.stack).toContain("TypeError: boom");
  });

  it("leaves out lines below its level", () => {
    const { logger, lines } = captureLines({ level: "warn" });
    logger.info("quiet");
    logger.debug("quieter");
    logger.warn("loud");
    expect(lines.map((line) => JSON.parse(line).msg)).toEqual(["loud"]);
  });

  it("redacts fields that may hold a secret, at the top and one level down", () => {
    const { logger, lines } = captureLines();
    logger.warn(
      { token: "t0ken", apiKey: "hm_live_123", request: { headers: "x", authorization: "Bearer abc", password: "hunter2" } },
      "odd request",
    );
    expect(lines[0]).not.toMatch(/t0ken|hm_live_123|Bearer abc|hunter2/);
    expect(JSON.parse(lines[0]!)).toMatchObject({ token: "[redacted]", request: { authorization: "[redacted]" } });
  });

  it("redacts an endpoint's signing keys, at the top and one level down, whatever form they take", () => {
    const { logger, lines } = captureLines();
    const stored = "v1:c2VjcmV0LXNlYWxlZC1rZXktMDEyMw";
    const endpoint = { id: "wep_1", publicKey: "whpk_public", privateKeyEncrypted: stored, secret: "whsec-endpoint-0123" };
    logger.info({ endpoint }, "Endpoint saved");
    logger.warn({ privateKeyEncrypted: stored, privateKey: "pk-top-0123", signingKey: "sk-top-0123" }, "odd key");
    logger.warn({ delivery: { privateKey: "pk-nested-0123", signingKey: "sk-nested-0123", encryptionKey: "ek-0123" } }, "odd");
    expect(lines.join("")).not.toMatch(
      /c2VjcmV0LXNlYWxlZC1rZXktMDEyMw|whsec-endpoint-0123|pk-top-0123|sk-top-0123|pk-nested-0123|sk-nested-0123|ek-0123/,
    );
    expect(JSON.parse(lines[0]!).endpoint).toEqual({ ...endpoint, privateKeyEncrypted: "[redacted]", secret: "[redacted]" });
    expect(JSON.parse(lines[1]!)).toMatchObject({
      privateKeyEncrypted: "[redacted]",
      privateKey: "[redacted]",
      signingKey: "[redacted]",
    });
  });
});

describe("the logger and links carrying a token (docs/architecture.md: Logs)", () => {
  const signer = createContentLinkSigner({
    baseUrl: "https://hookmail.example.com",
    key: deriveContentLinkKey("auth-secret-auth-secret-auth-secret-0"),
    expiresAt: new Date("2030-01-01T00:00:00Z"),
  });
  const link = signer.link("ep_1", "raw");
  const signature = new URL(link).searchParams.get("signature")!;

  it("never writes a signed content link's signature, in the message, in a field or in an error", () => {
    const { logger, lines } = captureLines();
    logger.info({ processingId: "ep_1" }, `Content link made: ${link}`);
    logger.warn({ processingId: "ep_1", url: link, request: { url: link } }, "Content link refused");
    logger.error({ err: new Error(`fetch ${link} failed`) }, "Content link failed");
    expect(signature.length).toBeGreaterThan(20);
    for (const line of lines) expect(line).not.toContain(signature);
    expect(JSON.parse(lines[0]!).msg).toContain("/api/content/ep_1/raw?expires=1893456000&signature=[redacted]");
    expect(JSON.parse(lines[1]!)).toMatchObject({ url: expect.stringContaining("signature=[redacted]") });
    expect(JSON.parse(lines[2]!).err.message).toContain("signature=[redacted]");
  });

  it("never writes a webhook secret, a bearer credential or a token query parameter", () => {
    const { logger, lines } = captureLines();
    logger.info({ emailCallback: { webhookSecret: "whsec-visible-0123" }, webhookSecret: "whsec-top-0123" }, "Saved");
    logger.warn("Refused Authorization: Bearer hm_live_abcdef0123 and https://x.example/cb?access_token=tok3n&a=1");
    expect(lines.join("")).not.toMatch(/whsec-visible-0123|whsec-top-0123|hm_live_abcdef0123|tok3n/);
    expect(JSON.parse(lines[1]!).msg).toBe(
      "Refused Authorization: Bearer [redacted] and https://x.example/cb?access_token=[redacted]&a=1",
    );
  });
});

describe("the logger and credentials in text (docs/security.md: Logs)", () => {
  it("never writes a bearer or basic credential in any case, a URL's user and password, or a token in a link's path", () => {
    const basic = Buffer.from("alice:s3cret-basic-pw").toString("base64");
    const planted = {
      "bearer in lower case": ["authorization: bearer hm_live_lowercase0123", "authorization: bearer [redacted]"],
      "BEARER in upper case": ["Authorization: BEARER upper-token-0123", "Authorization: BEARER [redacted]"],
      "Basic credentials": [`Authorization: Basic ${basic}`, "Authorization: Basic [redacted]"],
      "basic credentials in a header object": [`{ authorization: 'basic ${basic}' }`, "{ authorization: 'basic [redacted]' }"],
      "a URL's user and password": [
        "fetch https://user:p4ss-in-url@hooks.example.com/in failed",
        "fetch https://[redacted]@hooks.example.com/in failed",
      ],
      "a database URL's password": [
        "postgres://hookmail:db-pass-0123@db:5432/hookmail",
        "postgres://[redacted]@db:5432/hookmail",
      ],
      "a reset link's token": [
        "GET /reset-password/rst-token-0123abcd?callbackURL=%2F",
        "GET /reset-password/[redacted]?callbackURL=%2F",
      ],
      "better-auth's reset link": [
        "https://hookmail.example.com/api/auth/reset-password/auth-rst-token-0123?callbackURL=/reset-password",
        "https://hookmail.example.com/api/auth/reset-password/[redacted]?callbackURL=/reset-password",
      ],
      "a verification link's token": [
        "/api/auth/verify-email?token=eyJhbGciOiJIUzI1NiJ9.verify-0123&callbackURL=/",
        "/api/auth/verify-email?token=[redacted]&callbackURL=/",
      ],
      "the verification page's token": ["/verify-email?token=page-verify-0123", "/verify-email?token=[redacted]"],
    };
    const secrets = [
      "hm_live_lowercase0123",
      "upper-token-0123",
      basic,
      "p4ss-in-url",
      "user:",
      "db-pass-0123",
      "rst-token-0123abcd",
      "auth-rst-token-0123",
      "verify-0123",
      "page-verify-0123",
    ];
    for (const [label, [text, expected]] of Object.entries(planted)) {
      const { logger, lines } = captureLines();
      logger.warn(text);
      logger.warn({ url: text, request: { line: text } }, "in a field");
      logger.error({ err: new Error(text) }, "in an error");
      for (const secret of secrets) expect(lines.join(""), `${label}: ${secret}`).not.toContain(secret);
      expect(JSON.parse(lines[0]!).msg, label).toBe(expected);
      expect(JSON.parse(lines[1]!), label).toMatchObject({ url: expected, request: { line: expected } });
      expect(JSON.parse(lines[2]!).err.message, label).toBe(expected);
    }
  });

  it("redacts hostile lines of 100 kB each in linear time (well under a second for four)", () => {
    const { logger, lines } = captureLines();
    const startedAt = performance.now();
    for (const unit of ["a.", "a-", "basic ", "/reset-password/"]) logger.warn(`${unit.repeat(100_000 / unit.length)}://@ x=1`);
    expect(performance.now() - startedAt).toBeLessThan(1_000);
    expect(lines).toHaveLength(4);
  });

  it("leaves words that only look like a scheme as they are", () => {
    const { logger, lines } = captureLines();
    logger.info("Basic setup done for alice@example.org: see /reset-password and https://hookmail.example.com/login");
    expect(JSON.parse(lines[0]!).msg).toBe(
      "Basic setup done for alice@example.org: see /reset-password and https://hookmail.example.com/login",
    );
  });
});

describe("the logger and terminal colour codes (docs/architecture.md: Logs)", () => {
  it("writes a library's coloured line as plain text in the JSON: in the message, a field and an error", () => {
    const coloured = "\x1b[2m2026-11-27T21:00:00.000Z\x1b[0m \x1b[33mWARN\x1b[0m \x1b[1m[Better Auth]:\x1b[0m Rate limit hit";
    const plain = "2026-11-27T21:00:00.000Z WARN [Better Auth]: Rate limit hit";
    const { logger, lines } = captureLines();
    logger.warn(coloured);
    logger.warn({ detail: coloured }, "\x1b[33mwarned\x1b[0m");
    logger.error({ err: new Error(coloured) }, "failed");
    for (const line of lines) {
      expect(line).not.toContain("\u001b");
      expect(line).not.toMatch(/\\u001b|\[(?:0|1|2|33)m/);
    }
    expect(JSON.parse(lines[0]!).msg).toBe(plain);
    expect(JSON.parse(lines[1]!)).toMatchObject({ msg: "warned", detail: plain });
    expect(JSON.parse(lines[2]!).err.message).toBe(plain);
  });
});

describe("the logger's settings from the environment", () => {
  it("defaults to info, JSON in production when the output is not a terminal, readable lines otherwise", () => {
    expect(loggerOptionsFromEnvironment({ NODE_ENV: "production" }, false)).toEqual({ level: "info", format: "json" });
    expect(loggerOptionsFromEnvironment({ NODE_ENV: "production" }, true)).toEqual({ level: "info", format: "pretty" });
    expect(loggerOptionsFromEnvironment({ NODE_ENV: "development" }, false)).toEqual({ level: "info", format: "pretty" });
  });

  it("takes LOG_LEVEL and LOG_FORMAT in any case", () => {
    expect(loggerOptionsFromEnvironment({ LOG_LEVEL: "DEBUG", LOG_FORMAT: "Json" }, true)).toEqual({
      level: "debug",
      format: "json",
    });
  });

  it("is refused at start with the allowed values when LOG_LEVEL or LOG_FORMAT is not one of them", () => {
    expect(() => loadConfig({ LOG_LEVEL: "verbose" })).toThrow(ConfigError);
    expect(() => loadConfig({ LOG_LEVEL: "verbose" })).toThrow(/LOG_LEVEL.*fatal, error, warn, info, debug, trace, silent/);
    expect(() => loadConfig({ LOG_FORMAT: "xml" })).toThrow(/LOG_FORMAT.*json, pretty/);
    expect(() => loadConfig({ LOG_LEVEL: "warn", LOG_FORMAT: "pretty" })).not.toThrow();
  });
});
