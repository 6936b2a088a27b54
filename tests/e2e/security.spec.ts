// Security headers on every response, no page broken by the content security policy, and no
// write from a page on another port of the same host (docs/security.md).
import http from "node:http";
import { type APIResponse, expect, type Response, test } from "@playwright/test";
import { createEmailCallbackThroughApi } from "./support/api";
import { signUpThroughApi } from "./support/auth";
import { DEFAULT_SERVER } from "./support/servers";

function expectSecurityHeaders(headers: Record<string, string>, what: string) {
  expect(headers["content-security-policy"], what).toContain("frame-ancestors 'none'");
  expect(headers["x-frame-options"], what).toBe("DENY");
  expect(headers["x-content-type-options"], what).toBe("nosniff");
  expect(headers["referrer-policy"], what).toBe("strict-origin-when-cross-origin");
  // The test server's BASE_URL is http: no HSTS.
  expect(headers["strict-transport-security"], what).toBeUndefined();
}

test("pages, API responses, errors and static files carry the security headers", async ({ page }) => {
  const loginPage = (await page.goto("/login")) as Response;
  expectSecurityHeaders(loginPage.headers(), "the /login page");
  const redirect = await page.request.get("/", { maxRedirects: 0 });
  expectSecurityHeaders(redirect.headers(), "the guard's redirect");
  const responses: [string, APIResponse][] = [
    ["GET /api/config", await page.request.get("/api/config")],
    ["a 401 from the API", await page.request.get("/api/email-callbacks")],
    ["a 404 page", await page.request.get("/this/does/not/exist")],
  ];
  const script = await page.locator("script[src*='/_next/static/']").first().getAttribute("src");
  responses.push(["a static script", await page.request.get(script!)]);
  for (const [what, response] of responses) expectSecurityHeaders(response.headers(), what);
});

test("the content security policy breaks no page: no violation while signed out and signed in", async ({ page }) => {
  const violations: string[] = [];
  page.on("console", (message) => {
    if (/content security policy/i.test(message.text())) violations.push(`${page.url()}: ${message.text()}`);
  });
  for (const path of ["/login", "/register", "/request-password-reset"]) {
    await page.goto(path);
    await expect(page.getByRole("button").first()).toBeVisible();
  }
  await signUpThroughApi(page.request);
  const { id } = await createEmailCallbackThroughApi(page.request, `csp-${Date.now()}`);
  for (const path of ["/email-callbacks", `/email-callbacks/${id}`, "/api-keys", "/settings", "/webhooks"]) {
    await page.goto(path);
    await expect(page.getByRole("banner")).toBeVisible();
  }
  expect(violations).toEqual([]);
});

test("a page on another port of the same host cannot create an API key or an address with the user's cookie", async ({
  page,
}) => {
  await signUpThroughApi(page.request);
  // A page served from localhost:4999: the same site (cookies go along), another origin.
  const attacker = http.createServer((_, response) => {
    response.setHeader("Content-Type", "text/html");
    response.end("<!doctype html><title>elsewhere</title>");
  });
  await new Promise<void>((resolve) => attacker.listen(4999, "127.0.0.1", resolve));
  try {
    await page.goto("http://localhost:4999/");
    const outcomes = await page.evaluate(async (target) => {
      const send = (path: string, body: unknown, init: RequestInit) =>
        fetch(`${target}${path}`, { method: "POST", credentials: "include", body: JSON.stringify(body), ...init }).then(
          (response) => `status ${response.status}`,
          (error: unknown) => `failed: ${String(error)}`,
        );
      const address = {
        domain: "hookmail.test",
        username: `stolen-${Date.now()}`,
        webhookUrl: "https://evil.example/hook",
        allowedOrigins: [],
      };
      return [
        // "Simple" requests: no preflight, the cookie goes along, the answer is opaque.
        await send("/api/api-keys", { name: "stolen" }, { mode: "no-cors", headers: { "Content-Type": "text/plain" } }),
        await send("/api/email-callbacks", address, { mode: "no-cors", headers: { "Content-Type": "text/plain" } }),
      ];
    }, DEFAULT_SERVER.url);
    // Sent (an opaque answer), not blocked by the browser: the server is what refused them.
    expect(outcomes).toEqual(["status 0", "status 0"]);
  } finally {
    attacker.close();
  }
  const keys = (await (await page.request.get(`${DEFAULT_SERVER.url}/api/api-keys`)).json()) as { apiKeys: unknown[] };
  expect(keys.apiKeys).toEqual([]);
  const addresses = (await (await page.request.get(`${DEFAULT_SERVER.url}/api/email-callbacks`)).json()) as {
    emailCallbacks: unknown[];
  };
  expect(addresses.emailCallbacks).toEqual([]);
});

test("the auth endpoints refuse a cookie write from another origin: update-user and sign-out", async ({ page }) => {
  await signUpThroughApi(page.request);
  const attempts: Record<string, string>[] = [
    { Origin: "http://localhost:4999" },
    { Origin: "https://evil.example" },
    // No Origin and no Referer, as no browser sends a write.
    {},
  ];
  for (const headers of attempts) {
    const rename = await page.request.post("/api/auth/update-user", { headers, data: { name: "Mallory" } });
    expect(rename.status(), `update-user with ${JSON.stringify(headers)}`).toBe(403);
    const signOut = await page.request.post("/api/auth/sign-out", { headers, data: {} });
    expect(signOut.status(), `sign-out with ${JSON.stringify(headers)}`).toBe(403);
  }
  const session = (await (await page.request.get("/api/auth/get-session")).json()) as { user: { name: string } } | null;
  expect(session?.user.name).toBe("Test User");
});
