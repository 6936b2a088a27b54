// Prisma access to email callbacks and their inbox. No rules here; ownership is part of every query,
// writes included: another user's address, or a deleted one, is not found. An address already held
// by another live callback answers email_callback.already_exists (the unique index decides races).
import type { Prisma, PrismaClient } from "@/modules/db/generated/client";
import { lockingForUser } from "@/modules/db/user-lock";
import { DOMAIN_HELD_STATUSES } from "@/modules/domains/domains.constants";
import { toAddressMatch } from "./address-patterns";
import { createEmailCallbackAlreadyExistsError, createEmailCallbackNotFoundError } from "./email-callbacks.errors";
import type { EmailCallbackRecord } from "./email-callbacks.models";

const CALLBACK_FIELDS = {
  id: true,
  userId: true,
  domain: true,
  username: true,
  webhookUrl: true,
  webhookSecret: true,
  allowedOrigins: true,
  isEnabled: true,
  attachmentDelivery: true,
  authenticationPolicy: true,
  spamThreshold: true,
  createdAt: true,
  updatedAt: true,
} as const;

export type EmailCallbackChanges = Partial<
  Pick<
    EmailCallbackRecord,
    | "domain"
    | "username"
    | "webhookUrl"
    | "webhookSecret"
    | "allowedOrigins"
    | "isEnabled"
    | "attachmentDelivery"
    | "authenticationPolicy"
    | "spamThreshold"
  >
>;

function isUniqueViolation(error: unknown): boolean {
  const candidate = error as { code?: string; message?: string; cause?: { code?: string } } | null;
  return (
    candidate?.code === "P2002" ||
    candidate?.cause?.code === "23505" ||
    /unique constraint|duplicate key/i.test(candidate?.message ?? "")
  );
}

function isRecordNotFound(error: unknown): boolean {
  return (error as { code?: string } | null)?.code === "P2025";
}

type NewEmailCallback = EmailCallbackChanges & {
  id: string;
  userId: string;
  domain: string;
  username: string;
  webhookUrl: string;
};

const live = { deletedAt: null };

type CallbackRow = Omit<EmailCallbackRecord, "attachmentDelivery" | "authenticationPolicy"> & {
  attachmentDelivery: string;
  authenticationPolicy: string;
};

/** A row as the record: the option columns hold only the values the schema allows (anything else reads as the default). */
function toRecord(row: CallbackRow): EmailCallbackRecord {
  return {
    ...row,
    attachmentDelivery: row.attachmentDelivery === "url" ? "url" : "inline",
    authenticationPolicy: row.authenticationPolicy === "dmarc" ? "dmarc" : "none",
  };
}

/**
 * The queries of one user's addresses that a plan-limit check and its insert share, and that a
 * write onto an own domain runs holding the domain's row (in or out of a transaction).
 */
function createAddressCountQueries(db: PrismaClient | Prisma.TransactionClient) {
  return {
    countEmailCallbacks: (userId: string): Promise<number> => db.emailCallback.count({ where: { userId, ...live } }),

    /**
     * Whether the user holds this domain (verified or failing), keeping its row from being deleted
     * until the transaction ends: deleting a domain locks its row, then counts its addresses.
     */
    lockServedDomainOfUser: async ({ userId, name }: { userId: string; name: string }): Promise<boolean> =>
      (
        await db.$queryRaw<{ id: string }[]>`
          SELECT "id" FROM "domain"
          WHERE "userId" = ${userId} AND "name" = ${name} AND "status" = ANY(${[...DOMAIN_HELD_STATUSES]}) FOR SHARE`
      ).length > 0,

    isAddressTaken: async ({ domain, username, exceptId }: { domain: string; username: string; exceptId?: string }) =>
      (await db.emailCallback.count({
        where: { domain, username, ...live, ...(exceptId ? { id: { not: exceptId } } : {}) },
      })) > 0,

    updateEmailCallback: async (
      { id, userId }: { id: string; userId: string },
      changes: EmailCallbackChanges,
    ): Promise<EmailCallbackRecord> => {
      try {
        return toRecord(
          await db.emailCallback.update({
            where: { id, userId, ...live },
            data: { ...changes, ...(changes.username === undefined ? {} : toAddressMatch(changes.username)) },
            select: CALLBACK_FIELDS,
          }),
        );
      } catch (error) {
        if (isUniqueViolation(error)) throw createEmailCallbackAlreadyExistsError();
        if (isRecordNotFound(error)) throw createEmailCallbackNotFoundError();
        throw error;
      }
    },

    createEmailCallback: async (data: NewEmailCallback) => {
      try {
        return toRecord(
          await db.emailCallback.create({ data: { ...data, ...toAddressMatch(data.username) }, select: CALLBACK_FIELDS }),
        );
      } catch (error) {
        if (isUniqueViolation(error)) throw createEmailCallbackAlreadyExistsError();
        throw error;
      }
    },
  };
}

export function createEmailCallbacksRepository(prisma: PrismaClient) {
  return {
    ...createAddressCountQueries(prisma),

    /** The plan-limit check and the insert of one user's address, under the lock on the user's row. */
    runLockedForUser: lockingForUser(prisma, createAddressCountQueries),

    listEmailCallbacks: async (userId: string): Promise<EmailCallbackRecord[]> => {
      const rows = await prisma.emailCallback.findMany({
        where: { userId, ...live },
        orderBy: [{ createdAt: "desc" }, { id: "desc" }],
        select: CALLBACK_FIELDS,
      });
      return rows.map(toRecord);
    },

    /** Whether the user holds this domain (verified, or failing during its grace period): addresses may be made on it. */
    isServedDomainOfUser: async ({ userId, name }: { userId: string; name: string }): Promise<boolean> =>
      (await prisma.domain.count({ where: { userId, name, status: { in: [...DOMAIN_HELD_STATUSES] } } })) > 0,

    findEmailCallback: async (id: string, userId: string): Promise<EmailCallbackRecord | null> => {
      const row = await prisma.emailCallback.findFirst({ where: { id, userId, ...live }, select: CALLBACK_FIELDS });
      return row ? toRecord(row) : null;
    },

    softDeleteEmailCallback: async ({ id, userId }: { id: string; userId: string }) => {
      const { count } = await prisma.emailCallback.updateMany({
        where: { id, userId, ...live },
        data: { deletedAt: new Date(), isEnabled: false },
      });
      if (count === 0) throw createEmailCallbackNotFoundError();
    },
  };
}

export type EmailCallbacksRepository = ReturnType<typeof createEmailCallbacksRepository>;
