import { describe, expect, it } from "vitest";
import { createCountingStream, createInboundRequest, expectAppError } from "../test-support/inbound-test-helpers";
import { getBodyLimit, readBodyWithLimit } from "./read-body-with-limit";

describe("readBodyWithLimit", () => {
  it("returns a body of exactly the limit, byte for byte", async () => {
    const body = Buffer.from(`${"x".repeat(1000)}\u00e9`);
    const request = createInboundRequest("raw", { body });
    expect((await readBodyWithLimit(request, body.length)).equals(body)).toBe(true);
  });

  it("returns an empty buffer for a request without a body", async () => {
    expect((await readBodyWithLimit(createInboundRequest("raw", {}), 10)).length).toBe(0);
  });

  it("refuses a Content-Length above the limit with 413 before reading anything", async () => {
    const { stream, counter } = createCountingStream(10 * 1024 * 1024);
    const request = createInboundRequest("raw", { body: stream, headers: { "content-length": String(10 * 1024 * 1024) } });
    await expectAppError(readBodyWithLimit(request, 1024 * 1024), "inbound.payload_too_large", 413);
    expect(counter.pulledBytes).toBe(0);
  });

  it("stops reading a streamed body as soon as it passes the limit, and cancels the rest", async () => {
    const limit = 256 * 1024;
    const chunk = 16 * 1024;
    const { stream, counter } = createCountingStream(64 * 1024 * 1024, chunk);
    const request = createInboundRequest("raw", { body: stream });
    await expectAppError(readBodyWithLimit(request, limit), "inbound.payload_too_large", 413);
    // the chunk that crossed the limit, and at most a few the stream had queued ahead
    expect(counter.pulledBytes).toBeGreaterThan(limit);
    expect(counter.pulledBytes).toBeLessThanOrEqual(limit + 4 * chunk);
    expect(counter.isCancelled).toBe(true);
  });

  it("returns every byte of a streamed body whatever its Content-Length says: exact, too small, too large", async () => {
    const total = 300 * 1024;
    for (const declared of [total, 100 * 1024, 1024 * 1024]) {
      const { stream } = createCountingStream(total, 16 * 1024);
      const request = createInboundRequest("raw", { body: stream, headers: { "content-length": String(declared) } });
      const body = await readBodyWithLimit(request, 2 * 1024 * 1024);
      expect(body.length, `declared ${declared}`).toBe(total);
      expect(
        body.every((byte) => byte === 0x61),
        `declared ${declared}`,
      ).toBe(true);
    }
  });

  it("names the operator's message limit in the error, not the derived body limit", async () => {
    const request = createInboundRequest("mailgun", { body: "x".repeat(2000) });
    await expect(readBodyWithLimit(request, 1500, 1024)).rejects.toThrow("maximum size of 1024 bytes");
  });
});

describe("getBodyLimit", () => {
  it("allows form posts ×1.4 + 64 KiB and Postmark's JSON ×2.5 + 64 KiB; the raw route the message only", () => {
    expect(getBodyLimit(1_000_000, "raw")).toBe(1_000_000);
    expect(getBodyLimit(1_000_000, "form")).toBe(1_400_000 + 65_536);
    expect(getBodyLimit(1_000_000, "postmark")).toBe(2_500_000 + 65_536);
  });
});
