// Mailgun tokens already used are refused by every process: they live in the mailgun_token table.
// The two handles below are two connection pools on one database, as two web processes have.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Database, openDatabase } from "@/modules/db/db";
import { createTestDatabaseUrl } from "@/tests/support/test-database";
import { createInboundRequest, expectAppError, runInbound, signMailgun } from "../test-support/inbound-test-helpers";
import { createMailgunTokenRepository, deleteExpiredMailgunTokens } from "./mailgun-token.repository";

let database: Database;
let otherProcess: Database;
let dropDatabase = async () => {};

beforeAll(async () => {
  const { url, drop } = await createTestDatabaseUrl();
  dropDatabase = drop;
  database = await openDatabase({ url, poolSize: 2 });
  otherProcess = await openDatabase({ url, poolSize: 2 });
});

afterAll(async () => {
  await otherProcess?.close();
  await database?.close();
  await dropDatabase();
});

const NOW = Date.UTC(2026, 10, 21, 10, 0, 0);

const mailgunPost = (token: string) => {
  const fields = new URLSearchParams({
    ...signMailgun({ token }),
    recipient: "alice@hookmail.test",
    "body-mime": "From: bob@example.org\r\nTo: alice@hookmail.test\r\nSubject: Hi\r\n\r\nHello\r\n",
  });
  return createInboundRequest("mailgun", {
    body: fields.toString(),
    headers: { "content-type": "application/x-www-form-urlencoded" },
  });
};

describe("Mailgun tokens in the mailgun_token table", () => {
  it("a token used once is refused with 401 by another process", async () => {
    const token = "token-used-once-0123456789abcdef0123456789abcdef01";
    const first = runInbound("mailgun", mailgunPost(token), { mailgunTokens: createMailgunTokenRepository(database) });
    expect(await first.result).toEqual({ accepted: 1 });
    const replay = runInbound("mailgun", mailgunPost(token), { mailgunTokens: createMailgunTokenRepository(otherProcess) });
    await expectAppError(replay.result, "inbound.unauthorized", 401);
    expect(replay.received).toHaveLength(0);
  });

  it("of two concurrent claims of one token from two processes, exactly one wins", async () => {
    const results = await Promise.all([
      createMailgunTokenRepository(database).claim("raced-token", NOW),
      createMailgunTokenRepository(otherProcess).claim("raced-token", NOW),
    ]);
    expect(results.sort()).toEqual([false, true]);
  });

  it("a released token (its message was not accepted) may be used again, by any process", async () => {
    const tokens = createMailgunTokenRepository(database);
    expect(await tokens.claim("released-token", NOW)).toBe(true);
    await tokens.release("released-token");
    expect(await createMailgunTokenRepository(otherProcess).claim("released-token", NOW)).toBe(true);
  });

  it("a token is remembered for its lifetime only, and expired rows are deleted", async () => {
    const tokens = createMailgunTokenRepository(database, { retentionMs: 10_000 });
    expect(await tokens.claim("short-lived-token", NOW)).toBe(true);
    expect(await tokens.has("short-lived-token", NOW + 9_999)).toBe(true);
    expect(await tokens.has("short-lived-token", NOW + 10_000)).toBe(false);
    expect(await tokens.claim("short-lived-token", NOW + 10_000)).toBe(true);
    expect(await deleteExpiredMailgunTokens(database, new Date(NOW + 20_000))).toBeGreaterThanOrEqual(1);
    expect(await tokens.has("short-lived-token", NOW + 15_000)).toBe(false);
  });
});
