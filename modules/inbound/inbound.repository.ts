// Storage of the inbound pipeline: the routes of recipients and the processings of one
// message written in one transaction. This is the hot path of every mail, so it is plain SQL
// through the executor (one round trip per statement). No rules here.
import { createHash } from "node:crypto";
import type { Database } from "@/modules/db/db";
import { type SqlExecutor, utcTimestampParameter } from "@/modules/db/sql-executor";
import {
  createUploadId,
  deleteUploads,
  isStagedValue,
  joinUploadSql,
  type StagedValue,
  stageFile,
  stageSlice,
  stageValue,
  type UploadSlice,
} from "@/modules/db/value-uploads";
import { LARGE_PAYLOAD_BYTES } from "@/modules/delivery/delivery.constants";
import { ACCEPT_ALONE, type AcceptGroupSettings, createAcceptGroups } from "./accept-groups";
import type { NewProcessing } from "./new-processing";
import { createRoutingQueries } from "./routing.repository";

export type { InboundCallback, InboundEndpoint, InboundRoute, RecipientKey } from "./routing.repository";

export type { NewProcessing };

export type DuplicateKey = { emailCallbackId: string; messageId: string; recipient: string };

const utc = utcTimestampParameter;

/**
 * The advisory lock of one (callback, recipient, Message-ID): the first 8 bytes of a SHA-256 as a
 * signed 64-bit number. A number can be written into SQL as it is, so the lock is taken in the
 * same round trip as BEGIN.
 */
function toDuplicateLockKey({ emailCallbackId, messageId, recipient }: DuplicateKey): bigint {
  return createHash("sha256")
    .update(`hookmail:inbound-duplicate:${emailCallbackId}:${recipient}:${messageId}`)
    .digest()
    .readBigInt64BE(0);
}

const INSERT_PROCESSING = `
  WITH processing AS (
    INSERT INTO email_processing (
      id, "emailCallbackId", "fromAddress", subject, "messageId", recipient, tag, status, error,
      "rawMessage", payload, "attemptCount", "nextAttemptAt", "createdAt", "updatedAt"
    )
    SELECT $1, $2, $3, $4, $5::text, $6, $7, $8, $9, $10::bytea, $11::bytea, 0, ${utc(12)}, ${utc(13)}, ${utc(13)}
    WHERE $5::text IS NULL OR NOT EXISTS (
      SELECT 1 FROM email_processing
      WHERE "emailCallbackId" = $2 AND "messageId" = $5::text AND recipient = $6 AND "createdAt" > ${utc(14)}
    )
    RETURNING id
  ), deliveries AS (
    INSERT INTO delivery (id, "emailProcessingId", "endpointId", status, "nextAttemptAt", "lockedUntil", "createdAt", "updatedAt")
    SELECT d.id, processing.id, d."endpointId", 'pending', ${utc(12)}, ${utc(15)}, ${utc(13)}, ${utc(13)}
    FROM processing, unnest($16::text[], $17::text[]) AS d(id, "endpointId")
  )
  SELECT id FROM processing`;

/**
 * Above LARGE_PAYLOAD_BYTES, the raw message and the webhook body are staged in slices before the
 * writing transaction, and set on their rows in it (writeLargeValues); a body the parsing thread
 * posted in slices (a StagedValue) is staged already.
 */
const isLarge = (value: Uint8Array | StagedValue | null) =>
  value !== null && (isStagedValue(value) || value.byteLength > LARGE_PAYLOAD_BYTES);
const unlessLarge = (value: Uint8Array | StagedValue | null) => (isLarge(value) ? null : value);

/**
 * The upload of every large value of the rows: staged already (a body the parsing thread posted),
 * or staged here once (the rows of one message share its raw bytes), a slice per statement
 * (modules/db/value-uploads.ts). When staging fails, nothing staged for the message stays.
 */
async function stageLargeValues(executor: SqlExecutor, rows: NewProcessing[]) {
  const uploads = new Map<Uint8Array | StagedValue, string>();
  const values = rows.flatMap((row) => [row.rawMessage, row.payload]).filter((value) => value !== null && isLarge(value));
  for (const value of values) uploads.set(value!, isStagedValue(value) ? value.uploadId : createUploadId());
  try {
    for (const [value, uploadId] of uploads) if (!isStagedValue(value)) await stageValue(executor, uploadId, value);
  } catch (error) {
    await deleteUploads(executor, [...uploads.values()]).catch(() => undefined);
    throw error;
  }
  return uploads;
}

const SET_LARGE_VALUES = `
  UPDATE email_processing
  SET "rawMessage" = COALESCE(${joinUploadSql(2)}, "rawMessage"), payload = COALESCE(${joinUploadSql(3)}, payload)
  WHERE id = $1`;

/** Sets the large values of the written rows from their uploads, then deletes every upload of the message. */
async function writeLargeValues(transaction: SqlExecutor, rows: NewProcessing[], uploads: Map<Uint8Array | StagedValue, string>) {
  const uploadOf = (value: Uint8Array | StagedValue | null) => (value === null ? null : (uploads.get(value) ?? null));
  for (const row of rows.filter((written) => isLarge(written.rawMessage) || isLarge(written.payload))) {
    await transaction.query(SET_LARGE_VALUES, [row.id, uploadOf(row.rawMessage), uploadOf(row.payload)]);
  }
  await deleteUploads(transaction, [...uploads.values()]);
}

/**
 * `acceptGroups`: how the single-row mails of concurrent sessions share statements (accept-groups.ts);
 * left out, each is written alone (the composition root passes ACCEPT_GROUP_WINDOW_MS and ACCEPT_GROUP_MAX).
 */
export function createInboundRepository(
  { executor }: Pick<Database, "executor">,
  acceptGroups: AcceptGroupSettings = ACCEPT_ALONE,
) {
  const { accept: acceptOne, getStats } = createAcceptGroups(executor, acceptGroups);
  return {
    ...createRoutingQueries({ executor }),

    /** Stages one slice of a large webhook body, as the parsing thread makes it (modules/db/value-uploads.ts). */
    stageSlice: (slice: UploadSlice) => stageSlice(executor, slice),

    /** Stages a file's bytes as one value (a message spooled as it arrived, modules/db/value-uploads.ts). */
    stageFile: (uploadId: string, filePath: string) => stageFile(executor, uploadId, filePath),

    /** Deletes what is staged under these uploads (a message given up before its rows were written). */
    deleteUploads: (uploadIds: string[]) => deleteUploads(executor, uploadIds),

    /**
     * Writes the processings of one message in one transaction (one statement for a single row)
     * and returns the ids written. A row
     * with a Message-ID is skipped when a processing of its callback, Message-ID and recipient was
     * created after `duplicatesSince`; a transaction-scoped advisory lock per such key makes two
     * concurrent copies of one message wait for each other, so only the first is written.
     */
    createProcessings: async (rows: NewProcessing[], { duplicatesSince }: { duplicatesSince: Date }): Promise<string[]> => {
      if (rows.length === 0) return [];
      const [only] = rows;
      if (rows.length === 1 && only && !isLarge(only.rawMessage) && !isLarge(only.payload)) {
        // The common case, one address and no large value: one statement outside any transaction,
        // shared with the mails of other sessions (accept-groups.ts).
        const lockKey = only.messageId === null ? null : toDuplicateLockKey({ ...only, messageId: only.messageId });
        return (await acceptOne({ row: only, lockKey, duplicatesSince })) ? [only.id] : [];
      }
      const lockKeys = rows
        .filter((row): row is NewProcessing & { messageId: string } => row.messageId !== null)
        .map(toDuplicateLockKey)
        // Locks are taken in one order (sorted keys), so two transactions cannot deadlock.
        .sort((left, right) => (left < right ? -1 : left > right ? 1 : 0));
      const opening = lockKeys.map((key) => `SELECT pg_advisory_xact_lock(${key.toString()});`).join(" ");
      const uploads = await stageLargeValues(executor, rows);
      const writing = executor.transaction(
        async (transaction) => {
          const written: string[] = [];
          for (const row of rows) {
            const inserted = await transaction.query<{ id: string }>(INSERT_PROCESSING, [
              row.id,
              row.emailCallbackId,
              row.fromAddress,
              row.subject,
              row.messageId,
              row.recipient,
              row.tag,
              row.status,
              row.error,
              unlessLarge(row.rawMessage),
              unlessLarge(row.payload),
              row.nextAttemptAt?.toISOString() ?? null,
              row.createdAt.toISOString(),
              duplicatesSince.toISOString(),
              row.lockedUntil?.toISOString() ?? null,
              row.deliveries.map(({ id }) => id),
              row.deliveries.map(({ endpointId }) => endpointId),
            ]);
            if (inserted.length > 0) written.push(row.id);
          }
          const isWritten = new Set(written);
          await writeLargeValues(
            transaction,
            rows.filter((row) => isWritten.has(row.id)),
            uploads,
          );
          return written;
        },
        { opening },
      );
      // Not written: nothing staged for the message stays.
      return writing.catch(async (error: unknown) => {
        await deleteUploads(executor, [...uploads.values()]).catch(() => undefined);
        throw error;
      });
    },

    /** What the group commit of single-row mails has done so far (the relay benchmark prints it). */
    getAcceptGroupStats: getStats,
  };
}

export type InboundRepository = ReturnType<typeof createInboundRepository>;
