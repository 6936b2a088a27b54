// Prisma access to one inbox row and its delivery attempts. No rules here; ownership is part of
// every query (a callback is looked up by its id and owner, a processing within its callback).
import type { PrismaClient } from "@/modules/db/generated/client";
import type { StoredDeliveryAttempt, ProcessingRecord } from "./processings.models";

/** The columns of an inbox row (ProcessingRecord), shared by every query that lists or reads one. */
export const PROCESSING_FIELDS = {
  id: true,
  fromAddress: true,
  subject: true,
  status: true,
  error: true,
  webhookResponseStatusCode: true,
  createdAt: true,
} as const;

const ATTEMPT_FIELDS = {
  id: true,
  attemptedAt: true,
  statusCode: true,
  durationMs: true,
  error: true,
  responseBody: true,
} as const;

export type OwnedEmailCallback = { id: string; domain: string; username: string };

export function createProcessingsRepository(prisma: PrismaClient) {
  return {
    /** The caller's live (not deleted) callback, or null. */
    findEmailCallback: (id: string, userId: string): Promise<OwnedEmailCallback | null> =>
      prisma.emailCallback.findFirst({
        where: { id, userId, deletedAt: null },
        select: { id: true, domain: true, username: true },
      }),

    findProcessing: ({ id, emailCallbackId }: { id: string; emailCallbackId: string }): Promise<ProcessingRecord | null> =>
      prisma.emailProcessing.findFirst({ where: { id, emailCallbackId }, select: PROCESSING_FIELDS }),

    /**
     * Starts a new attempt series on the stored payload: pending again, no attempt made yet, due now,
     * no error or claim. Only a processing that is not pending and still holds its payload changes
     * (the condition is part of the update, so concurrent calls and the content clean-up cannot
     * slip in between). Earlier attempts stay. Answers whether it changed.
     */
    restartDelivery: async ({ id, now }: { id: string; now: Date }): Promise<boolean> => {
      const { count } = await prisma.emailProcessing.updateMany({
        where: { id, status: { not: "pending" }, payload: { not: null } },
        data: {
          status: "pending",
          error: null,
          webhookResponseStatusCode: null,
          deliveredAt: null,
          attemptCount: 0,
          nextAttemptAt: now,
          lockedUntil: null,
        },
      });
      return count === 1;
    },

    /** Newest first. */
    listDeliveryAttempts: (emailProcessingId: string): Promise<StoredDeliveryAttempt[]> =>
      prisma.deliveryAttempt.findMany({
        where: { emailProcessingId },
        orderBy: [{ attemptedAt: "desc" }, { id: "desc" }],
        select: ATTEMPT_FIELDS,
      }),
  };
}

export type ProcessingsRepository = ReturnType<typeof createProcessingsRepository>;
