import { describe, expect, it } from "vitest";
import { basicAuth } from "../test-support/inbound-test-helpers";
import { createMailgunTokenRegistry } from "../test-support/memory-mailgun-tokens";
import {
  computeMailgunSignature,
  isBasicAuthPasswordValid,
  isBearerTokenValid,
  isEqualInConstantTime,
  isMailgunSignatureValid,
  isMailgunTimestampFresh,
} from "./inbound-auth";

const SECRET = "s3cret-value-of-sixteen+";

describe("isBearerTokenValid", () => {
  it("accepts `Bearer <secret>` only", () => {
    expect(isBearerTokenValid(`Bearer ${SECRET}`, SECRET)).toBe(true);
    expect(isBearerTokenValid(`bearer  ${SECRET} `, SECRET)).toBe(true);
    expect(isBearerTokenValid(`Bearer ${SECRET}x`, SECRET)).toBe(false);
    expect(isBearerTokenValid(SECRET, SECRET)).toBe(false);
    expect(isBearerTokenValid(basicAuth("x", SECRET), SECRET)).toBe(false);
    expect(isBearerTokenValid(null, SECRET)).toBe(false);
  });
});

describe("isBasicAuthPasswordValid", () => {
  it("accepts any user name with the secret as password", () => {
    expect(isBasicAuthPasswordValid(basicAuth("postmark", SECRET), SECRET)).toBe(true);
    expect(isBasicAuthPasswordValid(basicAuth("", SECRET), SECRET)).toBe(true);
  });

  it("refuses a wrong password, a missing colon, the secret as user name, and Bearer", () => {
    expect(isBasicAuthPasswordValid(basicAuth("postmark", "wrong"), SECRET)).toBe(false);
    expect(isBasicAuthPasswordValid(`Basic ${Buffer.from(SECRET).toString("base64")}`, SECRET)).toBe(false);
    expect(isBasicAuthPasswordValid(basicAuth(SECRET, ""), SECRET)).toBe(false);
    expect(isBasicAuthPasswordValid(`Bearer ${SECRET}`, SECRET)).toBe(false);
    expect(isBasicAuthPasswordValid(null, SECRET)).toBe(false);
  });

  it("keeps colons inside the password", () => {
    expect(isBasicAuthPasswordValid(basicAuth("user", "a:b:c"), "a:b:c")).toBe(true);
  });
});

describe("isEqualInConstantTime", () => {
  it("compares strings of different lengths without throwing", () => {
    expect(isEqualInConstantTime("a", "a")).toBe(true);
    expect(isEqualInConstantTime("a", "ab")).toBe(false);
    expect(isEqualInConstantTime("", "")).toBe(true);
  });
});

describe("Mailgun signatures", () => {
  const key = "key-3ax6xnjp29jd6fds4gc373sgvjxteol0";

  it("is the hex HMAC-SHA256 of timestamp + token with the signing key", () => {
    const fields = { timestamp: "1529006854", token: "a8ce0edb2dd8301dee6c2405235584e45aa91d1e9f979f3de0" };
    const signature = computeMailgunSignature(fields, key);
    // computed independently: Python's hmac.new(key, timestamp + token, hashlib.sha256).hexdigest()
    expect(signature).toBe("b63c0701c4f4b614f272106a1b367c5c3369bcdca664ae73ebd52787e45eef07");
    expect(isMailgunSignatureValid({ ...fields, signature }, key)).toBe(true);
    expect(isMailgunSignatureValid({ ...fields, signature: signature.toUpperCase() }, key)).toBe(true);
    expect(isMailgunSignatureValid({ ...fields, signature }, "another-key")).toBe(false);
    expect(isMailgunSignatureValid({ ...fields, token: `${fields.token}0`, signature }, key)).toBe(false);
  });

  it("accepts a timestamp up to 5 minutes away, either way, and nothing else", () => {
    const now = 1_800_000_000_000;
    expect(isMailgunTimestampFresh(String(now / 1000 - 300), now)).toBe(true);
    expect(isMailgunTimestampFresh(String(now / 1000 + 300), now)).toBe(true);
    expect(isMailgunTimestampFresh(String(now / 1000 - 360), now)).toBe(false);
    expect(isMailgunTimestampFresh(String(now / 1000 + 360), now)).toBe(false);
    expect(isMailgunTimestampFresh("1e9", now)).toBe(false);
    expect(isMailgunTimestampFresh("", now)).toBe(false);
  });
});

describe("createMailgunTokenRegistry", () => {
  it("refuses a token claimed within the retention, and forgets it after", async () => {
    const tokens = createMailgunTokenRegistry({ retentionMs: 10_000 });
    expect(await tokens.claim("t1", 0)).toBe(true);
    expect(await tokens.claim("t1", 9_999)).toBe(false);
    expect(await tokens.has("t1", 9_999)).toBe(true);
    expect(await tokens.has("t1", 10_000)).toBe(false);
    expect(await tokens.claim("t1", 10_000)).toBe(true);
  });

  it("forgets a released token", async () => {
    const tokens = createMailgunTokenRegistry();
    await tokens.claim("t1", 0);
    await tokens.release("t1");
    expect(await tokens.claim("t1", 1)).toBe(true);
  });

  it("keeps at most maxTokens, dropping the oldest", async () => {
    const tokens = createMailgunTokenRegistry({ maxTokens: 3 });
    for (const [index, token] of ["a", "b", "c", "d"].entries()) await tokens.claim(token, index);
    expect(await Promise.all(["a", "b", "c", "d"].map((token) => tokens.has(token, 5)))).toEqual([false, true, true, true]);
  });
});
