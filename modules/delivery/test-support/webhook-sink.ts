// A webhook receiver for tests: a node:http server on 127.0.0.1 that records every connection and
// request (exact body bytes included) and answers from a queue of scripted replies.
import http from "node:http";
import type { AddressInfo } from "node:net";

export type SinkRequest = { method: string; path: string; headers: http.IncomingHttpHeaders; body: Buffer };

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

export async function startWebhookSink(): Promise<WebhookSink> {
  const requests: SinkRequest[] = [];
  const replies: SinkReply[] = [];
  let connections = 0;
  let openRequests = 0;
  let maxOpenRequests = 0;
  let waiters: { count: number; resolve: () => void }[] = [];

  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    openRequests += 1;
    maxOpenRequests = Math.max(maxOpenRequests, openRequests);
    response.on("close", () => {
      openRequests -= 1;
    });
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      requests.push({
        method: request.method ?? "",
        path: request.url ?? "",
        headers: request.headers,
        body: Buffer.concat(chunks),
      });
      waiters = waiters.filter((waiter) => {
        if (requests.length < waiter.count) return true;
        waiter.resolve();
        return false;
      });
      const next = replies.shift() ?? { status: 200, body: "ok" };
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
