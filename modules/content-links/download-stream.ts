// The body of a download that holds its place at the gate (download-gate.ts) until it is sent: the
// place is released when the body has been read to its end, when the client goes (the stream is
// cancelled), when reading the stored value fails, or when the client is cut off. A client that takes
// nothing for `idleMs`, or has not taken the whole body after `sendMs`, is cut off: the stream fails,
// the server closes the connection, and the bytes the download held are let go
// (docs/security.md: Large stored content).
import { VALUE_SLICE_BYTES } from "@/modules/db/sliced-values";
import type { DownloadClaim, DownloadGate, DownloadPlace } from "./download-gate";

/** Whole bytes are handed out in chunks of this size, each once the client asks for it. */
const CHUNK_BYTES = 64 * 1024;

/** Named AbortError: the server then closes the connection as for a client that went, without logging a failure. */
const createCutOffError = (why: string) => new DOMException(`The download was cut off: ${why}.`, "AbortError");

export function streamHeldDownload({
  body,
  place,
  idleMs,
  sendMs,
}: {
  body: Uint8Array<ArrayBuffer> | ReadableStream<Uint8Array>;
  place: DownloadPlace;
  idleMs: number;
  sendMs: number;
}): ReadableStream<Uint8Array> {
  let whole: Uint8Array<ArrayBuffer> | null = body instanceof Uint8Array ? body : null;
  let offset = 0;
  const reader = body instanceof Uint8Array ? null : body.getReader();
  let idleTimer: NodeJS.Timeout | undefined;
  let sendTimer: NodeJS.Timeout | undefined;
  let isDone = false;
  let cutOff: (why: string) => void = () => undefined;

  const finish = () => {
    if (isDone) return;
    isDone = true;
    clearTimeout(idleTimer);
    clearTimeout(sendTimer);
    whole = null;
    place.release();
  };
  const waitForClient = () => {
    clearTimeout(idleTimer);
    idleTimer = setTimeout(() => cutOff(`the client took nothing for ${idleMs} ms`), idleMs);
  };

  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        cutOff = (why) => {
          if (isDone) return;
          const error = createCutOffError(why);
          controller.error(error);
          reader?.cancel(error).catch(() => undefined);
          finish();
        };
        sendTimer = setTimeout(() => cutOff(`not sent in full after ${sendMs} ms`), sendMs);
        waitForClient();
      },
      async pull(controller) {
        // The client asked for more: it is reading. Time spent reading the stored value is not its own.
        clearTimeout(idleTimer);
        try {
          // The place goes once the client asks for more after the last chunk: the body has been sent.
          if (whole && offset < whole.byteLength) {
            controller.enqueue(whole.subarray(offset, offset + CHUNK_BYTES));
            offset += CHUNK_BYTES;
          } else if (reader) {
            const { done, value } = await reader.read();
            if (isDone) return;
            if (done) {
              controller.close();
              finish();
            } else controller.enqueue(value);
          } else {
            controller.close();
            finish();
          }
        } catch (error) {
          if (isDone) return;
          controller.error(error);
          finish();
          return;
        }
        if (!isDone) waitForClient();
      },
      cancel(reason) {
        reader?.cancel(reason).catch(() => undefined);
        finish();
      },
    },
    { highWaterMark: 0 },
  );
}

/** What a streamed download may hold at once: the slice being sent and the next one. */
export const STREAMED_DOWNLOAD_BYTES = 2 * VALUE_SLICE_BYTES;

type DownloadBytes = Uint8Array<ArrayBuffer> | ReadableStream<Uint8Array>;

/**
 * Enters the gate with `claim`, then runs `open` (which may shrink the place once it knows the size)
 * and answers its download with a body that holds the place until sent. The place is freed at once
 * when `open` throws.
 */
export async function openHeldDownload<T extends { body: DownloadBytes }>({
  gate,
  claim,
  open,
}: {
  gate: DownloadGate;
  claim: DownloadClaim;
  open: (place: DownloadPlace) => Promise<T>;
}): Promise<T & { body: ReadableStream<Uint8Array> }> {
  const place = await gate.enter(claim);
  try {
    const download = await open(place);
    const { idleMs, sendMs } = gate.limits;
    return { ...download, body: streamHeldDownload({ body: download.body, place, idleMs, sendMs }) };
  } catch (error) {
    place.release();
    throw error;
  }
}
