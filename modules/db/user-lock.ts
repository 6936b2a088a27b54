// One user's plan limits (addresses, API keys) are checked and written in a transaction that holds
// a lock on the user's row: a concurrent request of the same user waits for the first to commit, so
// its count includes what the first inserted (docs/security.md). Other users are not held up.
import type { Prisma, PrismaClient } from "./generated/client";

export function runLockedForUser<T>(
  prisma: PrismaClient,
  userId: string,
  work: (transaction: Prisma.TransactionClient) => Promise<T>,
): Promise<T> {
  return prisma.$transaction(async (transaction) => {
    await transaction.$queryRaw`SELECT "id" FROM "user" WHERE "id" = ${userId} FOR UPDATE`;
    return work(transaction);
  });
}

/**
 * A repository's `runLockedForUser`: the work gets the repository's queries bound to the
 * transaction that holds the user's row, so a count and the insert it allows are one step.
 */
export function lockingForUser<Queries>(
  prisma: PrismaClient,
  createQueries: (transaction: Prisma.TransactionClient) => Queries,
): <T>(userId: string, work: (queries: Queries) => Promise<T>) => Promise<T> {
  return (userId, work) => runLockedForUser(prisma, userId, (transaction) => work(createQueries(transaction)));
}
