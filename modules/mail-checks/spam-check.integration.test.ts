// rspamd's verdicts over its HTTP API (docs/webhooks.md: Spam): Debian's rspamd on loopback when the
// machine has it, a fake of its API otherwise (tests/support/rspamd.ts says which).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startDnsServer, type TestDnsServer } from "@/tests/support/dns-server";
import { GTUBE, RSPAMD_START_TIMEOUT_MS, startTestRspamd, type TestRspamd } from "@/tests/support/rspamd";
import { checkSpam, toSpamVerdict } from "./spam-check";

let dns: TestDnsServer;
let rspamd: TestRspamd;

beforeAll(async () => {
  dns = await startDnsServer();
  rspamd = await startTestRspamd({ dnsServer: dns.address });
  console.log(`spam engine under test: ${rspamd.kind}`);
}, RSPAMD_START_TIMEOUT_MS + 30_000);
afterAll(async () => {
  await rspamd?.stop();
  await dns?.close();
});

const message = (body: string) =>
  Buffer.from(
    `From: Bob <bob@example.org>\r\nTo: inbox@hookmail.test\r\nSubject: A note\r\nDate: Thu, 26 Nov 2026 10:00:00 +0000\r\nMessage-ID: <n-1@example.org>\r\n\r\n${body}\r\n`,
  );

const scan = (raw: Buffer | Blob) =>
  checkSpam({
    url: rspamd.url,
    raw,
    client: { ip: "192.0.2.10", helo: "mx.example.org" },
    sender: "bob@example.org",
    recipients: ["inbox@hookmail.test"],
  });

describe("checkSpam", () => {
  it("scores an ordinary mail with rspamd's score and action", async () => {
    const verdict = await scan(message("Lunch on Thursday?"));
    expect(verdict).toEqual({ score: expect.any(Number), action: expect.any(String), isSpam: expect.any(Boolean) });
    expect(verdict?.action).not.toBe("reject");
  });

  it("calls the GTUBE test mail spam, with rspamd's reject action", async () => {
    expect(await scan(message(GTUBE))).toMatchObject({ action: "reject", isSpam: true });
  });

  it("sends a message spooled to a file as it is read, and gives it the verdict of the same bytes in memory", async () => {
    const spam = message(`${GTUBE}\r\n${"padding line of a long message\r\n".repeat(40_000)}`);
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "hookmail-spam-")), "message.eml");
    fs.writeFileSync(file, spam);
    const fromFile = await scan(await fs.openAsBlob(file));
    expect(fromFile).toEqual({ score: expect.any(Number), action: expect.any(String), isSpam: true });
    expect(fromFile).toEqual(await scan(spam));
  });

  it("gives no verdict, quickly, when the engine does not answer", async () => {
    const started = performance.now();
    const verdict = await checkSpam({
      url: "http://127.0.0.1:9",
      raw: message("hi"),
      client: null,
      sender: null,
      recipients: [],
    });
    expect(verdict).toBeNull();
    expect(performance.now() - started).toBeLessThan(5_000);
  });
});

describe("toSpamVerdict", () => {
  it("calls spam what rspamd would not let through, or what reaches its required score", () => {
    expect(toSpamVerdict({ score: 3.456, required_score: 15, action: "no action" })).toEqual({
      score: 3.46,
      action: "no action",
      isSpam: false,
    });
    expect(toSpamVerdict({ score: 6, required_score: 15, action: "add header" })?.isSpam).toBe(true);
    expect(toSpamVerdict({ score: 16, required_score: 15, action: "greylist" })?.isSpam).toBe(true);
    expect(toSpamVerdict({ score: 15, required_score: 15, action: "reject", is_skipped: true } as never)?.isSpam).toBe(true);
    expect(toSpamVerdict({ error: "bad" } as never)).toBeNull();
  });
});
