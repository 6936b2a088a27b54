// Group commit for writes that can share a statement: items that arrive while one write is under
// way go together in the next, up to a batch size. With a window, the first item of a batch also
// waits up to that long for others, unless a full batch is waiting (docs/architecture.md: Group commit).

export type BatchedWriterOptions = {
  /** Most items in one write. */
  maxBatch: number;
  /** How long the oldest waiting item may wait for others before its write starts; 0: at once. */
  windowMs?: number;
};

/** What the writer has done so far: writes started and the items they carried. */
export type BatchedWriterStats = { writes: number; items: number };

export type BatchedWriter<Item, Result> = { write: (item: Item) => Promise<Result>; getStats: () => BatchedWriterStats };

type Waiting<Item, Result> = {
  item: Item;
  /** When it arrived (performance.now()). */
  arrivedAt: number;
  resolve: (result: Result) => void;
  reject: (error: unknown) => void;
};

/**
 * Calls `write` with the items waiting, one call at a time: under load the items of many callers share
 * a statement. Without a window, an item that finds no write under way is written at once; with one,
 * a batch starts `windowMs` after its oldest item arrived, or as soon as `maxBatch` items wait.
 */
export function createBatchedWriter<Item, Result>(
  { maxBatch, windowMs = 0 }: BatchedWriterOptions,
  write: (items: Item[]) => Promise<Result[]>,
): BatchedWriter<Item, Result> {
  let queue: Waiting<Item, Result>[] = [];
  let isWriting = false;
  let timer: NodeJS.Timeout | undefined;
  const stats: BatchedWriterStats = { writes: 0, items: 0 };

  const writeBatch = async () => {
    const batch = queue.slice(0, maxBatch);
    queue = queue.slice(batch.length);
    stats.writes += 1;
    stats.items += batch.length;
    try {
      const results = await write(batch.map(({ item }) => item));
      for (const [index, { resolve }] of batch.entries()) resolve(results[index]!);
    } catch (error) {
      for (const { reject } of batch) reject(error);
    }
  };

  /** Writes now when the window is over or a full batch waits, else once the window ends. */
  const schedule = () => {
    const [oldest] = queue;
    if (isWriting || timer || !oldest) return;
    const remainingMs = oldest.arrivedAt + windowMs - performance.now();
    if (queue.length >= maxBatch || remainingMs <= 0) {
      void drain();
      return;
    }
    timer = setTimeout(() => {
      timer = undefined;
      schedule();
    }, remainingMs);
  };

  const drain = async () => {
    isWriting = true;
    await writeBatch();
    isWriting = false;
    schedule();
  };

  const enqueue = (item: Item) =>
    new Promise<Result>((resolve, reject) => {
      queue.push({ item, arrivedAt: performance.now(), resolve, reject });
      if (queue.length >= maxBatch && timer) {
        clearTimeout(timer);
        timer = undefined;
      }
      schedule();
    });
  return { write: enqueue, getStats: () => ({ ...stats }) };
}
