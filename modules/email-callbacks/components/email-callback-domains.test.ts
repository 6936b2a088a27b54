import { describe, expect, it } from "vitest";
import { getDomainChoices, getUsernameHelp, isOfferedDomain, isWildcardRefusedOn } from "./email-callback-domains";
import { buildEmailCallbackFormSchema, WILDCARD_ON_OPERATOR_DOMAIN_MESSAGE } from "./email-callback-form-schema";

const USER_DOMAINS = [
  { name: "example.org", status: "verified" as const },
  { name: "xn--bcher-kva.example", status: "failing" as const },
  { name: "pending.example", status: "pending" as const },
];

describe("the domains the address form offers (docs/domains.md: Addresses on a domain)", () => {
  it("offers the user's verified and failing domains beside the operator's, not the pending ones", () => {
    expect(getDomainChoices({ operatorDomains: ["hookmail.test"], userDomains: USER_DOMAINS })).toEqual({
      operatorDomains: ["hookmail.test"],
      ownDomains: ["example.org", "xn--bcher-kva.example"],
    });
  });

  it("keeps an edited address's domain that is no longer offered, in the user's group when it is the user's", () => {
    const pending = getDomainChoices({
      operatorDomains: ["hookmail.test"],
      userDomains: USER_DOMAINS,
      currentDomain: "pending.example",
    });
    expect(pending.ownDomains).toEqual(["pending.example", "example.org", "xn--bcher-kva.example"]);
    const dropped = getDomainChoices({ operatorDomains: ["hookmail.test"], userDomains: [], currentDomain: "old.test" });
    expect(dropped).toEqual({ operatorDomains: ["old.test", "hookmail.test"], ownDomains: [] });
  });

  it("does not list a domain twice when it is already offered", () => {
    const choices = getDomainChoices({
      operatorDomains: ["hookmail.test"],
      userDomains: USER_DOMAINS,
      currentDomain: "example.org",
    });
    expect(choices.ownDomains).toEqual(["example.org", "xn--bcher-kva.example"]);
    expect(isOfferedDomain(choices, "pending.example")).toBe(false);
  });

  it("explains `*` on the user's own domain only", () => {
    const choices = { operatorDomains: ["hookmail.test"], ownDomains: ["example.org"] };
    expect(getUsernameHelp(choices, "example.org")).toBe("ownDomain");
    expect(getUsernameHelp(choices, "hookmail.test")).toBeNull();
    expect(getUsernameHelp(choices, "")).toBeNull();
  });

  it("refuses a pattern or the catch-all on an operator domain, as the API does", () => {
    const choices = { operatorDomains: ["hookmail.test"], ownDomains: ["example.org"] };
    expect(isWildcardRefusedOn(choices, { username: "orders-*", domain: "hookmail.test" })).toBe(true);
    expect(isWildcardRefusedOn(choices, { username: "*", domain: "hookmail.test" })).toBe(true);
    expect(isWildcardRefusedOn(choices, { username: "orders", domain: "hookmail.test" })).toBe(false);
    expect(isWildcardRefusedOn(choices, { username: "*", domain: "example.org" })).toBe(false);
  });
});

describe("the address form's schema", () => {
  const schema = buildEmailCallbackFormSchema({ operatorDomains: ["hookmail.test"], ownDomains: ["example.org"] });
  const values = {
    webhookUrl: "https://receiver.example/hook",
    webhookSecret: "",
    allowedOrigins: [],
    attachmentDelivery: "inline" as const,
    authenticationPolicy: "none" as const,
    spamThreshold: null,
  };

  it("takes a pattern and the catch-all on the user's domain", () => {
    expect(schema.safeParse({ ...values, username: "orders-*", domain: "example.org" }).success).toBe(true);
    expect(schema.safeParse({ ...values, username: "*", domain: "example.org" }).success).toBe(true);
  });

  it("refuses them on an operator domain with the API's message, on the username", () => {
    const result = schema.safeParse({ ...values, username: "*", domain: "hookmail.test" });
    expect(result.error?.issues).toEqual([
      expect.objectContaining({ path: ["username"], message: WILDCARD_ON_OPERATOR_DOMAIN_MESSAGE }),
    ]);
    expect(WILDCARD_ON_OPERATOR_DOMAIN_MESSAGE).toBe("apiErrors.email_callback.invalid_username");
  });

  it("refuses a domain it does not offer", () => {
    const result = schema.safeParse({ ...values, username: "orders", domain: "pending.example" });
    expect(result.error?.issues).toEqual([
      expect.objectContaining({ path: ["domain"], message: "emailCallbacks.form.validation.domainInvalid" }),
    ]);
  });
});
