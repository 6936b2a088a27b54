// The address a per-address SMTP limit counts against (docs/security.md).
import { describe, expect, it } from "vitest";
import { getClientAddressGroup } from "./client-limits";

describe("getClientAddressGroup", () => {
  it.each([
    ["192.0.2.7", "192.0.2.7"],
    ["::ffff:192.0.2.7", "192.0.2.7"],
    ["::FFFF:192.0.2.7", "192.0.2.7"],
    ["::ffff:c000:207", "192.0.2.7"],
    ["0:0:0:0:0:ffff:192.0.2.7", "192.0.2.7"],
    ["2001:db8:1:2::1", "2001:db8:1:2::/64"],
    ["2001:0db8:0001:0002:ffff:eeee:dddd:cccc", "2001:db8:1:2::/64"],
    ["2001:db8::1", "2001:db8:0:0::/64"],
    ["::1", "0:0:0:0::/64"],
    ["fe80::1%eth0", "fe80:0:0:0::/64"],
  ])("counts %s as %s", (address, group) => {
    expect(getClientAddressGroup(address)).toBe(group);
  });

  it("groups the addresses of one IPv6 /64 and keeps the next /64 apart", () => {
    expect(getClientAddressGroup("2001:db8:1:2:aaaa::1")).toBe(getClientAddressGroup("2001:db8:1:2:bbbb:cccc:dddd:eeee"));
    expect(getClientAddressGroup("2001:db8:1:3::1")).not.toBe(getClientAddressGroup("2001:db8:1:2::1"));
  });

  it("keeps IPv4 addresses apart", () => {
    expect(getClientAddressGroup("192.0.2.7")).not.toBe(getClientAddressGroup("192.0.2.8"));
  });
});
