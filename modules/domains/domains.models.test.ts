// A typed domain name as DNS writes it, the names no one may claim, and the API's shape.
import { describe, expect, it } from "vitest";
import { formatDomainForApi, isReservedDomainName, normalizeDomainName } from "./domains.models";
import { createDomainSchema } from "./domains.schemas";

describe("normalizeDomainName", () => {
  it.each([
    ["example.org", "example.org"],
    ["Mail.Example.ORG", "mail.example.org"],
    ["example.org.", "example.org"],
    ["  example.org  ", "example.org"],
    ["bücher.example", "xn--bcher-kva.example"],
    ["BÜCHER.example.", "xn--bcher-kva.example"],
    ["xn--bcher-kva.example", "xn--bcher-kva.example"],
    ["a-b.c-d.example", "a-b.c-d.example"],
    [`${"a".repeat(63)}.example`, `${"a".repeat(63)}.example`],
    [`${"a.".repeat(125)}org`, `${"a.".repeat(125)}org`],
  ])("takes %s as %s", (typed, name) => {
    expect(normalizeDomainName(typed)).toBe(name);
  });

  it.each([
    ["an empty name", ""],
    ["a space inside", "exa mple.org"],
    ["a tab inside", "example\t.org"],
    ["an IPv4 address", "192.0.2.1"],
    ["an IPv4 address with a trailing dot", "192.0.2.1."],
    ["an IPv4 address in hex", "0xc0.0.2.1"],
    ["an IPv6 address", "2001:db8::1"],
    ["a bracketed IPv6 address", "[::1]"],
    ["localhost", "localhost"],
    ["a name under localhost", "app.localhost"],
    ["a single label", "example"],
    ["a label of 64 characters", `${"a".repeat(64)}.example`],
    ["254 characters", `${"a.".repeat(125)}orgs`],
    ["an empty label", "example..org"],
    ["a leading dot", ".example.org"],
    ["a label starting with a hyphen", "-example.org"],
    ["a label ending with a hyphen", "example-.org"],
    ["an underscore", "my_domain.example"],
    ["an all-digit top-level label", "example.123"],
    ["a URL", "https://example.org"],
    ["a path", "example.org/path"],
    ["a percent-escape", "ex%61mple.org"],
    ["an address", "user@example.org"],
    ["a port", "example.org:25"],
    ["two trailing dots", "example.org.."],
  ])("refuses %s", (_, typed) => {
    expect(normalizeDomainName(typed)).toBeNull();
  });
});

describe("createDomainSchema", () => {
  it("answers the name as DNS writes it", () => {
    expect(createDomainSchema.parse({ name: "Bücher.Example." })).toEqual({ name: "xn--bcher-kva.example" });
  });

  it("refuses an invalid name with the domain.invalid error code on field name", () => {
    const result = createDomainSchema.safeParse({ name: "192.0.2.1" });
    expect(result.success).toBe(false);
    expect(result.error?.issues).toMatchObject([
      { path: ["name"], code: "custom", params: { appErrorCode: "domain.invalid" }, message: "domains.validation.nameInvalid" },
    ]);
  });

  it("does not look at input over 1024 characters", () => {
    expect(createDomainSchema.safeParse({ name: `${"a".repeat(1025)}.org` }).success).toBe(false);
  });
});

describe("isReservedDomainName", () => {
  const reserved = ["hookmail.test", "mx.hookmail.example"];

  it("reserves each domain and every name under one", () => {
    for (const name of [
      "hookmail.test",
      "a.hookmail.test",
      "b.a.hookmail.test",
      "mx.hookmail.example",
      "x.mx.hookmail.example",
    ]) {
      expect({ name, isReserved: isReservedDomainName(name, reserved) }).toEqual({ name, isReserved: true });
    }
  });

  it("leaves names that only end with the same letters, and parents", () => {
    for (const name of ["myhookmail.test", "hookmail.test.example", "hookmail.example", "example.org"]) {
      expect({ name, isReserved: isReservedDomainName(name, reserved) }).toEqual({ name, isReserved: false });
    }
  });
});

describe("formatDomainForApi", () => {
  it("shows the records to set (TXT with the token, MX to MX_HOSTNAME at priority 10) and never the owner", () => {
    const createdAt = new Date("2026-11-20T10:00:00.000Z");
    const domain = {
      id: "dom_1",
      userId: "usr_1",
      name: "example.org",
      token: "Tok3n",
      status: "pending" as const,
      verifiedAt: null,
      lastCheckedAt: createdAt,
      lastCheckError: "MX example.org not found",
      failingSince: null,
      createdAt,
    };
    expect(formatDomainForApi(domain, "mx.hookmail.example")).toEqual({
      id: "dom_1",
      name: "example.org",
      status: "pending",
      records: [
        { type: "TXT", name: "_hookmail.example.org", value: "hookmail-verification=Tok3n" },
        { type: "MX", name: "example.org", value: "mx.hookmail.example", priority: 10 },
      ],
      verifiedAt: null,
      lastCheckedAt: "2026-11-20T10:00:00.000Z",
      lastCheckError: "MX example.org not found",
      createdAt: "2026-11-20T10:00:00.000Z",
    });
  });
});
