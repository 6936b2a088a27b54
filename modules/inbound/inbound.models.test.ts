import { describe, expect, it } from "vitest";
import { isSenderAllowed, normalizeSender, parseAnyRecipient, parseRecipient } from "./inbound.models";

const domains = ["hookmail.test", "mail.example.com"];

describe("parseAnyRecipient", () => {
  it("reads an address on any domain, keeping it as written for the webhook", () => {
    expect(parseAnyRecipient("<Orders-EU+Q3@Shop.Example>")).toEqual({
      username: "orders-eu",
      domain: "shop.example",
      tag: "q3",
      address: "orders-eu+q3@shop.example",
      written: "Orders-EU+Q3@Shop.Example",
    });
  });
});

describe("parseRecipient", () => {
  it("routes a plain address to its username and domain, with no tag", () => {
    expect(parseRecipient("alice@hookmail.test", domains)).toEqual({
      username: "alice",
      domain: "hookmail.test",
      tag: null,
      address: "alice@hookmail.test",
      written: "alice@hookmail.test",
    });
  });

  it("routes user+tag to the user and passes the tag on", () => {
    expect(parseRecipient("alice+invoices@hookmail.test", domains)).toEqual({
      username: "alice",
      domain: "hookmail.test",
      tag: "invoices",
      address: "alice+invoices@hookmail.test",
      written: "alice+invoices@hookmail.test",
    });
  });

  it("splits at the first plus only, and reads an empty tag as no tag", () => {
    expect(parseRecipient("alice+a+b@hookmail.test", domains)).toMatchObject({ username: "alice", tag: "a+b" });
    expect(parseRecipient("alice+@hookmail.test", domains)).toMatchObject({ username: "alice", tag: null });
  });

  it("compares the local part and the domain case-insensitively and answers them lower-cased", () => {
    expect(parseRecipient("Alice.Smith+Tag@HookMail.TEST", domains)).toEqual({
      username: "alice.smith",
      domain: "hookmail.test",
      tag: "tag",
      address: "alice.smith+tag@hookmail.test",
      written: "Alice.Smith+Tag@HookMail.TEST",
    });
    expect(parseRecipient("bob@mail.example.com", ["Mail.Example.COM"])).toMatchObject({ domain: "mail.example.com" });
  });

  it("strips surrounding whitespace and angle brackets", () => {
    expect(parseRecipient("  <Alice@hookmail.test>  ", domains)).toMatchObject({
      username: "alice",
      address: "alice@hookmail.test",
    });
    expect(parseRecipient("< alice@hookmail.test >", domains)).toMatchObject({ username: "alice" });
  });

  it("accepts a fully qualified domain with its trailing dot", () => {
    expect(parseRecipient("alice@hookmail.test.", domains)).toMatchObject({
      domain: "hookmail.test",
      address: "alice@hookmail.test",
    });
  });

  it.each([
    ["a foreign domain", "alice@elsewhere.com"],
    ["a subdomain of a listed domain", "alice@sub.hookmail.test"],
    ["a parent of a listed domain", "alice@example.com"],
    ["no @", "alice"],
    ["an empty local part", "@hookmail.test"],
    ["an empty domain", "alice@"],
    ["a tag without a user", "+tag@hookmail.test"],
    ["an empty string", ""],
    ["the null sender", "<>"],
    ["two @", "alice@evil.com@hookmail.test"],
    ["whitespace inside", "ali ce@hookmail.test"],
    ["a control character", "ali\u0000ce@hookmail.test"],
    ["a display name", "Alice <alice@hookmail.test>"],
    ["an address over 254 characters", `${"a".repeat(250)}@hookmail.test`],
  ])("refuses %s", (_case, address) => {
    expect(parseRecipient(address, domains)).toBeNull();
  });

  it("refuses every address when no domain is offered", () => {
    expect(parseRecipient("alice@hookmail.test", [])).toBeNull();
  });
});

describe("normalizeSender", () => {
  it("lower-cases the sender and strips angle brackets and whitespace", () => {
    expect(normalizeSender(" <Bob@Example.ORG> ")).toBe("bob@example.org");
    expect(normalizeSender("bob@example.org")).toBe("bob@example.org");
  });

  it("answers null for the null sender <>, an empty sender and no sender", () => {
    expect(normalizeSender("<>")).toBeNull();
    expect(normalizeSender("")).toBeNull();
    expect(normalizeSender("  ")).toBeNull();
    expect(normalizeSender(null)).toBeNull();
    expect(normalizeSender(undefined)).toBeNull();
  });
});

describe("isSenderAllowed", () => {
  /** Asserts that `allowedOrigins` lets each `allowed` sender through and refuses each `refused` one. */
  function expectSenders(
    allowedOrigins: string[],
    { allowed = [], refused = [] }: { allowed?: (string | null)[]; refused?: (string | null)[] },
  ) {
    for (const sender of allowed) expect(isSenderAllowed(sender, allowedOrigins), `${sender}`).toBe(true);
    for (const sender of refused) expect(isSenderAllowed(sender, allowedOrigins), `${sender}`).toBe(false);
  }

  it("lets every sender through an empty list, the null sender included", () => {
    expectSenders([], { allowed: ["bob@example.org", null] });
  });

  it("matches an exact address case-insensitively", () => {
    expectSenders(["bob@example.org"], {
      allowed: ["Bob@Example.org", "<bob@example.org>"],
      refused: ["eve@example.org", "bob@example.org.evil.com"],
    });
    expectSenders(["BOB@EXAMPLE.ORG"], { allowed: ["bob@example.org"] });
  });

  it("matches an @domain entry against the sender's domain exactly", () => {
    expectSenders(["@example.org"], {
      allowed: ["anyone@example.org"],
      refused: ["anyone@sub.example.org", "anyone@notexample.org", "example.org@evil.com"],
    });
    expectSenders(["@Example.ORG"], { allowed: ["Anyone@EXAMPLE.org"] });
  });

  it("accepts a sender that any one entry of the list matches", () => {
    expectSenders(["carol@example.com", "@example.org"], {
      allowed: ["carol@example.com", "dave@example.org"],
      refused: ["dave@example.com"],
    });
  });

  it("refuses the null sender when the list is not empty", () => {
    expectSenders(["bob@example.org"], { refused: [null] });
    expectSenders(["@example.org"], { refused: ["<>", ""] });
  });
});
