import { describe, expect, it } from "vitest";
import { countLiteralCharacters, isValidUsernamePattern, toAddressMatch, toLikePattern } from "./address-patterns";

describe("username patterns", () => {
  it("are * alone or hold at least one literal character", () => {
    expect(isValidUsernamePattern("*")).toBe(true);
    expect(isValidUsernamePattern("orders-*")).toBe(true);
    expect(isValidUsernamePattern("a*b*")).toBe(true);
    expect(isValidUsernamePattern("**")).toBe(false);
    expect(isValidUsernamePattern("orders")).toBe(false);
  });

  it("count their characters other than *", () => {
    expect(countLiteralCharacters("orders-*")).toBe(7);
    expect(countLiteralCharacters("*")).toBe(0);
    expect(countLiteralCharacters("a*b*c")).toBe(3);
  });
});

describe("toLikePattern", () => {
  it("turns each * into one-or-more (_%) and escapes LIKE's own characters", () => {
    expect(toLikePattern("orders-*")).toBe("orders-_%");
    expect(toLikePattern("*")).toBe("_%");
    expect(toLikePattern("a_b*")).toBe("a\\_b_%");
    expect(toLikePattern("100%\\x")).toBe("100\\%\\\\x");
    expect(toLikePattern("x*y*")).toBe("x_%y_%");
  });

  it("leaves an exact username matching only itself", () => {
    expect(toAddressMatch("alice.b")).toEqual({ matchKind: 0, likePattern: "alice.b", literalCount: 7 });
  });

  it("classifies patterns and the catch-all", () => {
    expect(toAddressMatch("orders-*")).toMatchObject({ matchKind: 1, literalCount: 7 });
    expect(toAddressMatch("*")).toEqual({ matchKind: 2, likePattern: "_%", literalCount: 0 });
  });
});
