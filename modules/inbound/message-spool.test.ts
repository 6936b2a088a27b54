// The spool of large messages (docs/architecture.md: Large values): owner-only files written as the
// message arrives, deleted once answered, and what a stopped process left swept by the next.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { createMemoryLogger } from "@/tests/support/memory-logger";
import { createMessageSpool, SPOOL_STALE_AFTER_MS } from "./message-spool";

const newDirectory = () => path.join(fs.mkdtempSync(path.join(os.tmpdir(), "hookmail-spool-")), "spool");

describe("createMessageSpool", () => {
  it("writes a message's chunks in order to an owner-only file of an owner-only directory, and deletes it when discarded", async () => {
    const directory = newDirectory();
    const spool = createMessageSpool(directory);
    const writer = (await spool.open())!;
    await writer.write(Buffer.from("From: bob@example.org\r\n\r\n"));
    await writer.write(new Uint8Array(Buffer.from("hello\r\n")));
    const spooled = await writer.finish();

    expect(spooled.byteLength).toBe(32);
    expect(fs.readFileSync(spooled.spoolPath, "utf8")).toBe("From: bob@example.org\r\n\r\nhello\r\n");
    expect(fs.statSync(directory).mode & 0o777).toBe(0o700);
    expect(fs.statSync(spooled.spoolPath).mode & 0o777).toBe(0o600);
    await writer.discard();
    await writer.discard();
    expect(fs.readdirSync(directory)).toEqual([]);
  });

  it("deletes a file given up before it was finished", async () => {
    const directory = newDirectory();
    const writer = (await createMessageSpool(directory).open())!;
    await writer.write(Buffer.alloc(1024, 0x61));
    await writer.discard();
    expect(fs.readdirSync(directory)).toEqual([]);
  });

  it("answers no file, and says why in the log, where the directory cannot be made", async () => {
    const blocker = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "hookmail-spool-")), "not-a-directory");
    fs.writeFileSync(blocker, "a file where the spool's parent should be");
    const { logger, lines } = createMemoryLogger();
    expect(await createMessageSpool(path.join(blocker, "spool"), logger).open()).toBeNull();
    expect(lines.join("\n")).toMatch(/Cannot write to the spool/);
  });

  it("sweeps only the spooled files untouched for a day, and answers how many went", async () => {
    const directory = newDirectory();
    const spool = createMessageSpool(directory);
    const stale = await (await spool.open())!.finish();
    const fresh = await (await spool.open())!.finish();
    const dayAndMinuteAgo = (Date.now() - SPOOL_STALE_AFTER_MS - 60_000) / 1000;
    fs.utimesSync(stale.spoolPath, dayAndMinuteAgo, dayAndMinuteAgo);
    fs.writeFileSync(path.join(directory, "notes.txt"), "not a spooled message");

    expect(await spool.sweep()).toBe(1);
    expect(fs.readdirSync(directory).sort()).toEqual([path.basename(fresh.spoolPath), "notes.txt"].sort());
    expect(await createMessageSpool(path.join(directory, "missing")).sweep()).toBe(0);
  });
});
