// The webhook HTTP client against real loopback servers: what it reports, what it reads, when it
// gives up, and the connect-time SSRF check (no connection at all to a refused address).
import http from "node:http";
import net, { type AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startWebhookSink, type WebhookSink } from "@/tests/support/webhook-sink";
import { isSocketAddressAllowed, postWebhook, type WebhookRequest } from "./webhook-client";

let sink: WebhookSink;
beforeAll(async () => {
  sink = await startWebhookSink();
});
afterAll(() => sink.close());
afterEach(() => {
  sink.requests.length = 0;
});

const body = '{"type":"email.received","data":{"subject":"Grüße"}}';
const post = (overrides: Partial<WebhookRequest> = {}) =>
  postWebhook({
    url: sink.url(),
    headers: { "Content-Type": "application/json", "webhook-id": "ep_test" },
    body,
    timeoutMs: 2000,
    allowPrivateTargets: true,
    ...overrides,
  });

describe("postWebhook responses", () => {
  it("POSTs the exact body bytes with the given headers and reports the status, duration and body", async () => {
    sink.reply({ status: 202, body: "accepted, thanks" });
    const result = await post();
    expect(result).toMatchObject({ kind: "response", statusCode: 202, bodyExcerpt: "accepted, thanks" });
    expect(result.durationMs).toBeGreaterThanOrEqual(0);
    const [request] = sink.requests;
    expect(request?.method).toBe("POST");
    expect(request?.path).toBe("/hook");
    expect(request?.body.equals(Buffer.from(body, "utf8"))).toBe(true);
    expect(request?.headers["content-type"]).toBe("application/json");
    expect(request?.headers["webhook-id"]).toBe("ep_test");
    expect(request?.headers["content-length"]).toBe(String(Buffer.byteLength(body)));
  });

  it("reuses one connection for attempts that follow each other, once each response was read to its end", async () => {
    const own = await startWebhookSink();
    try {
      for (let attempt = 0; attempt < 3; attempt += 1) {
        expect(await post({ url: own.url() })).toMatchObject({ kind: "response", statusCode: 200 });
      }
      expect(own.requests).toHaveLength(3);
      expect(own.connectionCount()).toBe(1);
    } finally {
      await own.close();
    }
  });

  it("opens a new connection after a response it stopped reading, rather than reuse that one", async () => {
    const own = await startWebhookSink();
    try {
      own.reply({ status: 500, body: "z".repeat(64 * 1024) });
      expect(await post({ url: own.url() })).toMatchObject({ kind: "response", statusCode: 500 });
      expect(await post({ url: own.url() })).toMatchObject({ kind: "response", statusCode: 200 });
      expect(own.connectionCount()).toBe(2);
    } finally {
      await own.close();
    }
  });

  it("keeps only the first 1 KiB of a large response body", async () => {
    sink.reply({ status: 500, body: "x".repeat(1024) + "y".repeat(200_000) });
    const result = await post();
    expect(result).toMatchObject({ kind: "response", statusCode: 500 });
    expect(result.kind === "response" && result.bodyExcerpt).toBe("x".repeat(1024));
  });

  it("stops reading after 1 KiB instead of waiting for a body that never ends", async () => {
    sink.reply({ status: 200, body: "z".repeat(4096), keepOpenAfterBody: true });
    const result = await post({ timeoutMs: 5000 });
    expect(result).toMatchObject({ kind: "response", statusCode: 200, bodyExcerpt: "z".repeat(1024) });
    expect(result.durationMs).toBeLessThan(2000);
  });

  it("keeps a status that arrived in time when the body then stalls past the timeout", async () => {
    sink.reply({ status: 200, body: "partial", keepOpenAfterBody: true });
    const result = await post({ timeoutMs: 300 });
    expect(result).toMatchObject({ kind: "response", statusCode: 200, bodyExcerpt: "partial" });
  });

  it("does not follow a redirect: the 3xx and its Location are the result", async () => {
    sink.reply({ status: 302, headers: { Location: sink.url("/elsewhere") } });
    const result = await post();
    expect(result).toMatchObject({ kind: "response", statusCode: 302, location: sink.url("/elsewhere") });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(sink.requests.map(({ path }) => path)).toEqual(["/hook"]);
  });

  it("reads Retry-After in seconds", async () => {
    sink.reply({ status: 429, headers: { "Retry-After": "120" } });
    expect(await post()).toMatchObject({ kind: "response", statusCode: 429, retryAfterMs: 120_000 });
  });

  it("replaces NUL characters so the excerpt can be stored as text", async () => {
    sink.reply({ status: 400, body: Buffer.from([0x61, 0x00, 0x62]) });
    expect(await post()).toMatchObject({ bodyExcerpt: "a\uFFFDb" });
  });
});

/** A body stored in slices, as the delivery repository opens it; `short` ends it before its length. */
function storedBody(slices: Buffer[], { short = false } = {}) {
  const byteLength = slices.reduce((total, slice) => total + slice.byteLength, 0);
  let opened = 0;
  return {
    byteLength,
    openedCount: () => opened,
    open: async () => {
      opened += 1;
      const queue = short ? slices.slice(0, -1) : [...slices];
      return new ReadableStream<Uint8Array>({
        pull: (controller) => (queue.length ? controller.enqueue(queue.shift()!) : controller.close()),
      });
    },
  };
}

describe("postWebhook with a stored body", () => {
  it("sends a body stored in slices byte for byte with its whole Content-Length, reading it once", async () => {
    const slices = [Buffer.alloc(300_000, "a"), Buffer.alloc(300_000, "b"), Buffer.from("end")];
    const body = storedBody(slices);
    expect(await post({ body })).toMatchObject({ kind: "response", statusCode: 200 });
    const [request] = sink.requests;
    expect(request?.headers["content-length"]).toBe(String(body.byteLength));
    expect(request?.body.equals(Buffer.concat(slices))).toBe(true);
    expect(body.openedCount()).toBe(1);
  });

  it("fails as a network error, and sends no complete request, when the stored body ends before its length", async () => {
    const result = await post({ body: storedBody([Buffer.alloc(1000, "a"), Buffer.alloc(1000, "b")], { short: true }) });
    expect(result).toMatchObject({ kind: "network-error", error: expect.stringContaining("the stored body could not be read") });
    expect(sink.requests).toHaveLength(0);
  });

  it("fails as a network error when the stored body is gone", async () => {
    const result = await post({ body: { byteLength: 10, open: async () => null } });
    expect(result).toMatchObject({ kind: "network-error", error: expect.stringContaining("went before it was sent") });
  });
});

describe("postWebhook failures", () => {
  it("reports a timeout when no answer comes within timeoutMs", async () => {
    sink.reply({ hang: true });
    const startedAt = Date.now();
    const result = await post({ timeoutMs: 300 });
    expect(result).toMatchObject({ kind: "timeout" });
    expect(result.durationMs).toBeGreaterThanOrEqual(290);
    expect(Date.now() - startedAt).toBeLessThan(2000);
  });

  it("counts name resolution inside the timeout", async () => {
    const result = await post({
      url: `http://slow-dns.test:${sink.port}/hook`,
      timeoutMs: 200,
      resolve: () => new Promise((resolve) => setTimeout(() => resolve(["127.0.0.1"]), 1000)),
    });
    expect(result).toMatchObject({ kind: "timeout" });
    expect(sink.requests).toHaveLength(0);
  });

  it("reports a refused connection as a network error", async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise((resolve) => closed.close(resolve));
    const result = await post({ url: `http://127.0.0.1:${port}/hook` });
    expect(result).toMatchObject({ kind: "network-error", error: expect.stringMatching(/ECONNREFUSED/) });
  });

  it("reports a name that does not resolve as a network error", async () => {
    const result = await post({
      url: "http://nowhere.invalid/hook",
      resolve: () => Promise.reject(Object.assign(new Error("getaddrinfo ENOTFOUND nowhere.invalid"), { code: "ENOTFOUND" })),
    });
    expect(result).toMatchObject({ kind: "network-error", error: expect.stringMatching(/ENOTFOUND/) });
  });

  it("stops when its signal aborts", async () => {
    sink.reply({ hang: true });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const result = await post({ signal: controller.signal, timeoutMs: 5000 });
    expect(result).toMatchObject({ kind: "network-error", error: expect.stringMatching(/aborted/) });
  });

  it("refuses schemes other than http and https", async () => {
    expect(await post({ url: "file:///etc/passwd" })).toMatchObject({ kind: "blocked-target" });
  });
});

describe("postWebhook SSRF check at connect time", () => {
  const refuse = () => Promise.reject(new Error("the resolver must not be asked"));

  it.each([
    ["127.0.0.1", (port: number) => `http://127.0.0.1:${port}/hook`],
    ["localhost (system resolver)", (port: number) => `http://localhost:${port}/hook`],
    ["[::1]", (port: number) => `http://[::1]:${port}/hook`],
    ["10.0.0.1", (port: number) => `http://10.0.0.1:${port}/hook`],
    ["172.16.0.1", (port: number) => `http://172.16.0.1:${port}/hook`],
    ["192.168.0.1", (port: number) => `http://192.168.0.1:${port}/hook`],
    ["169.254.169.254 (metadata)", () => "http://169.254.169.254/latest/meta-data/"],
    ["0.0.0.0", (port: number) => `http://0.0.0.0:${port}/hook`],
    ["[::ffff:127.0.0.1]", (port: number) => `http://[::ffff:127.0.0.1]:${port}/hook`],
    ["decimal 2130706433", (port: number) => `http://2130706433:${port}/`],
    ["octal 0177.0.0.1", (port: number) => `http://0177.0.0.1:${port}/`],
    ["hex 0x7f.1", (port: number) => `https://0x7f.1:${port}/`],
    ["[::] (unspecified)", (port: number) => `http://[::]:${port}/`],
    ["[::127.0.0.1] (IPv4-compatible)", (port: number) => `http://[::127.0.0.1]:${port}/`],
    ["[::ffff:0:127.0.0.1] (IPv4-translated)", (port: number) => `http://[::ffff:0:127.0.0.1]:${port}/`],
    ["[64:ff9b::127.0.0.1] (NAT64)", (port: number) => `http://[64:ff9b::127.0.0.1]:${port}/`],
    ["[64:ff9b:1::808:808] (local-use NAT64)", (port: number) => `http://[64:ff9b:1::808:808]:${port}/`],
    ["[2002:7f00:1::1] (6to4)", (port: number) => `http://[2002:7f00:1::1]:${port}/`],
    [
      "[2001:0:4136:e378:8000:63bf:80ff:fffe] (Teredo)",
      (port: number) => `http://[2001:0:4136:e378:8000:63bf:80ff:fffe]:${port}/`,
    ],
    ["[fec0::1] (site-local)", (port: number) => `http://[fec0::1]:${port}/`],
    ["[100::1] (discard-only)", (port: number) => `http://[100::1]:${port}/`],
    ["[fe80::1] (link-local)", (port: number) => `http://[fe80::1]:${port}/`],
  ])("refuses %s without connecting, saying only that the URL is not allowed", async (_label, toUrl) => {
    const connectionsBefore = sink.connectionCount();
    const resolve = toUrl(sink.port).includes("localhost") ? undefined : refuse;
    const result = await post({
      url: toUrl(sink.port),
      allowPrivateTargets: false,
      timeoutMs: 1000,
      ...(resolve ? { resolve } : {}),
    });
    expect(result).toMatchObject({
      kind: "blocked-target",
      error: "the webhook URL is not allowed: it must lead to a public address",
    });
    expect(sink.connectionCount()).toBe(connectionsBefore);
    expect(sink.requests).toHaveLength(0);
  });

  it.each([
    ["a private address", ["10.0.0.5"]],
    ["a public and a private address", ["93.184.216.34", "10.0.0.5"]],
    ["a loopback address", ["127.0.0.1"]],
    ["an IPv4-mapped loopback address", ["::ffff:127.0.0.1"]],
    ["a NAT64 form of a private address", ["64:ff9b::a00:5"]],
    ["a 6to4 form of the metadata address", ["2002:a9fe:a9fe::1"]],
    ["a site-local address", ["fec0::5"]],
  ])("refuses a name resolving to %s without connecting, and does not tell which address", async (_label, addresses) => {
    const connectionsBefore = sink.connectionCount();
    const result = await post({
      url: `http://hooks.rebind.test:${sink.port}/hook`,
      allowPrivateTargets: false,
      resolve: async () => addresses,
    });
    expect(result).toMatchObject({
      kind: "blocked-target",
      error: "the webhook URL is not allowed: it must lead to a public address",
    });
    for (const address of addresses) expect(result.kind === "blocked-target" && result.error).not.toContain(address);
    expect(sink.connectionCount()).toBe(connectionsBefore);
  });

  it("judges the remote address of a connected (kept-alive) socket again: loopback is refused unless private targets are allowed", async () => {
    const socket = net.connect(sink.port, "127.0.0.1");
    await new Promise<void>((resolve, reject) => socket.once("connect", resolve).once("error", reject));
    try {
      expect(socket.remoteAddress).toBe("127.0.0.1");
      expect(isSocketAddressAllowed(socket, false)).toBe(false);
      expect(isSocketAddressAllowed(socket, true)).toBe(true);
      expect(isSocketAddressAllowed(new net.Socket(), false)).toBe(true);
    } finally {
      socket.destroy();
    }
  });

  it("connects to the very address it checked when private targets are allowed", async () => {
    const asked: string[] = [];
    const result = await post({
      url: `http://sink.test:${sink.port}/hook`,
      allowPrivateTargets: true,
      resolve: async (hostname) => {
        asked.push(hostname);
        return ["127.0.0.1"];
      },
    });
    expect(result).toMatchObject({ kind: "response", statusCode: 200 });
    expect(asked).toEqual(["sink.test"]);
    expect(sink.requests[0]?.headers.host).toBe(`sink.test:${sink.port}`);
  });

  it("reaches a literal loopback address when private targets are allowed", async () => {
    expect(await post({ url: `http://2130706433:${sink.port}/hook`, allowPrivateTargets: true })).toMatchObject({
      kind: "response",
      statusCode: 200,
    });
  });
});
