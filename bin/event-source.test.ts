// The command's own Server-Sent Events parser (bin/event-source.mjs) reads the stream as the
// specification says, however the bytes are cut into chunks.
import { describe, expect, it } from "vitest";
import { createEventStreamParser } from "./event-source.mjs";

const STREAM =
  'retry: 2000\n: connected\n\nevent: email.received\ndata: {"body":"{}"}\n\nid: 41\nevent: processing\ndata: {"id":"ep_1"}\n\n: ping\n\n';

describe("the event stream parser", () => {
  it("reads id, event and data, skips comments, and reports retry", () => {
    const retries: number[] = [];
    const parser = createEventStreamParser({ onRetry: (ms) => retries.push(ms) });
    expect(parser.push(STREAM)).toEqual([
      { id: undefined, event: "email.received", data: '{"body":"{}"}' },
      { id: "41", event: "processing", data: '{"id":"ep_1"}' },
    ]);
    expect(retries).toEqual([2000]);
  });

  it("gives the same messages when the text arrives one character at a time", () => {
    const parser = createEventStreamParser();
    const messages = [...STREAM].flatMap((character) => parser.push(character));
    expect(messages.map((message) => message.id)).toEqual([undefined, "41"]);
  });

  it("accepts CRLF and CR line ends, a CRLF cut between chunks, multi-line data, and no space after the colon", () => {
    const parser = createEventStreamParser();
    const first = parser.push("id:7\r\nevent:processing\r\ndata:a\r");
    const rest = parser.push("\ndata:b\r\rdata: c\n\n");
    expect([...first, ...rest]).toEqual([
      { id: "7", event: "processing", data: "a\nb" },
      { id: undefined, event: "message", data: "c" },
    ]);
  });

  it("sends nothing for a message without data, and keeps a partial message until its blank line", () => {
    const parser = createEventStreamParser();
    expect(parser.push("event: processing\n\nid: 3\ndata: x\n")).toEqual([]);
    expect(parser.push("\n")).toEqual([{ id: "3", event: "message", data: "x" }]);
  });
});
