// The processing behind a content link while its address exists, and its stored raw message (null
// once past its retention, or never kept).
import type { Database } from "@/modules/db/db";
import { openBytea, readBytea } from "@/modules/db/sliced-values";
import type { ContentLinksRepository } from "./content-links.usecases";

export function createContentLinksRepository({ executor }: Pick<Database, "executor">): ContentLinksRepository {
  const rawMessage = (processingId: string) => ({ table: "email_processing", column: '"rawMessage"', id: processingId });
  return {
    findLinkedProcessing: async (processingId) => {
      const [row] = await executor.query<{ ownerId: string; rawMessageBytes: number | string | null }>(
        `SELECT c."userId" AS "ownerId", octet_length(p."rawMessage") AS "rawMessageBytes"
         FROM email_processing p JOIN email_callback c ON c.id = p."emailCallbackId"
         WHERE p.id = $1 AND c."deletedAt" IS NULL`,
        [processingId],
      );
      if (!row) return null;
      return { ownerId: row.ownerId, rawMessageBytes: row.rawMessageBytes === null ? null : Number(row.rawMessageBytes) };
    },
    findRawMessage: async (processingId) => (await readBytea(executor, rawMessage(processingId))) ?? null,
    openRawMessage: async (processingId) => (await openBytea(executor, rawMessage(processingId))) ?? null,
  };
}
