import { describe, expect, it } from "vitest";
import { buildContentSecurityPolicy, buildSecurityHeaders } from "./security-headers";

const noAnalytics = { posthogKey: undefined, posthogHost: undefined };

function parsePolicy(policy: string) {
  return Object.fromEntries(
    policy.split(";").map((directive) => {
      const [name = "", ...sources] = directive.trim().split(/\s+/);
      return [name, sources];
    }),
  );
}

describe("buildSecurityHeaders", () => {
  it("forbids framing, sniffing and cross-site referrer paths on every response", () => {
    const headers = buildSecurityHeaders({ baseUrl: "http://localhost:3000", analytics: noAnalytics });
    expect(headers["X-Frame-Options"]).toBe("DENY");
    expect(headers["X-Content-Type-Options"]).toBe("nosniff");
    expect(headers["Referrer-Policy"]).toBe("strict-origin-when-cross-origin");
    expect(parsePolicy(headers["Content-Security-Policy"]!)["frame-ancestors"]).toEqual(["'none'"]);
  });

  it("sends HSTS only when BASE_URL is https", () => {
    expect(buildSecurityHeaders({ baseUrl: "http://localhost:3000", analytics: noAnalytics })).not.toHaveProperty(
      "Strict-Transport-Security",
    );
    expect(
      buildSecurityHeaders({ baseUrl: "https://hookmail.example.com", analytics: noAnalytics })["Strict-Transport-Security"],
    ).toBe("max-age=63072000; includeSubDomains");
  });
});

describe("buildContentSecurityPolicy", () => {
  it("keeps scripts and connections to the app's origin, with no plugins and no <base>", () => {
    const policy = parsePolicy(buildContentSecurityPolicy({ analytics: noAnalytics }));
    expect(policy["default-src"]).toEqual(["'self'"]);
    expect(policy["script-src"]).toEqual(["'self'", "'unsafe-inline'"]);
    expect(policy["connect-src"]).toEqual(["'self'"]);
    expect(policy["object-src"]).toEqual(["'none'"]);
    expect(policy["base-uri"]).toEqual(["'self'"]);
    expect(policy["form-action"]).toEqual(["'self'"]);
  });

  it("allows images over http: as well as https:, so that a mail's frame can load them once the user asks for remote images", () => {
    const policy = parsePolicy(buildContentSecurityPolicy({ analytics: noAnalytics }));
    expect(policy["img-src"]).toEqual(["'self'", "data:", "blob:", "https:", "http:"]);
    expect(policy["frame-src"]).toEqual(["'none'"]);
  });

  it("lets the browser reach the analytics host only when analytics are configured", () => {
    const selfHosted = parsePolicy(
      buildContentSecurityPolicy({ analytics: { posthogKey: "phc_x", posthogHost: "https://ph.example.org/ingest" } }),
    );
    expect(selfHosted["connect-src"]).toEqual(["'self'", "https://ph.example.org"]);
    expect(selfHosted["script-src"]).toContain("https://ph.example.org");
    const cloud = parsePolicy(
      buildContentSecurityPolicy({ analytics: { posthogKey: "phc_x", posthogHost: "https://eu.i.posthog.com" } }),
    );
    expect(cloud["script-src"]).toEqual(["'self'", "'unsafe-inline'", "https://eu.i.posthog.com", "https://*.posthog.com"]);
    const hostWithoutKey = parsePolicy(
      buildContentSecurityPolicy({ analytics: { posthogKey: undefined, posthogHost: "https://ph.example.org" } }),
    );
    expect(hostWithoutKey["connect-src"]).toEqual(["'self'"]);
  });
});
