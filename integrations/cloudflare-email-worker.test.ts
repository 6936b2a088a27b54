import { afterEach, describe, expect, it, vi } from "vitest";
import worker, { type EmailWorkerMessage } from "./cloudflare-email-worker.js";

const RAW = "From: bob@sender.example\r\nTo: alice@hookmail.test\r\nSubject: Hi\r\n\r\nHello\r\n";
const env = { HOOKMAIL_URL: "https://hookmail.example.com/", HOOKMAIL_INBOUND_SECRET: "inbound-secret-0123456789" };

function createMessage({ from = "bob@sender.example", to = "alice@hookmail.test" } = {}) {
  const rejections: string[] = [];
  const message: EmailWorkerMessage = {
    from,
    to,
    raw: new Blob([RAW]).stream(),
    setReject: (reason) => void rejections.push(reason),
  };
  return { message, rejections };
}

function stubFetch(answer: () => Promise<Response>) {
  const fetchMock = vi.fn((_url: string, _init: RequestInit) => answer());
  vi.stubGlobal("fetch", fetchMock);
  return fetchMock;
}

const jsonAnswer = (status: number, body: unknown) => () => Promise.resolve(Response.json(body, { status }));

afterEach(() => vi.unstubAllGlobals());

describe("the Cloudflare Email Worker", () => {
  it("posts the raw message to /api/inbound/raw with the secret and the envelope, and rejects nothing on 200", async () => {
    const fetchMock = stubFetch(jsonAnswer(200, { accepted: 1 }));
    const { message, rejections } = createMessage();

    await worker.email(message, env);

    expect(rejections).toEqual([]);
    expect(fetchMock).toHaveBeenCalledTimes(1);
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(url).toBe("https://hookmail.example.com/api/inbound/raw");
    expect(init.method).toBe("POST");
    expect(init.headers).toEqual({
      Authorization: "Bearer inbound-secret-0123456789",
      "Content-Type": "message/rfc822",
      "X-Envelope-From": "bob@sender.example",
      "X-Envelope-To": "alice@hookmail.test",
    });
    expect(Buffer.from(init.body as ArrayBuffer).toString()).toBe(RAW);
  });

  it("rejects the message for good on a 400, with Hookmail's reason", async () => {
    stubFetch(jsonAnswer(400, { error: { code: "inbound.invalid_message", message: "The body is not an email message." } }));
    const { message, rejections } = createMessage();

    await worker.email(message, env);

    expect(rejections).toEqual(["Rejected by Hookmail (400): The body is not an email message."]);
  });

  it("rejects on 413 (over MAX_MESSAGE_BYTES)", async () => {
    stubFetch(jsonAnswer(413, { error: { code: "inbound.payload_too_large", message: "too large" } }));
    const { message, rejections } = createMessage();
    await worker.email(message, env);
    expect(rejections).toHaveLength(1);
  });

  it("throws on a 503 so that Cloudflare answers a temporary failure and the sender retries", async () => {
    stubFetch(jsonAnswer(503, { error: { code: "inbound.not_configured", message: "INBOUND_SECRET is not set." } }));
    const { message, rejections } = createMessage();

    await expect(worker.email(message, env)).rejects.toThrow("Hookmail answered 503: INBOUND_SECRET is not set.");
    expect(rejections).toEqual([]);
  });

  it("throws, without rejecting, on 408, 429, on a misconfiguration (401, 404) and on a network error", async () => {
    for (const status of [408, 429, 401, 404]) {
      stubFetch(jsonAnswer(status, {}));
      const { message, rejections } = createMessage();
      await expect(worker.email(message, env)).rejects.toThrow(`Hookmail answered ${status}`);
      expect(rejections).toEqual([]);
    }
    stubFetch(() => Promise.reject(new TypeError("fetch failed")));
    const { message, rejections } = createMessage();
    await expect(worker.email(message, env)).rejects.toThrow("Hookmail could not be reached: fetch failed");
    expect(rejections).toEqual([]);
  });

  it("throws when its settings are missing", async () => {
    const fetchMock = stubFetch(jsonAnswer(200, {}));
    await expect(worker.email(createMessage().message, { HOOKMAIL_URL: "https://x.example" })).rejects.toThrow(
      "HOOKMAIL_INBOUND_SECRET",
    );
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it("sends an internationalised address as its UTF-8 bytes", async () => {
    const fetchMock = stubFetch(jsonAnswer(200, { accepted: 1 }));
    await worker.email(createMessage({ to: "j\u00f6rg@hookmail.test" }).message, env);
    const headers = fetchMock.mock.calls[0]![1].headers as Record<string, string>;
    expect(Buffer.from(headers["X-Envelope-To"]!, "latin1").toString("utf8")).toBe("j\u00f6rg@hookmail.test");
  });
});
