import { domainToUnicode } from "node:url";
import { describe, expect, it } from "vitest";
import { toUnicodeAddress, toUnicodeDomainName } from "./domain-names";

describe("toUnicodeDomainName (docs/domains.md: Names)", () => {
  it.each([
    ["xn--bcher-kva.example", "bücher.example"],
    ["mail.xn--mnchen-3ya.de", "mail.münchen.de"],
    ["xn--fiqs8s.xn--fiqz9s", "中国.中國"],
    ["xn--80ak6aa92e.com", "аррӏе.com"],
    ["XN--BCHER-KVA.example", "bücher.example"],
  ])("shows the A-labels of %s as Unicode, as node's domainToUnicode does (%s)", (name, unicode) => {
    expect(toUnicodeDomainName(name)).toBe(unicode);
    expect(toUnicodeDomainName(name)).toBe(domainToUnicode(name));
  });

  it("leaves an ASCII name as it is", () => {
    expect(toUnicodeDomainName("hookmail.test")).toBe("hookmail.test");
    expect(toUnicodeDomainName("my-xn.example.org")).toBe("my-xn.example.org");
  });

  it("leaves a label that is no valid A-label as written, and converts the others", () => {
    expect(toUnicodeDomainName("xn--.example")).toBe("xn--.example");
    expect(toUnicodeDomainName("xn--abc-.xn--bcher-kva.example")).toBe("xn--abc-.bücher.example");
    expect(toUnicodeDomainName("xn--ü.example")).toBe("xn--ü.example");
  });
});

describe("toUnicodeAddress", () => {
  it("shows the domain of an address in Unicode and keeps its username", () => {
    expect(toUnicodeAddress("orders-*@xn--bcher-kva.example")).toBe("orders-*@bücher.example");
    expect(toUnicodeAddress("*@xn--bcher-kva.example")).toBe("*@bücher.example");
    expect(toUnicodeAddress("inbox@hookmail.test")).toBe("inbox@hookmail.test");
  });

  it("leaves a text without @ as it is", () => {
    expect(toUnicodeAddress("xn--bcher-kva.example")).toBe("xn--bcher-kva.example");
  });
});
