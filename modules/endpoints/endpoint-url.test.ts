import { describe, expect, it } from "vitest";
import type { HostResolver } from "@/modules/shared/net/webhook-target";
import { ensureEndpointUrlAllowed } from "./endpoint-url";

/** DNS, the edge of the world: names answer the addresses given here. */
const resolveFrom =
  (records: Record<string, string[]>): HostResolver =>
  async (hostname) => {
    const addresses = records[hostname];
    if (!addresses) throw Object.assign(new Error(`${hostname} not found`), { code: "ENOTFOUND" });
    return addresses;
  };

const resolve = resolveFrom({
  "hooks.example.com": ["93.184.216.34"],
  "internal.example.com": ["10.0.0.5"],
  "rebind.example.com": ["93.184.216.34", "127.0.0.1"],
});

describe("ensureEndpointUrlAllowed (docs/security.md)", () => {
  it("accepts a URL that leads to public addresses, and a name that does not resolve yet", async () => {
    await expect(
      ensureEndpointUrlAllowed("https://hooks.example.com/in", { allowPrivateTargets: false, resolve }),
    ).resolves.toBeUndefined();
    await expect(
      ensureEndpointUrlAllowed("https://later.example.com/in", { allowPrivateTargets: false, resolve }),
    ).resolves.toBeUndefined();
  });

  it.each([
    "http://127.0.0.1/in",
    "http://[::1]/in",
    "http://localhost:3000/in",
    "http://169.254.169.254/latest/meta-data",
    "https://internal.example.com/in",
    "https://rebind.example.com/in",
  ])("refuses %s with the answer of an address's webhook URL, on the url field", async (url) => {
    const refusal = ensureEndpointUrlAllowed(url, { allowPrivateTargets: false, resolve });
    await expect(refusal).rejects.toMatchObject({
      code: "email_callback.webhook_url_not_allowed",
      httpStatus: 400,
      fields: [{ path: "url", code: "not_allowed" }],
    });
    await expect(refusal).rejects.not.toThrow(/10\.0\.0\.5|127\.0\.0\.1/);
  });

  it("accepts private targets when WEBHOOK_ALLOW_PRIVATE_TARGETS is set", async () => {
    await expect(
      ensureEndpointUrlAllowed("http://127.0.0.1/in", { allowPrivateTargets: true, resolve }),
    ).resolves.toBeUndefined();
    await expect(
      ensureEndpointUrlAllowed("https://internal.example.com/in", { allowPrivateTargets: true, resolve }),
    ).resolves.toBeUndefined();
  });
});
