// Saving a webhook URL runs the SSRF check of docs/security.md: every IPv6 form that reaches a
// non-global address is refused, and the answer says only that the URL is not allowed.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as collection from "@/app/api/email-callbacks/route";
import { type RouteTestApp, startRouteTestApp, type TestUser } from "@/tests/support/route-test-app";

let app: RouteTestApp;
let owner: TestUser;

const create = (webhookUrl: string) =>
  app.call(collection.POST, {
    path: "/api/email-callbacks",
    method: "POST",
    body: {
      domain: "hookmail.test",
      username: `user-${Math.random().toString(36).slice(2, 10)}`,
      webhookUrl,
      allowedOrigins: [],
    },
    headers: owner.headers,
  });

beforeAll(async () => {
  app = await startRouteTestApp({ WEBHOOK_ALLOW_PRIVATE_TARGETS: "false" });
  owner = await app.signUp("owner");
});
afterAll(() => app.close());

describe("saving a webhook URL that reaches a non-global address", () => {
  it.each([
    ["an IPv4-mapped loopback address", "http://[::ffff:127.0.0.1]:8080/hook", "127.0.0.1"],
    ["an IPv4-compatible loopback address", "http://[::127.0.0.1]/hook", "127.0.0.1"],
    ["an IPv4-translated private address", "http://[::ffff:0:10.0.0.1]/hook", "10.0.0.1"],
    ["a NAT64 form of the metadata address", "http://[64:ff9b::169.254.169.254]/latest", "169.254.169.254"],
    ["a local-use NAT64 address", "http://[64:ff9b:1::808:808]/hook", "64:ff9b:1"],
    ["a 6to4 form of a private address", "http://[2002:c0a8:101::1]/hook", "192.168"],
    ["a Teredo address", "http://[2001:0:4136:e378:8000:63bf:80ff:fffe]/hook", "2001:0"],
    ["a site-local address", "http://[fec0::1]/hook", "fec0"],
    ["a discard-only address", "http://[100::1]/hook", "100::"],
    ["a unique local address", "http://[fd00:ec2::254]/hook", "fd00"],
    ["localhost (which resolves to loopback)", "http://localhost:3000/hook", "127.0.0.1"],
  ])("refuses %s with 400 email_callback.webhook_url_not_allowed, naming no address", async (_label, webhookUrl, address) => {
    const response = await create(webhookUrl);
    expect(response.status).toBe(400);
    expect(response.body?.error).toMatchObject({
      code: "email_callback.webhook_url_not_allowed",
      message: "The webhook URL is not allowed: it must lead to a public address.",
    });
    expect(JSON.stringify(response.body)).not.toContain(address);
  });

  it("accepts a global unicast IPv6 literal", async () => {
    const response = await create("https://[2606:4700:4700::1111]/hook");
    expect(response.status).toBe(201);
  });
});
