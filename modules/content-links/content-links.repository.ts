// The stored raw message behind a content link; null once it is past its retention (or never kept).
import type { Database } from "@/modules/db/db";
import { readBytea } from "@/modules/db/sliced-values";
import type { ContentLinksRepository } from "./content-links.usecases";

export function createContentLinksRepository({ executor }: Pick<Database, "executor">): ContentLinksRepository {
  return {
    findRawMessage: async (processingId) => {
      const raw = await readBytea(executor, { table: "email_processing", column: '"rawMessage"', id: processingId });
      return raw ?? null;
    },
  };
}
