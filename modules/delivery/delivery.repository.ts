// The delivery queue's storage: the processings table as a transactional outbox. Every statement is
// plain SQL through the executor, on PGlite and PostgreSQL alike: claims need `FOR UPDATE SKIP
// LOCKED`, which Prisma cannot express, and each mail passes here, so every step is one round trip
// (the first attempt's claim returns what the attempt needs; an attempt is recorded in one
// statement). A claim's `lockedUntil` doubles as its fencing token: a worker whose lease was taken
// over can no longer change the processing.
import type { Database } from "@/modules/db/db";
import { utcTimestampParameter } from "@/modules/db/sql-executor";
import { createId } from "@/modules/shared/ids";
import { FINAL_PROCESSING_STATUSES } from "./delivery.constants";

export type ClaimedDelivery = {
  id: string;
  lockedUntil: Date;
  /** What the attempt needs, when the claim read it already. */
  target?: DeliveryTarget;
};

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

const utc = utcTimestampParameter;

const DUE_AND_UNLOCKED = `status = 'pending' AND ("lockedUntil" IS NULL OR "lockedUntil" < ${utc(1)})`;

const FINAL_STATUSES_SQL = FINAL_PROCESSING_STATUSES.map((status) => `'${status}'`).join(", ");

export function createDeliveryRepository({ executor }: Pick<Database, "executor">) {
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
      const rows = await executor.query<TargetRow>(
        `WITH claimed AS (
           UPDATE email_processing SET "lockedUntil" = ${utc(2)}
           WHERE id IN (
             SELECT id FROM email_processing
             WHERE id = $3 AND ${DUE_AND_UNLOCKED} AND ("attemptCount" = 0 OR "nextAttemptAt" <= ${utc(1)})
             FOR UPDATE SKIP LOCKED
           )
           RETURNING id, status, "attemptCount", payload, "emailCallbackId"
         )
         SELECT ${TARGET_COLUMNS} FROM claimed p JOIN email_callback c ON c.id = p."emailCallbackId"`,
        [now.toISOString(), lockedUntil.toISOString(), id],
      );
      const [row] = rows;
      return row ? { id, lockedUntil, target: toDeliveryTarget(row) } : null;
    },

    /** Extends a claim this worker holds; answers the new claim, or null when it is no longer held. */
    async renewClaim({ claim, leaseMs, now }: { claim: ClaimedDelivery; leaseMs: number; now: Date }): Promise<ClaimedDelivery | null> {
      const lockedUntil = new Date(now.getTime() + leaseMs);
      const rows = await executor.query<{ id: string }>(
        `UPDATE email_processing SET "lockedUntil" = ${utc(3)}
         WHERE id = $1 AND status = 'pending' AND "lockedUntil" = ${utc(2)}
         RETURNING id`,
        [claim.id, claim.lockedUntil.toISOString(), lockedUntil.toISOString()],
      );
      return rows.length > 0 ? { ...claim, lockedUntil } : null;
    },

    /** Gives a claim up unattempted: the processing is due again at once, for any worker. */
    async releaseClaim(claim: ClaimedDelivery): Promise<void> {
      await executor.query(`UPDATE email_processing SET "lockedUntil" = NULL WHERE id = $1 AND "lockedUntil" = ${utc(2)}`, [
        claim.id,
        claim.lockedUntil.toISOString(),
      ]);
    },

    async findDeliveryTarget(id: string): Promise<DeliveryTarget | null> {
      const rows = await executor.query<TargetRow>(
        `SELECT ${TARGET_COLUMNS} FROM email_processing p JOIN email_callback c ON c.id = p."emailCallbackId" WHERE p.id = $1`,
        [id],
      );
      const [row] = rows;
      return row ? toDeliveryTarget(row) : null;
    },

    /**
     * In one statement: the attempt's row (when an attempt was made) and the processing's new state,
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
      const parameters: unknown[] = [claim.id, claim.lockedUntil.toISOString(), new Date().toISOString()];
      const parameter = (value: unknown) => {
        parameters.push(value);
        return `$${parameters.length}`;
      };
      const assignments = Object.entries(toProcessingColumns(change)).map(([column, value]) =>
        value instanceof Date ? `"${column}" = ${utc(parameters.push(value.toISOString()))}` : `"${column}" = ${parameter(value)}`,
      );
      if (attempt) assignments.push(`"attemptCount" = "attemptCount" + 1`);
      const insertAttempt = attempt
        ? `, attempt AS (
             INSERT INTO delivery_attempt (id, "emailProcessingId", "attemptedAt", "statusCode", "durationMs", error, "responseBody")
             VALUES (${parameter(createId("deliveryAttempt"))}, $1, ${utc(parameters.push(attempt.attemptedAt.toISOString()))},
                     ${parameter(attempt.statusCode)}::integer, ${parameter(Math.round(attempt.durationMs))}::integer,
                     ${parameter(attempt.error)}::text, ${parameter(attempt.responseBody)}::text)
           )`
        : "";
      const rows = await executor.query<{ updated: number }>(
        `WITH updated AS (
           UPDATE email_processing SET ${assignments.join(", ")}, "lockedUntil" = NULL, "updatedAt" = ${utc(3)}
           WHERE id = $1 AND status = 'pending' AND "lockedUntil" = ${utc(2)}
           RETURNING id
         )${insertAttempt}
         SELECT count(*)::integer AS updated FROM updated`,
        parameters,
      );
      return { isClaimHeld: rows[0]?.updated === 1 };
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

type TargetRow = {
  id: string;
  status: string;
  attemptCount: number;
  payload: Uint8Array | null;
  webhookUrl: string;
  webhookSecret: string | null;
  isEnabled: boolean;
  isDeleted: boolean;
};

const TARGET_COLUMNS = `p.id, p.status, p."attemptCount", p.payload, c."webhookUrl", c."webhookSecret", c."isEnabled",
  c."deletedAt" IS NOT NULL AS "isDeleted"`;

function toDeliveryTarget({ isEnabled, isDeleted, ...row }: TargetRow): DeliveryTarget {
  return { ...row, isCallbackEnabled: isEnabled, isCallbackDeleted: isDeleted };
}

/** The columns an outcome sets; the others keep their value. */
function toProcessingColumns(change: ProcessingChange): Record<string, string | number | Date | null> {
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
