import { describe, expect, it } from "vitest";
import { isPrivateAddress } from "./private-address";
import { checkWebhookTarget } from "./webhook-target";

describe("isPrivateAddress", () => {
  it.each([
    "127.0.0.1", "127.255.0.9", "10.1.2.3", "172.16.0.1", "172.31.255.255", "192.168.1.1", "169.254.169.254",
    "100.64.0.1", "0.0.0.0", "224.0.0.1", "255.255.255.255", "::1", "::", "fe80::1", "fd00::1", "fc00::abcd",
    "::ffff:127.0.0.1", "::ffff:10.0.0.1", "::ffff:7f00:1", "ff02::1",
  ])("refuses %s", (ip) => {
    expect(isPrivateAddress(ip)).toBe(true);
  });

  it.each(["93.184.216.34", "8.8.8.8", "172.32.0.1", "1.1.1.1", "2606:4700:4700::1111", "::ffff:8.8.8.8"])(
    "allows the public address %s",
    (ip) => {
      expect(isPrivateAddress(ip)).toBe(false);
    },
  );

  it("refuses what is not an address", () => {
    expect(isPrivateAddress("example.com")).toBe(true);
  });
});

describe("checkWebhookTarget", () => {
  const resolveTo = (addresses: string[]) => async () => addresses;
  const failToResolve = async () => Promise.reject(new Error("ENOTFOUND"));

  it("refuses literal private addresses and localhost names", async () => {
    for (const url of ["http://127.0.0.1:8080/hook", "http://[::1]/hook", "http://localhost/x", "http://api.localhost/x", "http://169.254.169.254/latest/meta-data"]) {
      expect(await checkWebhookTarget(url, { allowPrivateTargets: false, resolve: failToResolve })).toEqual({
        isAllowed: false,
        reason: "private-address",
      });
    }
  });

  it("refuses a name that resolves to any private address", async () => {
    const verdict = await checkWebhookTarget("https://rebind.example.com/hook", {
      allowPrivateTargets: false,
      resolve: resolveTo(["93.184.216.34", "10.0.0.7"]),
    });
    expect(verdict).toEqual({ isAllowed: false, reason: "private-address" });
  });

  it("allows a public name, and private targets when the instance allows them", async () => {
    expect(await checkWebhookTarget("https://hooks.example.com/x", { allowPrivateTargets: false, resolve: resolveTo(["93.184.216.34"]) })).toEqual({
      isAllowed: true,
      addresses: ["93.184.216.34"],
    });
    expect((await checkWebhookTarget("http://127.0.0.1:9/x", { allowPrivateTargets: true })).isAllowed).toBe(true);
  });

  it("accepts an unresolvable host at save time, refuses it at connect time", async () => {
    expect((await checkWebhookTarget("https://nowhere.invalid/x", { allowPrivateTargets: false, resolve: failToResolve })).isAllowed).toBe(true);
    expect(
      await checkWebhookTarget("https://nowhere.invalid/x", { allowPrivateTargets: false, requireResolution: true, resolve: failToResolve }),
    ).toEqual({ isAllowed: false, reason: "unresolvable" });
  });
});
