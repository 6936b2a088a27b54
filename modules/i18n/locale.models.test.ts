import { describe, expect, it } from "vitest";
import { parseAcceptLanguage, resolveLocale } from "./locale.models";

describe("resolveLocale", () => {
  it("uses the stored choice first", () => {
    expect(resolveLocale({ storedLocale: "fr", acceptLanguage: "en-US,en;q=0.9" })).toBe("fr");
  });

  it("ignores a stored value that is not a supported locale", () => {
    expect(resolveLocale({ storedLocale: "de", acceptLanguage: "fr-CA" })).toBe("fr");
  });

  it("else takes the browser's first supported language, by quality", () => {
    expect(resolveLocale({ storedLocale: undefined, acceptLanguage: "de-DE,fr;q=0.8,en;q=0.5" })).toBe("fr");
    expect(resolveLocale({ storedLocale: undefined, acceptLanguage: "en;q=0.3,fr-FR;q=0.9" })).toBe("fr");
  });

  it("else falls back to English", () => {
    expect(resolveLocale({ storedLocale: null, acceptLanguage: "de,ja;q=0.5" })).toBe("en");
    expect(resolveLocale({ storedLocale: null, acceptLanguage: null })).toBe("en");
  });
});

describe("parseAcceptLanguage", () => {
  it("drops wildcards and refused languages (q=0)", () => {
    expect(parseAcceptLanguage("*, fr;q=0, en-GB")).toEqual(["en-gb"]);
  });
});
