// Prisma access to an address's endpoints. No rules here; ownership is part of every query: an
// endpoint of another user's address, of a deleted address, or deleted itself is not found. Writes
// that count (the plan limit, the last endpoint) run holding the address's row, so two calls cannot
// both pass a count that only one of them may.
import { Prisma, type PrismaClient } from "@/modules/db/generated/client";
import type { SigningScheme } from "@/modules/delivery/delivery.constants";
import type { EndpointRecord } from "./endpoints.models";

const ENDPOINT_FIELDS = {
  id: true,
  emailCallbackId: true,
  url: true,
  format: true,
  signingScheme: true,
  secret: true,
  publicKey: true,
  privateKeyEncrypted: true,
  headers: true,
  timeoutMs: true,
  filter: true,
  isEnabled: true,
  createdAt: true,
} as const;

type EndpointRow = Prisma.EndpointGetPayload<{ select: typeof ENDPOINT_FIELDS }>;

function toRecord(row: EndpointRow): EndpointRecord {
  return {
    ...row,
    format: row.format === "raw" ? "raw" : "json",
    signingScheme: row.signingScheme as SigningScheme,
    headers: (row.headers ?? {}) as Record<string, string>,
    filter: row.filter ?? null,
  };
}

/** What an endpoint is written with; the id and times are the repository's. */
export type EndpointData = Omit<EndpointRecord, "id" | "emailCallbackId" | "createdAt">;

const live = { deletedAt: null };
const ORDER = [{ createdAt: "asc" as const }, { id: "asc" as const }];

/** The queries that run holding the caller's address row (in a transaction). */
function createLockedQueries(transaction: Prisma.TransactionClient) {
  return {
    countEndpoints: (emailCallbackId: string) => transaction.endpoint.count({ where: { emailCallbackId, ...live } }),
    createEndpoint: async (emailCallbackId: string, id: string, data: EndpointData): Promise<EndpointRecord> =>
      toRecord(
        await transaction.endpoint.create({
          data: { id, emailCallbackId, ...data, filter: (data.filter ?? undefined) as Prisma.InputJsonValue | undefined },
          select: ENDPOINT_FIELDS,
        }),
      ),
    deleteEndpoint: async (emailCallbackId: string, id: string, now: Date): Promise<boolean> =>
      (await transaction.endpoint.updateMany({ where: { id, emailCallbackId, ...live }, data: { deletedAt: now } })).count === 1,
  };
}

export type LockedEndpointQueries = ReturnType<typeof createLockedQueries>;

export function createEndpointsRepository(prisma: PrismaClient) {
  return {
    /** The caller's live address, or null. */
    findOwnedCallback: ({ emailCallbackId, userId }: { emailCallbackId: string; userId: string }) =>
      prisma.emailCallback.findFirst({ where: { id: emailCallbackId, userId, ...live }, select: { id: true } }),

    listEndpoints: async (emailCallbackId: string): Promise<EndpointRecord[]> =>
      (await prisma.endpoint.findMany({ where: { emailCallbackId, ...live }, orderBy: ORDER, select: ENDPOINT_FIELDS })).map(
        toRecord,
      ),

    findEndpoint: async ({ emailCallbackId, id }: { emailCallbackId: string; id: string }): Promise<EndpointRecord | null> => {
      const row = await prisma.endpoint.findFirst({ where: { id, emailCallbackId, ...live }, select: ENDPOINT_FIELDS });
      return row ? toRecord(row) : null;
    },

    updateEndpoint: async (
      { emailCallbackId, id }: { emailCallbackId: string; id: string },
      changes: Partial<EndpointData>,
    ): Promise<EndpointRecord | null> => {
      const { filter, ...rest } = changes;
      const data: Prisma.EndpointUpdateManyMutationInput = { ...rest };
      if ("filter" in changes) data.filter = filter === null ? Prisma.DbNull : (filter as Prisma.InputJsonValue);
      const { count } = await prisma.endpoint.updateMany({ where: { id, emailCallbackId, ...live }, data });
      if (count === 0) return null;
      const row = await prisma.endpoint.findFirst({ where: { id, emailCallbackId }, select: ENDPOINT_FIELDS });
      return row ? toRecord(row) : null;
    },

    /**
     * Runs `work` holding the caller's live address row (FOR UPDATE), or answers null when there is
     * no such address.
     */
    runLockedForCallback: <T>(
      { emailCallbackId, userId }: { emailCallbackId: string; userId: string },
      work: (queries: LockedEndpointQueries) => Promise<T>,
    ): Promise<{ value: T } | null> =>
      prisma.$transaction(async (transaction) => {
        const held = await transaction.$queryRaw<{ id: string }[]>`
          SELECT id FROM email_callback WHERE id = ${emailCallbackId} AND "userId" = ${userId} AND "deletedAt" IS NULL FOR UPDATE`;
        if (held.length === 0) return null;
        return { value: await work(createLockedQueries(transaction)) };
      }),
  };
}

export type EndpointsRepository = ReturnType<typeof createEndpointsRepository>;
