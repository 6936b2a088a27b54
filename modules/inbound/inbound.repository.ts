// Prisma access of the inbound pipeline: the live callbacks of recipients, earlier copies of a
// message, and the processings of one message written in one transaction. No rules here.
import type { PrismaClient } from "@/modules/db/generated/client";

export type InboundCallback = {
  id: string;
  domain: string;
  username: string;
  isEnabled: boolean;
  allowedOrigins: string[];
};

export type NewProcessing = {
  id: string;
  emailCallbackId: string;
  fromAddress: string;
  subject: string;
  messageId: string | null;
  recipient: string;
  tag: string | null;
  status: string;
  error: string | null;
  rawMessage: Uint8Array | null;
  payload: Uint8Array | null;
  attemptCount: number;
  nextAttemptAt: Date | null;
  createdAt: Date;
};

export type DuplicateKey = { emailCallbackId: string; messageId: string; recipient: string };

const CALLBACK_FIELDS = { id: true, domain: true, username: true, isEnabled: true, allowedOrigins: true } as const;

// Interactive transactions default to 5 s; a message of 25 MiB written for several recipients may need longer.
const TRANSACTION_OPTIONS = { maxWait: 10_000, timeout: 60_000 } as const;

/** Prisma wants its byte columns as a Uint8Array over a plain ArrayBuffer. */
function toBytes(value: Uint8Array | null): Uint8Array<ArrayBuffer> | null {
  if (value === null) return null;
  return new Uint8Array(value.buffer as ArrayBuffer, value.byteOffset, value.byteLength);
}

function toDuplicateLockKey({ emailCallbackId, messageId, recipient }: DuplicateKey): string {
  return `hookmail:inbound-duplicate:${emailCallbackId}:${recipient}:${messageId}`;
}

export function createInboundRepository(prisma: PrismaClient) {
  return {
    /** The live (not deleted) callbacks, enabled or not, of these addresses. */
    findLiveCallbacks: async (addresses: { domain: string; username: string }[]): Promise<InboundCallback[]> => {
      if (addresses.length === 0) return [];
      return prisma.emailCallback.findMany({
        where: { deletedAt: null, OR: addresses.map(({ domain, username }) => ({ domain, username })) },
        select: CALLBACK_FIELDS,
      });
    },

    /** Whether a live callback, enabled or not, holds this address. */
    isKnownRecipient: async (domain: string, username: string): Promise<boolean> =>
      (await prisma.emailCallback.count({ where: { domain, username, deletedAt: null } })) > 0,

    /** Whether a processing of this callback, Message-ID and recipient was created after `since`. */
    hasDuplicate: async ({ since, ...key }: DuplicateKey & { since: Date }): Promise<boolean> =>
      (await prisma.emailProcessing.count({ where: { ...key, createdAt: { gt: since } } })) > 0,

    /**
     * Writes the processings of one message in one transaction and returns the ids written. A row
     * with a Message-ID is skipped when a processing of its callback, Message-ID and recipient was
     * created after `duplicatesSince`; a transaction-scoped advisory lock per such key makes two
     * concurrent copies of one message wait for each other, so only the first is written.
     */
    createProcessings: async (rows: NewProcessing[], { duplicatesSince }: { duplicatesSince: Date }): Promise<string[]> => {
      if (rows.length === 0) return [];
      return prisma.$transaction(async (tx) => {
        const keyed = rows
          .filter((row): row is NewProcessing & { messageId: string } => row.messageId !== null)
          .map((row) => ({ row, lockKey: toDuplicateLockKey(row) }))
          .sort((left, right) => (left.lockKey < right.lockKey ? -1 : left.lockKey > right.lockKey ? 1 : 0));
        const skipped = new Set<string>();
        for (const { row, lockKey } of keyed) {
          // Locks are taken in one order (sorted keys), so two transactions cannot deadlock.
          await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${lockKey}, 0))`;
          const earlier = await tx.emailProcessing.count({
            where: {
              emailCallbackId: row.emailCallbackId,
              messageId: row.messageId,
              recipient: row.recipient,
              createdAt: { gt: duplicatesSince },
            },
          });
          if (earlier > 0) skipped.add(row.id);
        }
        const written = rows.filter((row) => !skipped.has(row.id));
        if (written.length === 0) return [];
        await tx.emailProcessing.createMany({
          data: written.map((row) => ({ ...row, rawMessage: toBytes(row.rawMessage), payload: toBytes(row.payload) })),
        });
        return written.map((row) => row.id);
      }, TRANSACTION_OPTIONS);
    },
  };
}

export type InboundRepository = ReturnType<typeof createInboundRepository>;
