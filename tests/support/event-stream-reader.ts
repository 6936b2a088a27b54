// Reads a text/event-stream body as the tests need it: each message (id, event, data) or comment as
// it arrives, with a wait that fails after a timeout instead of hanging the test.

export type StreamMessage = { id: string | undefined; event: string; data: string; comment?: undefined };
export type StreamComment = { comment: string };

export type EventStreamReader = {
  /** The next message (comments skipped) that matches, waiting up to `timeoutMs`; those skipped are dropped. */
  next: (match?: (message: StreamMessage) => boolean, timeoutMs?: number) => Promise<StreamMessage>;
  /** Every comment line received so far (`ping`, `connected`). */
  comments: string[];
  /** Messages that arrived and were not yet taken by `next`. */
  pending: () => StreamMessage[];
  /** Resolves once the server ended the stream. */
  ended: Promise<void>;
};

export function readEventStream(body: ReadableStream<Uint8Array>): EventStreamReader {
  const decoder = new TextDecoder();
  const queue: StreamMessage[] = [];
  const comments: string[] = [];
  let wake: (() => void) | undefined;
  let buffer = "";
  let pieces: string[] = [];
  let isEnded = false;

  const parseBlock = (block: string) => {
    let id: string | undefined;
    let event = "message";
    const data: string[] = [];
    let isMessage = false;
    for (const line of block.split("\n")) {
      if (line.startsWith(":")) {
        comments.push(line.slice(1).trim());
        continue;
      }
      const colon = line.indexOf(":");
      const field = colon === -1 ? line : line.slice(0, colon);
      const value = colon === -1 ? "" : line.slice(colon + 1).replace(/^ /, "");
      if (field === "id") id = value;
      if (field === "event") event = value;
      if (field === "data") {
        data.push(value);
        isMessage = true;
      }
    }
    if (isMessage) queue.push({ id, event, data: data.join("\n") });
  };

  const ended = (async () => {
    const reader = body.getReader();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        const text = decoder.decode(value, { stream: true }).replace(/\r\n?/g, "\n");
        // A large message comes in many chunks: they are joined only once one of them may end it.
        const mayEnd = text.includes("\n\n") || (text.startsWith("\n") && (pieces.at(-1) ?? buffer).endsWith("\n"));
        pieces.push(text);
        if (!mayEnd) continue;
        buffer += pieces.join("");
        pieces = [];
        let end = buffer.indexOf("\n\n");
        while (end !== -1) {
          parseBlock(buffer.slice(0, end));
          buffer = buffer.slice(end + 2);
          end = buffer.indexOf("\n\n");
        }
        wake?.();
      }
    } catch {
      // Aborted by the test.
    } finally {
      isEnded = true;
      wake?.();
    }
  })();

  async function next(match: (message: StreamMessage) => boolean = () => true, timeoutMs = 10_000) {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      while (queue.length > 0) {
        const message = queue.shift()!;
        if (match(message)) return message;
      }
      if (isEnded) throw new Error("the event stream ended");
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no matching event within ${timeoutMs} ms`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      wake = undefined;
    }
  }

  return { next, comments, pending: () => [...queue], ended };
}
