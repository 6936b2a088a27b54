// Prisma access to API keys. No rules here; owner checks are part of each query (`where: { id, userId }`).
// The hashed key is written and matched, never read back.
import type { Prisma, PrismaClient } from "@/modules/db/generated/client";
import { API_KEY_DELETED_NOTICE, LIVE_EVENTS_CHANNEL } from "@/modules/db/live-events-channel";
import { lockingForUser } from "@/modules/db/user-lock";
import type { ApiKeyRecord } from "./api-keys.models";

const API_KEY_FIELDS = { id: true, userId: true, name: true, prefix: true, createdAt: true, lastUsedAt: true } as const;

function createApiKeysQueries(db: PrismaClient | Prisma.TransactionClient) {
  return {
    listApiKeysOfUser: (userId: string): Promise<ApiKeyRecord[]> =>
      db.apiKey.findMany({ where: { userId }, select: API_KEY_FIELDS, orderBy: [{ createdAt: "desc" }, { id: "desc" }] }),
    countApiKeysOfUser: (userId: string): Promise<number> => db.apiKey.count({ where: { userId } }),
    insertApiKey: (data: {
      id: string;
      userId: string;
      name: string;
      prefix: string;
      hashedKey: string;
    }): Promise<ApiKeyRecord> => db.apiKey.create({ data, select: API_KEY_FIELDS }),
    findApiKeyByHashedKey: (hashedKey: string): Promise<ApiKeyRecord | null> =>
      db.apiKey.findUnique({ where: { hashedKey }, select: API_KEY_FIELDS }),
    /** Sets lastUsedAt to now unless it is already at or after notBefore (concurrent calls write once). */
    touchApiKeyLastUsedAt: async ({ id, now, notBefore }: { id: string; now: Date; notBefore: Date }): Promise<void> => {
      await db.apiKey.updateMany({
        where: { id, OR: [{ lastUsedAt: null }, { lastUsedAt: { lt: notBefore } }] },
        data: { lastUsedAt: now },
      });
    },
  };
}

export function createApiKeysRepository(prisma: PrismaClient) {
  return {
    ...createApiKeysQueries(prisma),
    /**
     * Answers whether a key of this user was deleted. The deletion is announced on the live events
     * channel in the same transaction, so that every process ends the streams opened with the key.
     */
    deleteApiKeyOfUser: ({ id, userId }: { id: string; userId: string }): Promise<boolean> =>
      prisma.$transaction(async (tx) => {
        const { count } = await tx.apiKey.deleteMany({ where: { id, userId } });
        if (count > 0) await tx.$executeRaw`SELECT pg_notify(${LIVE_EVENTS_CHANNEL}, ${`${API_KEY_DELETED_NOTICE} ${id}`})`;
        return count > 0;
      }),
    /** The count of one user's keys and the insert it allows, under the lock on the user's row. */
    runLockedForUser: lockingForUser(prisma, createApiKeysQueries),
  };
}

export type ApiKeysRepository = ReturnType<typeof createApiKeysRepository>;
