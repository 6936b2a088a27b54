// The delivery queue's storage: the delivery table (one row per mail and endpoint that takes it) as a
// transactional outbox. Every statement is plain SQL through the executor: claims need
// `FOR UPDATE SKIP LOCKED`, which Prisma cannot express, and each mail passes here, so every step is
// one round trip (the first attempt's claim returns what the attempt needs; an attempt is recorded in
// one statement). A claim's `lockedUntil` doubles as its fencing token: a worker whose lease was taken
// over can no longer change the delivery. The processing's own state follows its deliveries (a
// trigger, docs/architecture.md: The data).

import { createBatchedWriter } from "@/modules/db/batched-writer";
import type { Database } from "@/modules/db/db";
import { openBytea, VALUE_SLICE_BYTES } from "@/modules/db/sliced-values";
import { prepared, type SqlExecutor, utcTimestampParameter } from "@/modules/db/sql-executor";
import { DELIVERY_STATUS, FINAL_PROCESSING_STATUSES } from "@/modules/processings/processings.constants";
import { MAX_OUTCOMES_PER_WRITE, writeAttemptOutcomes } from "./attempt-outcomes";
import type { AttemptOutcome, ClaimedDelivery, DeliveryTarget, StoredBody } from "./delivery.models";

export type { AttemptOutcome, ClaimedDelivery, DeliveryAttemptRecord, DeliveryTarget, ProcessingChange } from "./delivery.models";

const utc = utcTimestampParameter;

/** Pending (`$status`, bound to DELIVERY_STATUS.PENDING) and not claimed, or its claim over at `$1`. */
const dueAndUnlocked = (status: number) => `status = $${status} AND ("lockedUntil" IS NULL OR "lockedUntil" < ${utc(1)})`;

export function createDeliveryRepository({ executor }: Pick<Database, "executor">) {
  return {
    /**
     * Leases up to `limit` due, unclaimed deliveries, oldest due first, skipping rows other workers are
     * claiming. A pending row without nextAttemptAt counts as due, so that nothing can wait forever.
     */
    async claimDueDeliveries({ limit, leaseMs, now }: { limit: number; leaseMs: number; now: Date }): Promise<ClaimedDelivery[]> {
      const lockedUntil = new Date(now.getTime() + leaseMs);
      const rows = await executor.query<{ id: string }>(
        prepared(
          "claim_due_deliveries",
          `UPDATE delivery SET "lockedUntil" = ${utc(2)}
         WHERE id IN (
           SELECT id FROM delivery
           WHERE ${dueAndUnlocked(4)} AND ("nextAttemptAt" IS NULL OR "nextAttemptAt" <= ${utc(1)})
           ORDER BY "nextAttemptAt" NULLS FIRST
           LIMIT $3
           FOR UPDATE SKIP LOCKED
         )
         RETURNING id`,
        ),
        [now.toISOString(), lockedUntil.toISOString(), limit, DELIVERY_STATUS.PENDING],
      );
      return rows.map(({ id }) => ({ id, lockedUntil }));
    },

    /**
     * Leases one delivery for an attempt now: the accepting process's first attempt, or a redelivery. A
     * first attempt may start before its nextAttemptAt (clocks of processes differ); a retry waits for its time.
     */
    async claimDelivery({ id, leaseMs, now }: { id: string; leaseMs: number; now: Date }): Promise<ClaimedDelivery | null> {
      const lockedUntil = new Date(now.getTime() + leaseMs);
      const rows = await executor.query<TargetRow>(
        prepared(
          "claim_delivery",
          `WITH claimed AS (
           UPDATE delivery SET "lockedUntil" = ${utc(2)}
           WHERE id IN (
             SELECT id FROM delivery
             WHERE id = $3 AND ${dueAndUnlocked(5)} AND ("attemptCount" = 0 OR "nextAttemptAt" <= ${utc(1)})
             FOR UPDATE SKIP LOCKED
           )
           RETURNING id, status, "attemptCount", "emailProcessingId", "endpointId"
         )
         SELECT ${targetColumns("$4")} FROM claimed d ${TARGET_JOINS}`,
        ),
        [now.toISOString(), lockedUntil.toISOString(), id, VALUE_SLICE_BYTES, DELIVERY_STATUS.PENDING],
      );
      const [row] = rows;
      if (!row) return null;
      return { id, lockedUntil, target: toDeliveryTarget(executor, row) };
    },

    /** Extends a claim this worker holds; answers the new claim, or null when it is no longer held. */
    async renewClaim({
      claim,
      leaseMs,
      now,
    }: {
      claim: ClaimedDelivery;
      leaseMs: number;
      now: Date;
    }): Promise<ClaimedDelivery | null> {
      const lockedUntil = new Date(now.getTime() + leaseMs);
      const rows = await executor.query<{ id: string }>(
        `UPDATE delivery SET "lockedUntil" = ${utc(3)}
         WHERE id = $1 AND status = $4 AND "lockedUntil" = ${utc(2)}
         RETURNING id`,
        [claim.id, claim.lockedUntil.toISOString(), lockedUntil.toISOString(), DELIVERY_STATUS.PENDING],
      );
      return rows.length > 0 ? { ...claim, lockedUntil } : null;
    },

    /** Gives a claim up unattempted: the delivery is due again at once, for any worker. */
    async releaseClaim(claim: ClaimedDelivery): Promise<void> {
      await executor.query(`UPDATE delivery SET "lockedUntil" = NULL WHERE id = $1 AND "lockedUntil" = ${utc(2)}`, [
        claim.id,
        claim.lockedUntil.toISOString(),
      ]);
    },

    async findDeliveryTarget(id: string): Promise<DeliveryTarget | null> {
      const rows = await executor.query<TargetRow>(
        prepared("find_delivery_target", `SELECT ${targetColumns("$2")} FROM delivery d ${TARGET_JOINS} WHERE d.id = $1`),
        [id, VALUE_SLICE_BYTES],
      );
      const [row] = rows;
      return row ? toDeliveryTarget(executor, row) : null;
    },

    /**
     * The attempt's row (when an attempt was made) and the delivery's new state, the latter only
     * while the claim is still this worker's; answers whether it was, and whether this delivery ended
     * its address's delivery alert (the recovery mail is then this worker's to send). Records that
     * arrive while one is being written go together in the next statement (group commit): one round
     * trip and one commit for all of them.
     */
    recordAttempt: createBatchedWriter<AttemptOutcome, RecordedAttempt>(
      { maxBatch: MAX_OUTCOMES_PER_WRITE },
      async (outcomes) => {
        const { held, endingAlerts } = await writeAttemptOutcomes(executor, outcomes);
        return outcomes.map(({ claim }) => ({ isClaimHeld: held.has(claim.id), endsAlert: endingAlerts.has(claim.id) }));
      },
    ).write,

    /** Drops the raw message and payload of up to `batchSize` final processings last changed before `changedBefore`. */
    async clearMessageContent({ changedBefore, batchSize }: { changedBefore: Date; batchSize: number }): Promise<number> {
      const rows = await executor.query<{ id: string }>(
        `UPDATE email_processing SET "rawMessage" = NULL, payload = NULL
         WHERE id IN (
           SELECT id FROM email_processing
           WHERE status = ANY($3::text[]) AND "updatedAt" < ${utc(1)}
             AND ("rawMessage" IS NOT NULL OR payload IS NOT NULL)
             -- A mail whose status is final may still have a delivery under way (another ended in error).
             AND NOT EXISTS (SELECT 1 FROM delivery d WHERE d."emailProcessingId" = email_processing.id AND d.status = $4)
           LIMIT $2
           FOR UPDATE SKIP LOCKED
         )
         RETURNING id`,
        [changedBefore.toISOString(), batchSize, FINAL_PROCESSING_STATUSES, DELIVERY_STATUS.PENDING],
      );
      return rows.length;
    },
  };
}

export type DeliveryRepository = ReturnType<typeof createDeliveryRepository>;

/** What recording an attempt gave: whether the claim still held, and whether it ended a delivery alert. */
export type RecordedAttempt = { isClaimHeld: boolean; endsAlert?: boolean };

type TargetRow = {
  id: string;
  processingId: string;
  recipient: string;
  endpointId: string;
  status: string;
  attemptCount: number;
  /** The body when it is at most one slice (VALUE_SLICE_BYTES) long, else null (read in slices). */
  body: Uint8Array | null;
  bodyBytes: number | null;
  url: string;
  format: string;
  signingScheme: string;
  secret: string | null;
  publicKey: string | null;
  privateKeyEncrypted: string | null;
  headers: Record<string, string> | null;
  timeoutMs: number | null;
  isEnabled: boolean;
  isDeleted: boolean;
};

/** The delivery `d` joined to its endpoint `e`, processing `p` and address `c`. */
const TARGET_JOINS = `JOIN endpoint e ON e.id = d."endpointId" JOIN email_processing p ON p.id = d."emailProcessingId"
  JOIN email_callback c ON c.id = p."emailCallbackId"`;

/** What an endpoint is sent: the webhook body (json) or the message as received (raw). */
const BODY = `CASE WHEN e.format = 'raw' THEN p."rawMessage" ELSE p.payload END`;

/** The target's columns; `inlineLimit` is the parameter holding VALUE_SLICE_BYTES. */
const targetColumns = (
  inlineLimit: string,
) => `d.id, d."emailProcessingId" AS "processingId", p.recipient, d."endpointId", d.status,
  d."attemptCount", octet_length(${BODY}) AS "bodyBytes", CASE WHEN octet_length(${BODY}) <= ${inlineLimit} THEN ${BODY} END AS body,
  e.url, e.format, e."signingScheme", e.secret, e."publicKey", e."privateKeyEncrypted", e.headers, e."timeoutMs",
  c."isEnabled" AND e."isEnabled" AS "isEnabled", c."deletedAt" IS NOT NULL OR e."deletedAt" IS NOT NULL AS "isDeleted"`;

function toDeliveryTarget(
  executor: SqlExecutor,
  { isEnabled, isDeleted, bodyBytes, body, headers, format, signingScheme, ...row }: TargetRow,
): DeliveryTarget {
  const isRaw = format === "raw";
  // A large body is read at its attempt, a slice at a time, each time it is opened (docs/architecture.md: Large values).
  const ref = { table: "email_processing", column: isRaw ? '"rawMessage"' : "payload", id: row.processingId };
  const stored: StoredBody | null =
    body === null && bodyBytes !== null
      ? { byteLength: bodyBytes, open: async () => (await openBytea(executor, ref))?.stream ?? null }
      : null;
  return {
    ...row,
    format: isRaw ? "raw" : "json",
    signingScheme: signingScheme === "ed25519" ? "ed25519" : signingScheme === "none" ? "none" : "hmac",
    headers: headers ?? {},
    body: stored ?? body,
    isEnabled,
    isDeleted,
  };
}
