// The webhook receiver of the tests and benchmarks: a node:http server on 127.0.0.1 that records
// every connection and request (exact body bytes included, and when it arrived) and answers from a
// queue of scripted replies, or as `decide` says. The reliability tests' signature-checking sink and
// the benchmarks' arrival clock are built on it.
import http from "node:http";
import type { AddressInfo } from "node:net";

export type SinkRequest = {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  /** The body's bytes (empty when the sink was started with `keepBodies: false`). */
  body: Buffer;
  /** performance.now() when the request's headers arrived. */
  arrivedAt: number;
};

/** What the sink does with one request: answer, or keep the connection open without answering. */
export type SinkReply =
  | { status: number; headers?: Record<string, string>; body?: string | Buffer; keepOpenAfterBody?: boolean; delayMs?: number }
  | { hang: true };

export type WebhookSink = {
  url: (path?: string) => string;
  port: number;
  requests: SinkRequest[];
  /** TCP connections accepted, requests or not. */
  connectionCount: () => number;
  /** The most requests that were waiting for their answer at one time. */
  maxConcurrentRequests: () => number;
  /** Replies to the next requests, in order; afterwards `200 ok`. */
  reply: (...replies: SinkReply[]) => void;
  /** Forgets the recorded requests, the unused replies and the concurrency peak. */
  reset: () => void;
  /** Resolves once `count` requests have arrived. */
  waitForRequests: (count: number) => Promise<void>;
  close: () => Promise<void>;
};

export async function startWebhookSink({
  decide,
  onRequest,
  keepBodies = true,
}: {
  /** The reply to a request, given its body; replies queued with `reply` come first, `200 ok` when neither says. */
  decide?: (request: SinkRequest, body: Buffer) => SinkReply | undefined;
  /** Called with each request and its body as it ends, after it is recorded. */
  onRequest?: (request: SinkRequest, body: Buffer) => void;
  /** Keep each body in `requests` (a benchmark of many mails need not). */
  keepBodies?: boolean;
} = {}): Promise<WebhookSink> {
  const requests: SinkRequest[] = [];
  const replies: SinkReply[] = [];
  let connections = 0;
  let openRequests = 0;
  let maxOpenRequests = 0;
  let waiters: { count: number; resolve: () => void }[] = [];

  const server = http.createServer((request, response) => {
    const arrivedAt = performance.now();
    const chunks: Buffer[] = [];
    openRequests += 1;
    maxOpenRequests = Math.max(maxOpenRequests, openRequests);
    response.on("close", () => {
      openRequests -= 1;
    });
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("error", () => undefined);
    request.on("end", () => {
      const body = Buffer.concat(chunks);
      const recorded: SinkRequest = {
        method: request.method ?? "",
        path: request.url ?? "",
        headers: request.headers,
        body: keepBodies ? body : Buffer.alloc(0),
        arrivedAt,
      };
      requests.push(recorded);
      waiters = waiters.filter((waiter) => {
        if (requests.length < waiter.count) return true;
        waiter.resolve();
        return false;
      });
      onRequest?.(recorded, body);
      const next = replies.shift() ?? decide?.(recorded, body) ?? { status: 200, body: "ok" };
      if ("hang" in next) return;
      const answer = () => {
        response.writeHead(next.status, next.headers);
        if (next.keepOpenAfterBody) response.write(next.body ?? "");
        else response.end(next.body ?? "");
      };
      if (next.delayMs) setTimeout(answer, next.delayMs);
      else answer();
    });
  });
  server.on("connection", () => {
    connections += 1;
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;

  return {
    port,
    url: (path = "/hook") => `http://127.0.0.1:${port}${path}`,
    requests,
    connectionCount: () => connections,
    maxConcurrentRequests: () => maxOpenRequests,
    reply: (...next) => {
      replies.push(...next);
    },
    reset: () => {
      requests.length = 0;
      replies.length = 0;
      maxOpenRequests = openRequests;
    },
    waitForRequests: (count) =>
      requests.length >= count ? Promise.resolve() : new Promise<void>((resolve) => waiters.push({ count, resolve })),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
