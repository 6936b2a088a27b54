// The route's HTTP answers to the letter of README: Receiving mail; the pipeline behind it is replaced by a
// stand-in (its own tests run it on a database).
import { beforeEach, describe, expect, it, vi } from "vitest";
import { type Config, loadConfig } from "@/modules/config/config";
import type { InboundPipeline } from "@/modules/inbound/receive-message";
import { basicAuth, createCountingStream, readFixture } from "@/modules/inbound/test-support/inbound-test-helpers";
import { setServices } from "@/modules/server/services";
import { createTestServices } from "@/tests/support/test-services";
import { POST } from "./route";

/** The stand-in for the services' inbound pipeline. */
const receiveMessage = vi.fn<InboundPipeline["receive"]>();

const SECRET = "route-test-inbound-secret";

const post = (provider: string, init: RequestInit) =>
  POST(new Request(`http://localhost:3000/api/inbound/${provider}`, { method: "POST", ...init }), {
    params: Promise.resolve({ provider }),
  });

/** Makes the process's services those of `config`, with the stand-in pipeline. */
function setProcessConfig(config: Config) {
  const services = createTestServices({ config });
  setServices({
    ...services,
    inbound: async () => ({ receive: receiveMessage, checkRecipient: async () => "accepted" as const }),
  });
}

beforeEach(() => {
  vi.mocked(receiveMessage).mockReset();
  setProcessConfig(loadConfig({ DATA_DIR: "/tmp/hookmail-test", INBOUND_SECRET: SECRET, MAX_MESSAGE_BYTES: "65536" }));
});

describe("POST /api/inbound/[provider]", () => {
  it("answers 200 {accepted: N} once the pipeline has stored the message", async () => {
    vi.mocked(receiveMessage).mockResolvedValue({ accepted: 2, pendingIds: ["a", "b"] } as never);
    const response = await post("raw", {
      headers: { authorization: `Bearer ${SECRET}`, "content-type": "message/rfc822", "x-envelope-to": "alice@hookmail.test" },
      body: new Uint8Array(readFixture("message.eml")),
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ accepted: 2 });
    expect(vi.mocked(receiveMessage).mock.calls[0]?.[0].envelope).toEqual({
      from: "bob@sender.example",
      to: ["alice@hookmail.test"],
    });
  });

  it("answers 401 with the error body for bad credentials", async () => {
    const response = await post("postmark", { headers: { authorization: basicAuth("x", "wrong") }, body: "{}" });
    expect(response.status).toBe(401);
    expect((await response.json()).error.code).toBe("inbound.unauthorized");
    expect(receiveMessage).not.toHaveBeenCalled();
  });

  it("answers 400 for a body that is not mail, 413 over MAX_MESSAGE_BYTES, 404 for an unknown provider", async () => {
    const auth = { authorization: `Bearer ${SECRET}` };
    expect((await post("raw", { headers: auth, body: '{"not":"mail"}' })).status).toBe(400);
    const tooLarge = await post("raw", { headers: auth, body: "x".repeat(65_537) });
    expect(tooLarge.status).toBe(413);
    expect(await tooLarge.json()).toEqual({
      error: { code: "inbound.payload_too_large", message: "The message exceeds the maximum size of 65536 bytes." },
    });
    expect((await post("mandrill", { headers: auth, body: "x" })).status).toBe(404);
  });

  it("answers 503 while INBOUND_SECRET is unset", async () => {
    setProcessConfig(loadConfig({ DATA_DIR: "/tmp/hookmail-test" }));
    const response = await post("sendgrid", { headers: { authorization: basicAuth("x", "") }, body: "x" });
    expect(response.status).toBe(503);
    expect((await response.json()).error.code).toBe("inbound.not_configured");
  });

  it.each([
    ["without MAILGUN_SIGNING_KEY: 503, nothing read", {}, 503, 0],
    [
      "with no valid signature: 401 after the first MiB or so",
      { MAILGUN_SIGNING_KEY: "route-test-mailgun-key" },
      401,
      1024 * 1024 + 64 * 1024,
    ],
  ])("/api/inbound/mailgun never reads a stranger's 8 MB form %s", async (_, env, status, maxPulledBytes) => {
    setProcessConfig(
      loadConfig({ DATA_DIR: "/tmp/hookmail-test", INBOUND_SECRET: SECRET, MAX_MESSAGE_BYTES: String(20 * 1024 * 1024), ...env }),
    );
    const { stream, counter } = createCountingStream(8 * 1024 * 1024);
    const response = await post("mailgun", {
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: stream,
      duplex: "half",
    } as RequestInit);
    expect(response.status).toBe(status);
    expect(counter.pulledBytes).toBeLessThanOrEqual(maxPulledBytes);
    expect(receiveMessage).not.toHaveBeenCalled();
  });
});
