import { describe, expect, it } from "vitest";
import { readProviderSpf } from "./provider-spf";

describe("readProviderSpf", () => {
  it("reads the verdict's first word as an RFC 8601 result, whatever its case and comment", () => {
    const read = (values: string[]) => values.map(readProviderSpf);
    expect(read(["pass", "Neutral", "SoftFail (domain transitioning)", "temperror"])).toEqual([
      "pass",
      "neutral",
      "softfail",
      "temperror",
    ]);
    expect(readProviderSpf("Pass (sender SPF authorized) identity=mailfrom; client-ip=209.85.160.180")).toBe("pass");
  });

  it("has no verdict for a missing value or a word outside RFC 8601's", () => {
    for (const value of [undefined, null, "", "maybe", "Passed"]) expect(readProviderSpf(value)).toBeNull();
  });
});
