// What downloads of stored content may hold at once in a process (docs/security.md: Large stored
// content). A content link is a credential anyone holding it may use, and a client may ask for a
// download and then read nothing: without bounds, a few hundred requests would hold gigabytes.
//
// A download enters the gate before it reads anything and holds its place until its body has been
// sent, the client is gone or it was cut off (download-stream.ts), not merely until its bytes are
// ready. A place counts bytes, not requests: an attachment claims twice its stored message while it
// is decoded (the message and the decoded bytes), then the attachment's size until sent; a streamed
// download claims the two slices it may hold. All places together hold at most `heldBytes`, of which
// `keptForSmallBytes` only downloads of at most `smallBytes` may take, so big downloads never starve
// small ones. Each claim names holders with a cap of their own (a link, the owner whose content it
// is, an API caller): a request over any cap, or past `waiting` queued requests, is answered 503
// service.unavailable with Retry-After. Waiting requests hold nothing but their request.
import { AppError } from "@/modules/shared/errors/app-error";

const MIB = 1024 * 1024;
const RETRY_AFTER_SECONDS = 5;

export type DownloadLimits = {
  /** Bytes all downloads in progress may hold together. */
  heldBytes: number;
  /** Of heldBytes, what only small downloads may take. */
  keptForSmallBytes: number;
  /** A download claiming at most this much is small. */
  smallBytes: number;
  /** Requests that may wait for room at once. */
  waiting: number;
  /** Downloads of one link at once (waiting ones included). */
  perLink: number;
  /** Downloads at once through the links of one owner's content, or by one API caller. */
  perOwner: number;
  /** A download whose client takes nothing for this long is cut off. */
  idleMs: number;
  /** A download not sent in full after this long is cut off. */
  sendMs: number;
};

export const DEFAULT_DOWNLOAD_LIMITS: DownloadLimits = {
  heldBytes: 128 * MIB,
  keptForSmallBytes: 16 * MIB,
  smallBytes: 1 * MIB,
  waiting: 64,
  perLink: 2,
  perOwner: 4,
  idleMs: 30_000,
  sendMs: 10 * 60_000,
};

/** Who a download counts against: each holder key at most `max` downloads at once. */
export type DownloadClaim = { bytes: number; holders: { key: string; max: number }[]; signal?: AbortSignal };

export type DownloadPlace = {
  /** Holds `bytes` from now on, when less than claimed (an attachment once decoded). */
  shrinkTo: (bytes: number) => void;
  /** Frees the place; calling it again does nothing. */
  release: () => void;
};

export type DownloadGate = {
  limits: DownloadLimits;
  /** A place for the claim, once it fits; throws 503 service.unavailable over a holder's cap or past the queue. */
  enter: (claim: DownloadClaim) => Promise<DownloadPlace>;
  counts: () => { running: number; waiting: number; heldBytes: number; byHolder: Record<string, number> };
};

const createTooManyDownloadsError = () =>
  new AppError({
    code: "service.unavailable",
    message: "Too many downloads are in progress; try again shortly.",
    retryAfterSeconds: RETRY_AFTER_SECONDS,
  });

type Waiter = { claim: DownloadClaim; admit: () => void };

export function createDownloadGate(limits: DownloadLimits): DownloadGate {
  let running = 0;
  let heldBytes = 0;
  const byHolder = new Map<string, number>();
  const waiters: Waiter[] = [];

  const count = (claim: DownloadClaim, step: 1 | -1) => {
    for (const { key } of claim.holders) {
      const next = (byHolder.get(key) ?? 0) + step;
      if (next === 0) byHolder.delete(key);
      else byHolder.set(key, next);
    }
  };
  // Alone, a download always fits, so one larger than the budget still runs (by itself).
  const fits = (bytes: number) =>
    running === 0 || heldBytes + bytes <= limits.heldBytes - (bytes > limits.smallBytes ? limits.keptForSmallBytes : 0);

  const openPlace = (claim: DownloadClaim): DownloadPlace => {
    running += 1;
    let held = claim.bytes;
    heldBytes += held;
    let isReleased = false;
    return {
      shrinkTo: (bytes) => {
        if (isReleased || bytes >= held) return;
        heldBytes -= held - bytes;
        held = bytes;
        admitWaiters();
      },
      release: () => {
        if (isReleased) return;
        isReleased = true;
        running -= 1;
        heldBytes -= held;
        count(claim, -1);
        admitWaiters();
      },
    };
  };

  // Any waiter that fits goes in, in order: a big one that does not fit yet holds back no small one.
  function admitWaiters() {
    for (let index = 0; index < waiters.length; ) {
      const waiter = waiters[index]!;
      if (!fits(waiter.claim.bytes)) {
        index += 1;
        continue;
      }
      waiters.splice(index, 1);
      waiter.admit();
    }
  }

  return {
    limits,
    enter: async (claim) => {
      claim.signal?.throwIfAborted();
      if (claim.holders.some(({ key, max }) => (byHolder.get(key) ?? 0) >= max)) throw createTooManyDownloadsError();
      if (fits(claim.bytes)) {
        count(claim, 1);
        return openPlace(claim);
      }
      if (waiters.length >= limits.waiting) throw createTooManyDownloadsError();
      count(claim, 1);
      return new Promise<DownloadPlace>((resolve, reject) => {
        const onAbort = () => {
          const index = waiters.indexOf(waiter);
          if (index < 0) return;
          waiters.splice(index, 1);
          count(claim, -1);
          reject(claim.signal?.reason);
        };
        const waiter: Waiter = {
          claim,
          admit: () => {
            claim.signal?.removeEventListener("abort", onAbort);
            resolve(openPlace(claim));
          },
        };
        waiters.push(waiter);
        claim.signal?.addEventListener("abort", onAbort, { once: true });
      });
    },
    counts: () => ({ running, waiting: waiters.length, heldBytes, byHolder: Object.fromEntries(byHolder) }),
  };
}
