// Reading a raw message's header block on the request's thread: linear in the block, so that a
// hostile header (folded over thousands of lines) never holds the event loop (docs/security.md).
import { describe, expect, it } from "vitest";
import { readHeaderFields } from "./message-headers";

describe("readHeaderFields", () => {
  it("unfolds a field's lines into one value, skipping empty continuation lines", () => {
    const raw = Buffer.from("Subject: one\r\n  two \r\n \r\n\tthree\r\nX-Empty:\r\n later\r\nTo: a@b.c\r\n\r\nbody\r\n");
    expect(readHeaderFields(raw)).toEqual([
      { name: "Subject", value: "one two three" },
      { name: "X-Empty", value: "later" },
      { name: "To", value: "a@b.c" },
    ]);
  });

  it("reads a header folded over 60,000 lines in linear time (well under 250 ms)", () => {
    const lines = Array.from({ length: 60_000 }, (_, index) => ` part${index}`);
    const raw = Buffer.from(`Subject: folded\r\n${lines.join("\r\n")}\r\nTo: a@b.c\r\n\r\nbody\r\n`);
    const startedAt = performance.now();
    const fields = readHeaderFields(raw);
    const elapsedMs = performance.now() - startedAt;
    expect(fields?.[0]?.value.split(" ")).toHaveLength(60_001);
    expect(elapsedMs).toBeLessThan(250);
  });
});
