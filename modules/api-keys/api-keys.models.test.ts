import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { API_KEY_DISPLAY_PREFIX_LENGTH } from "./api-keys.constants";
import {
  formatApiKeyForApi,
  generateApiKeyToken,
  getApiKeyDisplayPrefix,
  hashApiKeyToken,
  isApiKeyTokenFormat,
} from "./api-keys.models";

describe("generateApiKeyToken", () => {
  it("makes hm_ followed by 40 base62 characters", () => {
    for (let index = 0; index < 50; index += 1) expect(generateApiKeyToken()).toMatch(/^hm_[0-9A-Za-z]{40}$/);
  });

  it("never repeats a token", () => {
    const tokens = new Set(Array.from({ length: 1000 }, generateApiKeyToken));
    expect(tokens.size).toBe(1000);
  });
});

describe("hashApiKeyToken", () => {
  it("is the SHA-256 of the token in lowercase hex", () => {
    const token = generateApiKeyToken();
    expect(hashApiKeyToken(token)).toBe(createHash("sha256").update(token).digest("hex"));
    expect(hashApiKeyToken("abc")).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    expect(hashApiKeyToken(token)).toMatch(/^[0-9a-f]{64}$/);
  });

  it("differs from the token and between tokens", () => {
    const [first, second] = [generateApiKeyToken(), generateApiKeyToken()];
    expect(hashApiKeyToken(first)).not.toBe(first);
    expect(hashApiKeyToken(first)).not.toBe(hashApiKeyToken(second));
  });
});

describe("isApiKeyTokenFormat", () => {
  it("accepts a generated token", () => {
    expect(isApiKeyTokenFormat(generateApiKeyToken())).toBe(true);
  });

  it.each([
    ["empty", ""],
    ["no prefix", "A".repeat(43)],
    ["another prefix", `sk_${"A".repeat(40)}`],
    ["upper-case prefix", `HM_${"A".repeat(40)}`],
    ["39 characters", `hm_${"A".repeat(39)}`],
    ["41 characters", `hm_${"A".repeat(41)}`],
    ["a non-base62 character", `hm_${"A".repeat(39)}-`],
    ["surrounding spaces", ` hm_${"A".repeat(40)} `],
  ])("refuses %s", (_, value) => {
    expect(isApiKeyTokenFormat(value)).toBe(false);
  });
});

describe("getApiKeyDisplayPrefix", () => {
  it("is the first 10 characters: hm_ and 7 of the random part", () => {
    expect(API_KEY_DISPLAY_PREFIX_LENGTH).toBe(10);
    expect(getApiKeyDisplayPrefix("hm_AbC1234567890123456789012345678901234567")).toBe("hm_AbC1234");
    const token = generateApiKeyToken();
    expect(token.startsWith(getApiKeyDisplayPrefix(token))).toBe(true);
  });
});

describe("formatApiKeyForApi", () => {
  it("shows id, name, prefix and dates, never the owner, token or hash", () => {
    const record = {
      id: "ak_1",
      userId: "usr_1",
      name: "CI",
      prefix: "hm_AbC1234",
      createdAt: new Date("2026-11-21T10:00:00.000Z"),
      lastUsedAt: null,
      hashedKey: "secret-hash",
    };
    expect(formatApiKeyForApi(record)).toEqual({
      id: "ak_1",
      name: "CI",
      prefix: "hm_AbC1234",
      createdAt: "2026-11-21T10:00:00.000Z",
      lastUsedAt: null,
    });
    expect(formatApiKeyForApi({ ...record, lastUsedAt: new Date("2026-11-22T08:30:00.000Z") }).lastUsedAt).toBe(
      "2026-11-22T08:30:00.000Z",
    );
  });
});
