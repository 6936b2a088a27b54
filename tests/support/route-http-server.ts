// The app's API route handlers served over real HTTP on a free loopback port, for tests of programs
// that talk to Hookmail over the network (the `hookmail` command) without a Next.js build: each
// request becomes the Web Request the handler gets under Next.js (body streamed, signal aborted
// when the client goes away), and the handler's Response is streamed back as the client takes it.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { Readable } from "node:stream";
import type { RouteHandler } from "./route-test-app";

export type HttpRoute = {
  method: string;
  /** A path with `:name` segments, e.g. /api/email-callbacks/:emailCallbackId/events */
  path: string;
  handler: RouteHandler<any>;
};

export type RouteHttpServer = {
  baseUrl: string;
  /** Drops every open connection, as a network loss would (the server keeps listening). */
  dropConnections: () => void;
  close: () => Promise<void>;
};

function matchPath(pattern: string, pathname: string): Record<string, string> | null {
  const expected = pattern.split("/");
  const actual = pathname.split("/");
  if (expected.length !== actual.length) return null;
  const params: Record<string, string> = {};
  for (const [index, segment] of expected.entries()) {
    const value = actual[index] ?? "";
    if (segment.startsWith(":")) params[segment.slice(1)] = decodeURIComponent(value);
    else if (segment !== value) return null;
  }
  return params;
}

function waitForDrain(outgoing: http.ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      outgoing.off("drain", done).off("close", done);
      resolve();
    };
    outgoing.on("drain", done).on("close", done);
  });
}

export async function startRouteHttpServer(routes: HttpRoute[]): Promise<RouteHttpServer> {
  const server = http.createServer((incoming, outgoing) => {
    void serve(incoming, outgoing).catch((error: unknown) => {
      if (!outgoing.headersSent) outgoing.writeHead(500);
      outgoing.end(String(error));
    });
  });

  async function serve(incoming: http.IncomingMessage, outgoing: http.ServerResponse) {
    const url = new URL(incoming.url ?? "/", baseUrl);
    const method = incoming.method ?? "GET";
    const route = routes
      .map((candidate) => ({ candidate, params: matchPath(candidate.path, url.pathname) }))
      .find(({ candidate, params }) => params && candidate.method === method);
    if (!route?.params) {
      outgoing.writeHead(404, { "Content-Type": "application/json" });
      outgoing.end(JSON.stringify({ error: { code: "resource.not_found", message: "No such route." } }));
      return;
    }
    const gone = new AbortController();
    outgoing.on("close", () => gone.abort());
    const headers = new Headers();
    for (const [name, value] of Object.entries(incoming.headers)) {
      for (const item of Array.isArray(value) ? value : [value]) if (item !== undefined) headers.append(name, item);
    }
    const hasBody = method !== "GET" && method !== "HEAD";
    const request = new Request(url, {
      method,
      headers,
      body: hasBody ? (Readable.toWeb(incoming) as ReadableStream<Uint8Array>) : undefined,
      signal: gone.signal,
      // @ts-expect-error Node's fetch needs it for a streamed body; the DOM types do not know it.
      duplex: "half",
    });
    const response = await route.candidate.handler(request, { params: Promise.resolve(route.params) });
    outgoing.writeHead(response.status, Object.fromEntries(response.headers));
    outgoing.flushHeaders();
    if (!response.body) {
      outgoing.end();
      return;
    }
    const reader = response.body.getReader();
    gone.signal.addEventListener("abort", () => void reader.cancel().catch(() => undefined), { once: true });
    for (;;) {
      // A body that fails midway closes the connection, as Next.js does: the client sees it cut short.
      const read = await reader.read().catch(() => null);
      if (!read) {
        outgoing.destroy();
        return;
      }
      const { done, value } = read;
      if (done || outgoing.destroyed) break;
      // As Next.js does: the next chunk is read once the socket took this one, so a client that
      // reads nothing holds the handler's stream still.
      if (!outgoing.write(value)) await waitForDrain(outgoing);
    }
    outgoing.end();
  }

  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    baseUrl,
    dropConnections: () => server.closeAllConnections(),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
