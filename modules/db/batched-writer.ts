// Group commit for writes that can share a statement: items that arrive while one write is under
// way go together in the next, up to a batch size. Alone, an item is written at once.

/**
 * Calls `write` with every item that arrived since the last call began, one call at a time: under
 * load the items of many callers share a statement, alone an item is written at once.
 */
export function createBatchedWriter<Item, Result>(
  maxBatch: number,
  write: (items: Item[]) => Promise<Result[]>,
): (item: Item) => Promise<Result> {
  let queue: { item: Item; resolve: (result: Result) => void; reject: (error: unknown) => void }[] = [];
  let isWriting = false;
  const drain = async () => {
    isWriting = true;
    while (queue.length > 0) {
      const batch = queue.slice(0, maxBatch);
      queue = queue.slice(batch.length);
      try {
        const results = await write(batch.map(({ item }) => item));
        for (const [index, { resolve }] of batch.entries()) resolve(results[index]!);
      } catch (error) {
        for (const { reject } of batch) reject(error);
      }
    }
    isWriting = false;
  };
  return (item) =>
    new Promise<Result>((resolve, reject) => {
      queue.push({ item, resolve, reject });
      if (!isWriting) void drain();
    });
}
