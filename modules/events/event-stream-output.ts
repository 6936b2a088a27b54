// What an event stream has written and its client has not taken yet (docs/webhooks.md: Live
// events), held to a bound. The response body hands the client one chunk at a time, when it asks for
// one (the server asks once the connection has sent the last); a write waits until there is room,
// so what waits for a client never exceeds `maxQueuedBytes`. A client that takes nothing for
// `stallMs` while something waits is cut off: what waited is dropped and the body errors, which
// makes the server close the connection once it is done with the chunk it holds; a connection that
// takes nothing at all is closed by the web server's idle timeout (docs/security.md: Live events).
// The client resumes with Last-Event-ID.

/** The largest chunk handed to the response at once. */
const CHUNK_BYTES = 64 * 1024;

export type EventStreamOutput = {
  readable: ReadableStream<Uint8Array>;
  /** Queues the text once there is room for it, a chunk at a time; does nothing once the output ended. */
  write: (text: string) => Promise<void>;
  /** Queues the text only when nothing waits (a heartbeat); answers whether it did. */
  writeIfIdle: (text: string) => boolean;
  queuedBytes: () => number;
  /** Ends once the client took what waits (it is cut off if it does not, as any stalled client). */
  close: () => void;
  /** Ends at once: what waits is dropped and the response errors, so that its connection is closed. */
  cut: () => void;
  /** Resolves once the response was read to its end, or cancelled (not when cut: the connection closes after). */
  ended: Promise<void>;
};

export function createEventStreamOutput({
  maxQueuedBytes,
  stallMs,
  onStalled,
}: {
  maxQueuedBytes: number;
  stallMs: number;
  /** Called when a client is cut off for taking nothing for `stallMs`. */
  onStalled: (queuedBytes: number) => void;
}): EventStreamOutput {
  const encoder = new TextEncoder();
  const chunkBytes = Math.max(1, Math.min(CHUNK_BYTES, maxQueuedBytes));
  const queue: Uint8Array[] = [];
  let queued = 0;
  let isClosing = false;
  let isEnded = false;
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  /** Woken when the client takes a chunk or the output ends (writers waiting for room). */
  let roomWaiters: (() => void)[] = [];
  /** Woken when something is queued or the output closes (the client waiting for data). */
  let dataWaiter: (() => void) | undefined;
  let stallTimer: NodeJS.Timeout | undefined;
  let markEnded!: () => void;
  const ended = new Promise<void>((resolve) => {
    markEnded = resolve;
  });

  const readable = new ReadableStream<Uint8Array>(
    {
      start: (streamController) => {
        controller = streamController;
      },
      pull: async () => {
        while (queue.length === 0 && !isClosing && !isEnded) await new Promise<void>((resolve) => (dataWaiter = resolve));
        dataWaiter = undefined;
        if (isEnded) return;
        const chunk = queue.shift();
        if (!chunk) {
          end();
          controller.close();
          markEnded();
          return;
        }
        queued -= chunk.byteLength;
        controller.enqueue(chunk);
        armStallTimer();
        wakeWriters();
      },
      cancel: () => {
        end();
        markEnded();
      },
    },
    { highWaterMark: 0 },
  );

  function wakeWriters() {
    const waiters = roomWaiters;
    roomWaiters = [];
    for (const wake of waiters) wake();
  }

  /** Started as something waits, restarted each time the client takes a chunk, stopped when nothing waits. */
  function armStallTimer() {
    clearTimeout(stallTimer);
    stallTimer = undefined;
    if (isEnded || (queue.length === 0 && !isClosing)) return;
    stallTimer = setTimeout(() => {
      onStalled(queued);
      cut();
    }, stallMs);
    stallTimer.unref();
  }

  function push(chunk: Uint8Array) {
    queue.push(chunk);
    queued += chunk.byteLength;
    if (!stallTimer) armStallTimer();
    dataWaiter?.();
  }

  async function write(text: string) {
    const bytes = encoder.encode(text);
    for (let offset = 0; offset < bytes.byteLength && !isEnded && !isClosing; offset += chunkBytes) {
      const chunk = bytes.subarray(offset, offset + chunkBytes);
      // Checked before queueing: a chunk waits for room rather than going over the bound.
      while (queued + chunk.byteLength > maxQueuedBytes && !isEnded)
        await new Promise<void>((resolve) => roomWaiters.push(resolve));
      if (isEnded) return;
      push(chunk);
    }
  }

  function writeIfIdle(text: string) {
    if (queued > 0 || isEnded || isClosing) return false;
    void write(text);
    return true;
  }

  function end() {
    if (isEnded) return;
    isEnded = true;
    clearTimeout(stallTimer);
    queue.length = 0;
    queued = 0;
    wakeWriters();
    dataWaiter?.();
  }

  function close() {
    if (isClosing || isEnded) return;
    isClosing = true;
    armStallTimer();
    wakeWriters();
    dataWaiter?.();
  }

  function cut() {
    if (isEnded) return;
    end();
    // Named like an abort, so that the server closes the connection without logging an error.
    controller.error(new DOMException("The event stream was cut off.", "AbortError"));
  }

  return { readable, write, writeIfIdle, queuedBytes: () => queued, close, cut, ended };
}
