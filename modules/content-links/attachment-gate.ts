// How many attachments a process decodes from stored messages at once (docs/security.md: Large
// stored content). An attachment is decoded from the whole stored message in a parsing thread, so
// each download in progress holds its message (up to 25 MiB) and the decoded bytes. A content link
// is a credential anyone holding it may use: without a bound, a few hundred requests for one link
// would hold gigabytes. At most ATTACHMENT_DECODES_RUNNING run at once; up to
// ATTACHMENT_DECODES_WAITING more wait their turn holding nothing but their request; beyond that a
// request is answered 503 service.unavailable with Retry-After.
import { AppError } from "@/modules/shared/errors/app-error";
import { processSingleton } from "@/modules/shared/process-singleton";

export const ATTACHMENT_DECODES_RUNNING = 4;
export const ATTACHMENT_DECODES_WAITING = 64;
const RETRY_AFTER_SECONDS = 5;

export type ConcurrencyGate = {
  /** Runs `task` when a place is free; throws 503 service.unavailable when too many already wait. */
  run: <T>(task: () => Promise<T>) => Promise<T>;
  counts: () => { running: number; waiting: number };
};

export function createConcurrencyGate({ running: maxRunning, waiting: maxWaiting }: { running: number; waiting: number }) {
  let running = 0;
  const waiting: (() => void)[] = [];
  // A place that ends goes straight to the first waiter, so `running` only counts places.
  const release = () => {
    const next = waiting.shift();
    if (next) next();
    else running -= 1;
  };
  const gate: ConcurrencyGate = {
    run: async (task) => {
      if (running < maxRunning) running += 1;
      else if (waiting.length < maxWaiting) await new Promise<void>((resolve) => waiting.push(resolve));
      else {
        throw new AppError({
          code: "service.unavailable",
          message: "Too many attachments are being read; try again shortly.",
          retryAfterSeconds: RETRY_AFTER_SECONDS,
        });
      }
      try {
        return await task();
      } finally {
        release();
      }
    },
    counts: () => ({ running, waiting: waiting.length }),
  };
  return gate;
}

const processGate = processSingleton<ConcurrencyGate>("attachmentGate");

/** The process's gate for attachment downloads (content links and the API's attachment call). */
export const getAttachmentGate = () =>
  processGate.getOrCreate(() =>
    createConcurrencyGate({ running: ATTACHMENT_DECODES_RUNNING, waiting: ATTACHMENT_DECODES_WAITING }),
  );
