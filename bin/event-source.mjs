// A Server-Sent Events client for the `hookmail` command (README: The hookmail command): reads
// GET …/events with fetch, parses the stream (fields id, event, data, retry; comments), and
// reconnects after a network loss or a silent connection, sending Last-Event-ID so that nothing
// is missed. Node built-ins and fetch only: this file runs without the app.

/** The server sends a comment every ~15 s: a connection silent this long is taken for dead. */
const SILENCE_TIMEOUT_MS = 45_000;
const MAX_RECONNECT_DELAY_MS = 30_000;

/** An error that reconnecting will not cure (bad key, unknown address): the caller stops. */
export class FatalStreamError extends Error {}

/**
 * Parses SSE text into messages as it arrives. `push` takes the next decoded chunk and returns the
 * messages it completed: `{ id, event, data }`; `retry` is reported through `onRetry`.
 */
export function createEventStreamParser({ onRetry = () => undefined } = {}) {
  let buffer = "";
  let data = [];
  let event = "";
  let id;
  let hasData = false;
  const lineEnd = /\r\n|\r|\n/;

  function takeLine(line, messages) {
    if (line === "") {
      if (hasData) messages.push({ id, event: event || "message", data: data.join("\n") });
      data = [];
      event = "";
      id = undefined;
      hasData = false;
      return;
    }
    if (line.startsWith(":")) return;
    const colon = line.indexOf(":");
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? "" : line.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    if (field === "data") {
      data.push(value);
      hasData = true;
    } else if (field === "event") event = value;
    else if (field === "id" && !value.includes("\0")) id = value;
    else if (field === "retry" && /^\d+$/.test(value)) onRetry(Number(value));
  }

  return {
    push(text) {
      buffer += text;
      const messages = [];
      for (;;) {
        const match = lineEnd.exec(buffer);
        // A lone CR at the end may be the first half of CRLF: wait for the next chunk.
        if (!match || (match[0] === "\r" && match.index === buffer.length - 1)) break;
        takeLine(buffer.slice(0, match.index), messages);
        buffer = buffer.slice(match.index + match[0].length);
      }
      return messages;
    },
  };
}

/**
 * Follows an event stream until `signal` aborts: `onMessage(message)` for each message (awaited, so
 * messages are handled one at a time and in order), `onConnect()` and `onDisconnect(reason)` around
 * each connection. `checkResponse(response)` may throw a FatalStreamError for a refused request.
 */
export async function followEventStream({ url, headers, signal, onMessage, onConnect, onDisconnect, checkResponse }) {
  let lastEventId;
  let retryMs = 2_000;
  let failures = 0;
  while (!signal.aborted) {
    const connection = new AbortController();
    const abort = () => connection.abort();
    signal.addEventListener("abort", abort, { once: true });
    let silence;
    const resetSilence = () => {
      clearTimeout(silence);
      silence = setTimeout(() => connection.abort(new Error("no data from the server for 45 s")), SILENCE_TIMEOUT_MS);
    };
    let reason;
    try {
      resetSilence();
      const response = await fetch(url, {
        headers: { ...headers, Accept: "text/event-stream", ...(lastEventId ? { "Last-Event-ID": lastEventId } : {}) },
        signal: connection.signal,
      });
      await checkResponse(response);
      if (!response.ok || !response.body) throw new Error(`the server answered ${response.status}`);
      failures = 0;
      onConnect?.();
      const parser = createEventStreamParser({ onRetry: (value) => (retryMs = value) });
      const decoder = new TextDecoder();
      for await (const chunk of response.body) {
        resetSilence();
        for (const message of parser.push(decoder.decode(chunk, { stream: true }))) {
          if (message.id !== undefined) lastEventId = message.id;
          await onMessage(message);
        }
      }
      reason = "the server ended the stream";
    } catch (error) {
      if (error instanceof FatalStreamError) throw error;
      reason = connection.signal.reason?.message ?? describeFetchError(error);
    } finally {
      clearTimeout(silence);
      signal.removeEventListener("abort", abort);
    }
    if (signal.aborted) return;
    failures += 1;
    const delay = Math.min(MAX_RECONNECT_DELAY_MS, retryMs * 2 ** Math.min(failures - 1, 4));
    onDisconnect?.(reason, delay);
    await sleep(delay, signal);
  }
}

export function describeFetchError(error) {
  const cause = error?.cause?.errors?.[0] ?? error?.cause;
  if (cause?.code)
    return `${cause.code}${cause.address ? ` ${cause.address}:${cause.port}` : cause.hostname ? ` ${cause.hostname}` : ""}`;
  return cause?.message ?? error?.message ?? String(error);
}

function sleep(ms, signal) {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    }
    signal.addEventListener("abort", done, { once: true });
  });
}
