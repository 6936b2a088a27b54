// The web role's request listener over real HTTP on loopback, with a stand-in for Next.js's
// handler: a path with a malformed percent-escape is answered before Next.js sees it (Next.js's
// router answers it with a plain 500), an API path in the API's error shape (docs/security.md).
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "@/modules/config/config";
import { createWebRequestListener } from "./web-role";

let server: http.Server;
const reachedNext: string[] = [];

beforeAll(async () => {
  const config = loadConfig({ DATA_DIR: "/tmp/hookmail-web-role-test" });
  server = http.createServer(
    createWebRequestListener({
      config,
      auth: () => Promise.reject(new Error("no session is checked in these tests")),
      handle: async (request, response) => {
        reachedNext.push(request.url ?? "");
        response.end("answered by Next.js");
      },
    }),
  );
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

/** A request with its path sent exactly as written (fetch's URL parser would not change these, but a raw request says so plainly). */
function get(path: string): Promise<{ status: number; headers: http.IncomingHttpHeaders; text: string }> {
  const { port } = server.address() as AddressInfo;
  return new Promise((resolve, reject) => {
    http
      .get({ host: "127.0.0.1", port, path, agent: false }, (response) => {
        let text = "";
        response.setEncoding("utf8");
        response.on("data", (chunk: string) => {
          text += chunk;
        });
        response.on("end", () => resolve({ status: response.statusCode ?? 0, headers: response.headers, text }));
      })
      .on("error", reject);
  });
}

describe("a path with a malformed percent-escape (docs/security.md)", () => {
  it("answers an API path 404 resource.not_found in the API's error shape, before Next.js", async () => {
    for (const path of [
      "/api/email-callbacks/%E0%A4%A",
      "/api/email-callbacks/%E0%A4%A/processings?pageIndex=0",
      "/api/email-callbacks/ecb_x/processings/%",
      "/api/users/%zz",
      "/api/auth/reset-password/%C0%AF",
    ]) {
      const response = await get(path);
      expect(response.status, path).toBe(404);
      expect(response.headers["content-type"]).toBe("application/json");
      expect(JSON.parse(response.text)).toEqual({
        error: { code: "resource.not_found", message: "The resource was not found." },
      });
      expect(response.headers["x-content-type-options"]).toBe("nosniff");
    }
    expect(reachedNext).toEqual([]);
  });

  it("answers a page path 400 in plain text, and lets a well-formed escape through to Next.js", async () => {
    const page = await get("/email-callbacks/%E0%A4%A");
    expect(page.status).toBe(400);
    expect(page.text).toMatch(/malformed percent-escape/);
    expect(reachedNext).toEqual([]);
    const wellFormed = await get("/api/email-callbacks/%E0%A4%A4?q=%");
    expect(wellFormed).toMatchObject({ status: 200, text: "answered by Next.js" });
    expect(reachedNext).toEqual(["/api/email-callbacks/%E0%A4%A4?q=%"]);
  });
});
