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
