// The web role: Next.js (pages, API routes and the auth endpoints) on PORT.
import http from "node:http";
import next from "next";
import { CLIENT_IP_HEADER } from "@/modules/auth/auth.constants";
import type { Config } from "@/modules/config/config";

export type RunningRole = { name: string; stop: () => Promise<void> };

export async function startWebRole({ config, projectDir }: { config: Config; projectDir: string }): Promise<RunningRole> {
  const app = next({ dev: false, dir: projectDir, port: config.port });
  await app.prepare();
  const handle = app.getRequestHandler();
  const server = http.createServer((request, response) => {
    // The rate limiter keys on the connecting address; a client cannot choose it.
    request.headers[CLIENT_IP_HEADER] = request.socket.remoteAddress ?? "";
    void handle(request, response);
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(config.port, () => resolve());
  });
  return {
    name: "web",
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
