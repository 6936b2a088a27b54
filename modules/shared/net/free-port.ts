// A loopback TCP port free at the moment of asking (the kernel picks it): for servers started on
// "any free port", such as the embedded PostgreSQL server, and for tests and benchmarks.
import net from "node:net";

export function findFreePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}
