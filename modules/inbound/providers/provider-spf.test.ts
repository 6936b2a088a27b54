import { describe, expect, it } from "vitest";
import { readProviderSpf } from "./provider-spf";

describe("readProviderSpf", () => {
  it.each([
    ["pass", "pass"],
    ["Neutral", "neutral"],
    ["Pass (sender SPF authorized) identity=mailfrom; client-ip=209.85.160.180", "pass"],
    ["SoftFail (domain transitioning)", "softfail"],
    ["temperror", "temperror"],
  ])("reads %s as %s", (value, expected) => {
    expect(readProviderSpf(value)).toBe(expected);
  });

  it.each([[undefined], [null], [""], ["maybe"], ["Passed"]])("has no verdict for %s", (value) => {
    expect(readProviderSpf(value)).toBeNull();
  });
});
