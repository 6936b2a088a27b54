// Prisma access to email callbacks and their inbox. No rules here; ownership is part of every query.
import type { PrismaClient } from "@/modules/db/generated/client";
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
  createdAt: true,
  updatedAt: true,
} as const;


export type EmailCallbackChanges = Partial<
  Pick<EmailCallbackRecord, "domain" | "username" | "webhookUrl" | "webhookSecret" | "allowedOrigins" | "isEnabled">
>;

function isUniqueViolation(error: unknown): boolean {
  const candidate = error as { code?: string; message?: string; cause?: { code?: string } } | null;
  return (
    candidate?.code === "P2002" ||
    candidate?.cause?.code === "23505" ||
    /unique constraint|duplicate key/i.test(candidate?.message ?? "")
  );
}

export class AddressTakenError extends Error {}

export function createEmailCallbacksRepository(prisma: PrismaClient) {
  const live = { deletedAt: null };
  return {
    listEmailCallbacks: (userId: string): Promise<EmailCallbackRecord[]> =>
      prisma.emailCallback.findMany({
        where: { userId, ...live },
        orderBy: [{ createdAt: "desc" }, { id: "desc" }],
        select: CALLBACK_FIELDS,
      }),

    findEmailCallback: (id: string, userId: string): Promise<EmailCallbackRecord | null> =>
      prisma.emailCallback.findFirst({ where: { id, userId, ...live }, select: CALLBACK_FIELDS }),

    countEmailCallbacks: (userId: string): Promise<number> => prisma.emailCallback.count({ where: { userId, ...live } }),

    isAddressTaken: async ({ domain, username, exceptId }: { domain: string; username: string; exceptId?: string }) =>
      (await prisma.emailCallback.count({
        where: { domain, username, ...live, ...(exceptId ? { id: { not: exceptId } } : {}) },
      })) > 0,

    /** Throws AddressTakenError when another live callback holds the address (the unique index decides races). */
    createEmailCallback: async (data: EmailCallbackChanges & { id: string; userId: string; domain: string; username: string; webhookUrl: string }) => {
      try {
        return await prisma.emailCallback.create({ data, select: CALLBACK_FIELDS });
      } catch (error) {
        if (isUniqueViolation(error)) throw new AddressTakenError();
        throw error;
      }
    },

    updateEmailCallback: async (id: string, changes: EmailCallbackChanges): Promise<EmailCallbackRecord> => {
      try {
        return await prisma.emailCallback.update({ where: { id }, data: changes, select: CALLBACK_FIELDS });
      } catch (error) {
        if (isUniqueViolation(error)) throw new AddressTakenError();
        throw error;
      }
    },

    softDeleteEmailCallback: async (id: string) => {
      await prisma.emailCallback.update({ where: { id }, data: { deletedAt: new Date(), isEnabled: false } });
    },
  };
}

export type EmailCallbacksRepository = ReturnType<typeof createEmailCallbacksRepository>;
