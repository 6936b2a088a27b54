// Prisma access to users' own domains. No rules here; owner checks are part of each query
// (`where: { id, userId }`). An address uses a domain when a live address of the same owner has its name.
import type { Prisma, PrismaClient } from "@/modules/db/generated/client";
import { lockingForUser } from "@/modules/db/user-lock";
import { DOMAIN_HELD_STATUSES, type DomainStatus } from "./domains.constants";
import type { DomainRecord } from "./domains.models";

const DOMAIN_FIELDS = {
  id: true,
  userId: true,
  name: true,
  token: true,
  status: true,
  verifiedAt: true,
  lastCheckedAt: true,
  lastCheckError: true,
  failingSince: true,
  createdAt: true,
} as const;

type DomainRow = Omit<DomainRecord, "status"> & { status: string };

/** The stored status is one of DOMAIN_STATUS (the only values written). */
const toDomainRecord = (row: DomainRow): DomainRecord => ({ ...row, status: row.status as DomainStatus });
const toDomainRecordOrNull = (row: DomainRow | null): DomainRecord | null => (row ? toDomainRecord(row) : null);

export type DomainCheckResult = Pick<DomainRecord, "status" | "verifiedAt" | "lastCheckedAt" | "lastCheckError" | "failingSince">;

/** Prisma's error for a write that breaks a unique index. */
function isUniqueViolation(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === "P2002";
}

function createDomainsQueries(db: PrismaClient | Prisma.TransactionClient) {
  return {
    listDomainsOfUser: async (userId: string): Promise<DomainRecord[]> =>
      (
        await db.domain.findMany({ where: { userId }, select: DOMAIN_FIELDS, orderBy: [{ createdAt: "desc" }, { id: "desc" }] })
      ).map(toDomainRecord),
    findDomainOfUser: async ({ id, userId }: { id: string; userId: string }): Promise<DomainRecord | null> =>
      toDomainRecordOrNull(await db.domain.findFirst({ where: { id, userId }, select: DOMAIN_FIELDS })),
    isNameOfUser: async ({ name, userId }: { name: string; userId: string }): Promise<boolean> =>
      (await db.domain.count({ where: { name, userId } })) > 0,
    /** Whether another account holds the name (verified, or failing during its grace period). */
    isNameHeldByAnotherUser: async ({ name, userId }: { name: string; userId: string }): Promise<boolean> =>
      (await db.domain.count({ where: { name, userId: { not: userId }, status: { in: [...DOMAIN_HELD_STATUSES] } } })) > 0,
    countDomainsOfUser: (userId: string): Promise<number> => db.domain.count({ where: { userId } }),
    insertDomain: async (data: { id: string; userId: string; name: string; token: string }): Promise<DomainRecord> =>
      toDomainRecord(await db.domain.create({ data, select: DOMAIN_FIELDS })),
  };
}

export function createDomainsRepository(prisma: PrismaClient) {
  return {
    ...createDomainsQueries(prisma),
    /**
     * Records a check's result; answers null when the result would hold a name another account
     * holds (the unique index on held names refuses it), so nothing was written.
     */
    saveDomainCheck: async ({ id, userId }: { id: string; userId: string }, result: DomainCheckResult) => {
      try {
        const { count } = await prisma.domain.updateMany({ where: { id, userId }, data: result });
        if (count === 0) return null;
        return toDomainRecordOrNull(await prisma.domain.findFirst({ where: { id, userId }, select: DOMAIN_FIELDS }));
      } catch (error) {
        if (isUniqueViolation(error)) return null;
        throw error;
      }
    },
    /**
     * Deletes the domain unless a live address of its owner is on it: "deleted", "in-use" or
     * "not-found". The domain's row is locked first, so an address made on it meanwhile waits.
     */
    deleteDomainOfUser: ({ id, userId }: { id: string; userId: string }): Promise<"deleted" | "in-use" | "not-found"> =>
      prisma.$transaction(async (tx) => {
        const [domain] = await tx.$queryRaw<{ name: string }[]>`
          SELECT "name" FROM "domain" WHERE "id" = ${id} AND "userId" = ${userId} FOR UPDATE`;
        if (!domain) return "not-found";
        const addresses = await tx.emailCallback.count({ where: { userId, domain: domain.name, deletedAt: null } });
        if (addresses > 0) return "in-use";
        await tx.domain.deleteMany({ where: { id, userId } });
        return "deleted";
      }),
    /** The count of one user's domains and the insert it allows, under the lock on the user's row. */
    runLockedForUser: lockingForUser(prisma, createDomainsQueries),
  };
}

export type DomainsRepository = ReturnType<typeof createDomainsRepository>;
