// The app's route handlers behind a minimal node:http → Request adapter (what the custom server and
// Next do for a route handler), for the benchmarks' product processes (bench/*.product.ts): the body
// arrives as a stream, as it would from a socket, and the answer is written back whole.
import http from "node:http";
import type { AddressInfo } from "node:net";

export type RouteServer = { port: number; close: () => Promise<void> };

/** The Web Request a route handler gets for `incoming`: its method, URL and headers, and `body` when given. */
export function toRouteRequest(incoming: http.IncomingMessage, body?: ReadableStream<Uint8Array>): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(incoming.headers)) {
    if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(", ") : value);
  }
  return new Request(`http://localhost${incoming.url ?? "/"}`, {
    method: incoming.method,
    headers,
    ...(body ? { body, duplex: "half" } : {}),
  } as RequestInit);
}

/** Serves `answer` on a free loopback port; a handler that throws answers 500 with the error. */
export async function startRouteServer(answer: (incoming: http.IncomingMessage) => Promise<Response>): Promise<RouteServer> {
  const server = http.createServer((incoming, outgoing) => {
    answer(incoming)
      .then(async (response) => {
        outgoing.writeHead(response.status, { "content-type": response.headers.get("content-type") ?? "text/plain" });
        outgoing.end(await response.text());
      })
      .catch((error: unknown) => {
        outgoing.writeHead(500);
        outgoing.end(String(error));
      });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    port: (server.address() as AddressInfo).port,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
