// The stored raw message behind a content link; null once it is past its retention (or never kept).
import type { Database } from "@/modules/db/db";
import { openBytea, readBytea } from "@/modules/db/sliced-values";
import type { ContentLinksRepository } from "./content-links.usecases";

export function createContentLinksRepository({ executor }: Pick<Database, "executor">): ContentLinksRepository {
  const rawMessage = (processingId: string) => ({ table: "email_processing", column: '"rawMessage"', id: processingId });
  return {
    findRawMessage: async (processingId) => (await readBytea(executor, rawMessage(processingId))) ?? null,
    openRawMessage: async (processingId) => (await openBytea(executor, rawMessage(processingId))) ?? null,
  };
}
