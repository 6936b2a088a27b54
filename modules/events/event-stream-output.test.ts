// The bounded output of an event stream (event-stream-output.ts): what waits for a client never
// exceeds the bound, a client that takes nothing is cut off, and the output says when it has ended.
import { describe, expect, it } from "vitest";
import { createEventStreamOutput } from "./event-stream-output";

const LIMIT = 256 * 1024;

function watchedOutput(stallMs = 60_000) {
  const stalls: number[] = [];
  const output = createEventStreamOutput({ maxQueuedBytes: LIMIT, stallMs, onStalled: (queued) => stalls.push(queued) });
  let peak = 0;
  const write = async (text: string) => {
    const writing = output.write(text);
    peak = Math.max(peak, output.queuedBytes());
    await writing;
  };
  return { output, stalls, write, peak: () => peak };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 20));

describe("the event stream output", () => {
  it("never queues more than its bound: a write larger than the room waits for the client to take some", async () => {
    const { output, write, peak } = watchedOutput();
    const large = "x".repeat(3 * LIMIT);
    let isWritten = false;
    const writing = write(large).then(() => {
      isWritten = true;
    });
    await settle();
    expect(output.queuedBytes()).toBeLessThanOrEqual(LIMIT);
    expect(output.queuedBytes()).toBeGreaterThan(LIMIT / 2);
    expect(isWritten).toBe(false);

    const reader = output.readable.getReader();
    let received = 0;
    let highest = 0;
    while (received < large.length) {
      const { value } = await reader.read();
      received += value!.byteLength;
      highest = Math.max(highest, output.queuedBytes());
    }
    await writing;
    expect(received).toBe(large.length);
    expect(Math.max(peak(), highest)).toBeLessThanOrEqual(LIMIT);
  });

  it("cuts off a client that takes nothing for stallMs: its response errors and what waited is dropped", async () => {
    const { output, stalls } = watchedOutput(50);
    void output.write("y".repeat(2 * LIMIT));
    await expect.poll(() => stalls).toEqual([LIMIT]);
    expect(output.queuedBytes()).toBe(0);
    await expect(output.readable.getReader().read()).rejects.toThrow("cut off");
  });

  it("ends once the client read what waited after close, and a heartbeat is written only when nothing waits", async () => {
    const { output } = watchedOutput();
    expect(output.writeIfIdle(": ping\n\n")).toBe(true);
    expect(output.writeIfIdle(": ping\n\n")).toBe(false);
    void output.write("data: last\n\n");
    output.close();
    let isEnded = false;
    void output.ended.then(() => {
      isEnded = true;
    });
    const text = await new Response(output.readable).text();
    expect(text).toBe(": ping\n\ndata: last\n\n");
    expect(isEnded).toBe(true);
  });

  it("ends when the client cancels its response", async () => {
    const { output } = watchedOutput();
    void output.write("data: x\n\n");
    await output.readable.cancel();
    await output.ended;
    expect(output.queuedBytes()).toBe(0);
  });
});
