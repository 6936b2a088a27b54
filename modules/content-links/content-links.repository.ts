// The stored raw message behind a content link; null once it is past its retention (or never kept).
import type { Database } from "@/modules/db/db";
import type { ContentLinksRepository } from "./content-links.usecases";

export function createContentLinksRepository({ executor }: Pick<Database, "executor">): ContentLinksRepository {
  return {
    findRawMessage: async (processingId) => {
      const [row] = await executor.query<{ rawMessage: Uint8Array | null }>(
        'SELECT "rawMessage" FROM email_processing WHERE id = $1',
        [processingId],
      );
      return row?.rawMessage ? Buffer.from(row.rawMessage.buffer, row.rawMessage.byteOffset, row.rawMessage.byteLength) : null;
    },
  };
}
