// The header block as DMARC reads it, from a message's bytes or from its file (docs/webhooks.md: Authentication).
import { describe, expect, it } from "vitest";
import { readHeaderBlockOf, readMailAuthHeaders } from "./mail-auth-headers";

const padding = (bytes: number) => `X-Padding: ${Array.from({ length: bytes / 70 }, () => "p".repeat(66)).join("\r\n ")}\r\n`;

describe("readHeaderBlockOf", () => {
  it.each([
    ["a short header block", 0],
    ["a header block longer than the first read (64 KiB)", 200 * 1024],
    ["a header block longer than two reads", 1_200 * 1024],
  ])("reads %s from a file exactly as from the bytes, stopping at its empty line", async (_name, paddingBytes) => {
    const head = `${padding(paddingBytes)}From: Bob <bob@sender.example>\r\nSubject: hi\r\n`;
    const raw = Buffer.from(`${head}\r\n${"body line\r\n".repeat(200_000)}`);
    const fromFile = await readHeaderBlockOf(new Blob([raw]));
    expect(fromFile.equals(await readHeaderBlockOf(raw))).toBe(true);
    expect(fromFile.toString("latin1")).toBe(head);
    expect(readMailAuthHeaders(fromFile).author).toEqual({ address: "bob@sender.example", domain: "sender.example" });
  });

  it("reads the whole message when it has no empty line", async () => {
    const raw = Buffer.from(`From: bob@sender.example\r\n${padding(300 * 1024)}`);
    expect((await readHeaderBlockOf(new Blob([raw]))).equals(raw)).toBe(true);
  });
});
