// Route handlers served over real HTTP with Next.js's own pieces, for tests of what a response
// costs when its client misbehaves: the request's signal is Next's (aborted when the connection
// closes before the response finished) and the body is piped by Next's pipeToNodeResponse (a chunk
// is read once the socket took the last; a body that errors aborts the response only once the write
// under way is done). The server closes a connection on which nothing moves for `idleTimeoutMs`, as
// the web role does (modules/server/web-role.ts).
import http from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { pipeToNodeResponse } from "next/dist/server/pipe-readable";
import { signalFromNodeResponse } from "next/dist/server/web/spec-extension/adapters/next-request";
import type { RouteHandler } from "./route-test-app";

export type NextRouteServer = {
  baseUrl: string;
  /** The connections open now, as the server sees them. */
  countConnections: () => number;
  close: () => Promise<void>;
};

/** `routes` maps a path pattern with `:name` segments (e.g. /api/email-callbacks/:emailCallbackId/events) to its GET handler. */
export async function startNextRouteServer(
  routes: Record<string, RouteHandler<any>>,
  { idleTimeoutMs }: { idleTimeoutMs: number },
): Promise<NextRouteServer> {
  const patterns = Object.entries(routes).map(([pattern, handler]) => ({
    names: [...pattern.matchAll(/:(\w+)/g)].map((match) => match[1]!),
    regex: new RegExp(`^${pattern.replace(/:\w+/g, "([^/]+)")}$`),
    handler,
  }));
  const sockets = new Set<Socket>();
  const server = http.createServer(async (incoming, outgoing) => {
    const url = new URL(incoming.url ?? "/", baseUrl);
    const route = patterns
      .map((candidate) => ({ candidate, match: candidate.regex.exec(url.pathname) }))
      .find(({ match }) => match);
    if (!route?.match) {
      outgoing.writeHead(404).end();
      return;
    }
    const params = Object.fromEntries(
      route.candidate.names.map((name, index) => [name, decodeURIComponent(route.match![index + 1]!)]),
    );
    const headers = new Headers();
    for (const [name, value] of Object.entries(incoming.headers)) if (typeof value === "string") headers.set(name, value);
    const request = new Request(url, { headers, signal: signalFromNodeResponse(outgoing) });
    const response = await route.candidate.handler(request, { params: Promise.resolve(params) });
    outgoing.writeHead(response.status, Object.fromEntries(response.headers));
    if (!response.body) {
      outgoing.end();
      return;
    }
    await pipeToNodeResponse(response.body, outgoing).catch(() => undefined);
  });
  server.timeout = idleTimeoutMs;
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.once("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    baseUrl,
    countConnections: () => sockets.size,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
