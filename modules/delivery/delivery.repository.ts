// The delivery queue's storage: the processings table as a transactional outbox. Claims are raw SQL
// (`FOR UPDATE SKIP LOCKED`, which Prisma cannot express) through the executor, on PGlite and
// PostgreSQL alike; everything else goes through Prisma. A claim's `lockedUntil` doubles as its
// fencing token: a worker whose lease was taken over can no longer change the processing.
import type { Database } from "@/modules/db/db";
import { createId } from "@/modules/shared/ids";
import { FINAL_PROCESSING_STATUSES } from "./delivery.constants";

export type ClaimedDelivery = { id: string; lockedUntil: Date };

export type DeliveryTarget = {
  id: string;
  status: string;
  attemptCount: number;
  payload: Uint8Array | null;
  webhookUrl: string;
  webhookSecret: string | null;
  isCallbackEnabled: boolean;
  isCallbackDeleted: boolean;
};

export type DeliveryAttemptRecord = {
  attemptedAt: Date;
  statusCode: number | null;
  durationMs: number;
  error: string | null;
  responseBody: string | null;
};

/** The processing's state after an attempt (or after deciding none can be made). */
export type ProcessingChange =
  | { status: "success"; webhookResponseStatusCode: number; deliveredAt: Date }
  | { status: "pending"; nextAttemptAt: Date; webhookResponseStatusCode: number | null }
  | { status: "error"; error: "webhook-failed" | "unknown"; webhookResponseStatusCode: number | null }
  | { status: "not-processed"; error: "not-enabled" };

/** A timestamp parameter as the `timestamp(3)` (UTC, no zone) columns Prisma writes, whatever the session's time zone. */
const utc = (index: number) => `($${index}::timestamptz AT TIME ZONE 'UTC')`;

const DUE_AND_UNLOCKED = `status = 'pending' AND ("lockedUntil" IS NULL OR "lockedUntil" < ${utc(1)})`;

const FINAL_STATUSES_SQL = FINAL_PROCESSING_STATUSES.map((status) => `'${status}'`).join(", ");

export function createDeliveryRepository({ prisma, executor }: Pick<Database, "prisma" | "executor">) {
  return {
    /**
     * Leases up to `limit` due, unclaimed processings, oldest due first, skipping rows other workers are
     * claiming. A pending row without nextAttemptAt counts as due, so that nothing can wait forever.
     */
    async claimDueDeliveries({ limit, leaseMs, now }: { limit: number; leaseMs: number; now: Date }): Promise<ClaimedDelivery[]> {
      const lockedUntil = new Date(now.getTime() + leaseMs);
      const rows = await executor.query<{ id: string }>(
        `UPDATE email_processing SET "lockedUntil" = ${utc(2)}
         WHERE id IN (
           SELECT id FROM email_processing
           WHERE ${DUE_AND_UNLOCKED} AND ("nextAttemptAt" IS NULL OR "nextAttemptAt" <= ${utc(1)})
           ORDER BY "nextAttemptAt" NULLS FIRST
           LIMIT $3
           FOR UPDATE SKIP LOCKED
         )
         RETURNING id`,
        [now.toISOString(), lockedUntil.toISOString(), limit],
      );
      return rows.map(({ id }) => ({ id, lockedUntil }));
    },

    /**
     * Leases one processing for an attempt now: the accepting process's first attempt. A first attempt
     * may start before its nextAttemptAt (clocks of processes differ); a retry waits for its time.
     */
    async claimDelivery({ id, leaseMs, now }: { id: string; leaseMs: number; now: Date }): Promise<ClaimedDelivery | null> {
      const lockedUntil = new Date(now.getTime() + leaseMs);
      const rows = await executor.query<{ id: string }>(
        `UPDATE email_processing SET "lockedUntil" = ${utc(2)}
         WHERE id IN (
           SELECT id FROM email_processing
           WHERE id = $3 AND ${DUE_AND_UNLOCKED} AND ("attemptCount" = 0 OR "nextAttemptAt" <= ${utc(1)})
           FOR UPDATE SKIP LOCKED
         )
         RETURNING id`,
        [now.toISOString(), lockedUntil.toISOString(), id],
      );
      return rows.length > 0 ? { id, lockedUntil } : null;
    },

    async findDeliveryTarget(id: string): Promise<DeliveryTarget | null> {
      const processing = await prisma.emailProcessing.findUnique({
        where: { id },
        select: {
          id: true,
          status: true,
          attemptCount: true,
          payload: true,
          emailCallback: { select: { webhookUrl: true, webhookSecret: true, isEnabled: true, deletedAt: true } },
        },
      });
      if (!processing) return null;
      const { emailCallback, ...rest } = processing;
      return {
        ...rest,
        webhookUrl: emailCallback.webhookUrl,
        webhookSecret: emailCallback.webhookSecret,
        isCallbackEnabled: emailCallback.isEnabled,
        isCallbackDeleted: emailCallback.deletedAt !== null,
      };
    },

    /**
     * In one transaction: the attempt's row (when an attempt was made) and the processing's new state,
     * the latter only while the claim is still this worker's. Answers whether it was.
     */
    async recordAttempt({
      claim,
      attempt,
      change,
    }: {
      claim: ClaimedDelivery;
      attempt: DeliveryAttemptRecord | null;
      change: ProcessingChange;
    }): Promise<{ isClaimHeld: boolean }> {
      const update = prisma.emailProcessing.updateMany({
        where: { id: claim.id, status: "pending", lockedUntil: claim.lockedUntil },
        data: {
          ...toProcessingData(change),
          lockedUntil: null,
          ...(attempt ? { attemptCount: { increment: 1 } } : {}),
        },
      });
      if (!attempt) {
        const { count } = await update;
        return { isClaimHeld: count === 1 };
      }
      const [{ count }] = await prisma.$transaction([
        update,
        prisma.deliveryAttempt.create({
          data: { id: createId("deliveryAttempt"), emailProcessingId: claim.id, ...attempt },
          select: { id: true },
        }),
      ]);
      return { isClaimHeld: count === 1 };
    },

    /** Drops the raw message and payload of up to `batchSize` final processings last changed before `changedBefore`. */
    async clearMessageContent({ changedBefore, batchSize }: { changedBefore: Date; batchSize: number }): Promise<number> {
      const rows = await executor.query<{ id: string }>(
        `UPDATE email_processing SET "rawMessage" = NULL, payload = NULL
         WHERE id IN (
           SELECT id FROM email_processing
           WHERE status IN (${FINAL_STATUSES_SQL}) AND "updatedAt" < ${utc(1)}
             AND ("rawMessage" IS NOT NULL OR payload IS NOT NULL)
           LIMIT $2
           FOR UPDATE SKIP LOCKED
         )
         RETURNING id`,
        [changedBefore.toISOString(), batchSize],
      );
      return rows.length;
    },
  };
}

export type DeliveryRepository = ReturnType<typeof createDeliveryRepository>;

function toProcessingData(change: ProcessingChange) {
  switch (change.status) {
    case "success":
      return {
        status: change.status,
        error: null,
        webhookResponseStatusCode: change.webhookResponseStatusCode,
        deliveredAt: change.deliveredAt,
        nextAttemptAt: null,
      };
    case "pending":
      return {
        status: change.status,
        webhookResponseStatusCode: change.webhookResponseStatusCode,
        nextAttemptAt: change.nextAttemptAt,
      };
    case "error":
      return {
        status: change.status,
        error: change.error,
        webhookResponseStatusCode: change.webhookResponseStatusCode,
        nextAttemptAt: null,
      };
    case "not-processed":
      return { status: change.status, error: change.error, nextAttemptAt: null };
  }
}
