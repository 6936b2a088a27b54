import { describe, expect, it } from "vitest";
import { checkWebhookTarget } from "./webhook-target";

describe("checkWebhookTarget", () => {
  const resolveTo = (addresses: string[]) => async () => addresses;
  const failToResolve = async () => Promise.reject(new Error("ENOTFOUND"));

  it("refuses literal private addresses and localhost names", async () => {
    for (const url of [
      "http://127.0.0.1:8080/hook",
      "http://[::1]/hook",
      "http://localhost/x",
      "http://api.localhost/x",
      "http://169.254.169.254/latest/meta-data",
    ]) {
      expect(await checkWebhookTarget(url, { allowPrivateTargets: false, resolve: failToResolve })).toEqual({
        isAllowed: false,
        reason: "address-not-allowed",
      });
    }
  });

  it.each([
    ["IPv4-mapped loopback", "http://[::ffff:127.0.0.1]/x"],
    ["IPv4-compatible loopback", "http://[::127.0.0.1]/x"],
    ["IPv4-translated private", "http://[::ffff:0:10.0.0.1]/x"],
    ["NAT64 metadata", "http://[64:ff9b::169.254.169.254]/x"],
    ["local-use NAT64", "http://[64:ff9b:1::808:808]/x"],
    ["6to4 loopback", "http://[2002:7f00:1::1]/x"],
    ["Teredo", "http://[2001:0:4136:e378:8000:63bf:80ff:fffe]/x"],
    ["site-local", "http://[fec0::1]/x"],
    ["discard-only", "http://[100::1]/x"],
    ["documentation", "http://[2001:db8::1]/x"],
    ["unique local, upper case", "http://[FD00:EC2::254]/x"],
    ["localhost with the root's trailing dot", "http://localhost./x"],
  ])("refuses the literal or local %s target at save time: %s", async (_label, url) => {
    expect(await checkWebhookTarget(url, { allowPrivateTargets: false, resolve: failToResolve })).toEqual({
      isAllowed: false,
      reason: "address-not-allowed",
    });
  });

  it.each([
    ["an IPv4-mapped private address", ["::ffff:10.0.0.1"]],
    ["a NAT64 loopback address", ["2606:4700::1", "64:ff9b::7f00:1"]],
    ["a 6to4 metadata address", ["2002:a9fe:a9fe::1"]],
    ["a site-local address", ["fec0::5"]],
  ])("refuses a name that resolves to %s", async (_label, addresses) => {
    expect(
      await checkWebhookTarget("https://rebind.example.com/hook", { allowPrivateTargets: false, resolve: resolveTo(addresses) }),
    ).toEqual({
      isAllowed: false,
      reason: "address-not-allowed",
    });
  });

  it("refuses a name that resolves to any private address", async () => {
    const verdict = await checkWebhookTarget("https://rebind.example.com/hook", {
      allowPrivateTargets: false,
      resolve: resolveTo(["93.184.216.34", "10.0.0.7"]),
    });
    expect(verdict).toEqual({ isAllowed: false, reason: "address-not-allowed" });
  });

  it("allows a public name, and private targets when the instance allows them", async () => {
    expect(
      await checkWebhookTarget("https://hooks.example.com/x", {
        allowPrivateTargets: false,
        resolve: resolveTo(["93.184.216.34"]),
      }),
    ).toEqual({
      isAllowed: true,
      addresses: ["93.184.216.34"],
    });
    expect((await checkWebhookTarget("http://127.0.0.1:9/x", { allowPrivateTargets: true })).isAllowed).toBe(true);
  });

  it("accepts an unresolvable host at save time, refuses it at connect time", async () => {
    expect(
      (await checkWebhookTarget("https://nowhere.invalid/x", { allowPrivateTargets: false, resolve: failToResolve })).isAllowed,
    ).toBe(true);
    expect(
      await checkWebhookTarget("https://nowhere.invalid/x", {
        allowPrivateTargets: false,
        requireResolution: true,
        resolve: failToResolve,
      }),
    ).toEqual({ isAllowed: false, reason: "unresolvable" });
  });
});
