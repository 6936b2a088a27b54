// Group commit of accepted mail (docs/architecture.md: Group commit): the single-row mails that
// concurrent sessions accept within a short window are written in one statement and one commit
// (hookmail_insert_processings, a migration), and each session has its answer only after that commit.
// When the group's statement fails, nothing of it was committed, and each of its mails is written
// alone (hookmail_insert_processing): a mail the database refuses fails alone.
import { type BatchedWriterStats, createBatchedWriter } from "@/modules/db/batched-writer";
import { prepared, type SqlExecutor } from "@/modules/db/sql-executor";
import type { NewProcessing } from "./new-processing";

/** One mail for one address, with no large value: its row, its duplicate lock (null without Message-ID) and window. */
export type AcceptedRow = { row: NewProcessing; lockKey: bigint | null; duplicatesSince: Date };

export type AcceptGroupSettings = {
  /** How long the first mail of a group waits for others (ACCEPT_GROUP_WINDOW_MS); 0: only those that wait meanwhile. */
  windowMs: number;
  /** Most mails in one group (ACCEPT_GROUP_MAX); 1: every mail is written alone, at once. */
  maxGroup: number;
};

/**
 * A mail whose raw message and webhook body are larger than this is written alone: a group's values
 * travel joined in one parameter, and 64 mails of up to LARGE_PAYLOAD_BYTES each would make one
 * statement of 128 MiB.
 */
export const MAX_GROUPED_MAIL_BYTES = 64 * 1024;

const valueBytes = ({ row }: AcceptedRow) => (row.rawMessage?.byteLength ?? 0) + (row.payload?.byteLength ?? 0);

/** Group commit off: every mail written by its own statement, as soon as it comes. */
export const ACCEPT_ALONE: AcceptGroupSettings = { windowMs: 0, maxGroup: 1 };

/** What the groups have done so far: group writes and the mails they carried, and mails written alone after a failed group. */
export type AcceptGroupStats = BatchedWriterStats & { retriedAlone: number };

export type AcceptRow = { accept: (accepted: AcceptedRow) => Promise<boolean>; getStats: () => AcceptGroupStats };

const INSERT_ONE_PROCESSING = prepared(
  "insert_one_processing",
  `SELECT hookmail_insert_processing(
     $1::bigint, $2, $3, $4, $5, $6::text, $7, $8, $9, $10, $11::bytea, $12::bytea, $13::timestamptz, $14::timestamptz,
     $15::timestamptz, $16::timestamptz, $17::text[], $18::text[]) AS written`,
);

const INSERT_PROCESSINGS = prepared(
  "insert_processings",
  `SELECT hookmail_insert_processings(
     $1::bigint[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[], $10::text[],
     $11::bytea, $12::int[], $13::int[], $14::int[], $15::int[], $16::timestamptz[], $17::timestamptz[], $18::timestamptz[],
     $19::timestamptz[], $20::text[], $21::text[], $22::text[]) AS written`,
);

const isoOrNull = (date: Date | null) => date?.toISOString() ?? null;

/** One mail in one statement outside any transaction: its own commit. */
async function insertOne(executor: SqlExecutor, { row, lockKey, duplicatesSince }: AcceptedRow): Promise<boolean> {
  const [result] = await executor.query<{ written: boolean }>(INSERT_ONE_PROCESSING, [
    lockKey?.toString() ?? null,
    row.id,
    row.emailCallbackId,
    row.fromAddress,
    row.subject,
    row.messageId,
    row.recipient,
    row.tag,
    row.status,
    row.error,
    row.rawMessage,
    row.payload,
    isoOrNull(row.nextAttemptAt),
    isoOrNull(row.lockedUntil),
    row.createdAt.toISOString(),
    duplicatesSince.toISOString(),
    row.deliveries.map(({ id }) => id),
    row.deliveries.map(({ endpointId }) => endpointId),
  ]);
  return result?.written === true;
}

/** The mails of a group in one statement, one commit; answers whether each was written, in order. */
async function insertGroup(executor: SqlExecutor, group: AcceptedRow[]): Promise<boolean[]> {
  const rows = group.map(({ row }) => row);
  const column = <T>(pick: (row: NewProcessing) => T) => rows.map(pick);
  const deliveries = rows.flatMap((row) => row.deliveries.map((delivery) => ({ ...delivery, processingId: row.id })));
  const values = joinValues(rows);
  const [result] = await executor.query<{ written: boolean[] }>(INSERT_PROCESSINGS, [
    group.map(({ lockKey }) => lockKey?.toString() ?? null),
    column((row) => row.id),
    column((row) => row.emailCallbackId),
    column((row) => row.fromAddress),
    column((row) => row.subject),
    column((row) => row.messageId),
    column((row) => row.recipient),
    column((row) => row.tag),
    column((row) => row.status),
    column((row) => row.error),
    values.bytes,
    values.rawOffsets,
    values.rawLengths,
    values.payloadOffsets,
    values.payloadLengths,
    column((row) => isoOrNull(row.nextAttemptAt)),
    column((row) => isoOrNull(row.lockedUntil)),
    column((row) => row.createdAt.toISOString()),
    group.map(({ duplicatesSince }) => duplicatesSince.toISOString()),
    deliveries.map(({ processingId }) => processingId),
    deliveries.map(({ id }) => id),
    deliveries.map(({ endpointId }) => endpointId),
  ]);
  const written = result?.written ?? [];
  if (written.length !== group.length) throw new Error(`a group of ${group.length} mails answered ${written.length} results`);
  return written;
}

/**
 * The group's raw messages and bodies joined into one bytea parameter, which node-postgres sends as
 * bytes (an array of bytea would go as hex text), with each value's offset and length (null: none).
 */
function joinValues(rows: NewProcessing[]) {
  const parts: Uint8Array[] = [];
  let length = 0;
  const place = (value: Uint8Array | null) => {
    if (value === null) return { offset: null, length: null };
    parts.push(value);
    length += value.byteLength;
    return { offset: length - value.byteLength, length: value.byteLength };
  };
  // A grouped mail has no large value, so nothing staged either.
  const raws = rows.map((row) => place(row.rawMessage as Uint8Array | null));
  const payloads = rows.map((row) => place(row.payload as Uint8Array | null));
  return {
    bytes: Buffer.concat(parts, length),
    rawOffsets: raws.map((raw) => raw.offset),
    rawLengths: raws.map((raw) => raw.length),
    payloadOffsets: payloads.map((payload) => payload.offset),
    payloadLengths: payloads.map((payload) => payload.length),
  };
}

type Outcome = { written: boolean } | { error: unknown };

/**
 * How single-row mails are written: alone and at once with `maxGroup` 1 or over MAX_GROUPED_MAIL_BYTES, else in groups (createBatchedWriter:
 * a group starts `windowMs` after its first mail, or when `maxGroup` wait, and at most one is written at a time).
 */
export function createAcceptGroups(executor: SqlExecutor, { windowMs, maxGroup }: AcceptGroupSettings): AcceptRow {
  let retriedAlone = 0;
  if (maxGroup <= 1) {
    return { accept: (accepted) => insertOne(executor, accepted), getStats: () => ({ writes: 0, items: 0, retriedAlone }) };
  }
  const settle = async (accepted: AcceptedRow): Promise<Outcome> => {
    try {
      return { written: await insertOne(executor, accepted) };
    } catch (error) {
      return { error };
    }
  };
  const writer = createBatchedWriter<AcceptedRow, Outcome>({ maxBatch: maxGroup, windowMs }, async (group) => {
    if (group.length === 1) return [await settle(group[0]!)];
    try {
      return (await insertGroup(executor, group)).map((written) => ({ written }));
    } catch {
      // Nothing of the group was committed: each mail is tried alone, and only a refused one fails.
      retriedAlone += group.length;
      return Promise.all(group.map(settle));
    }
  });
  return {
    accept: async (accepted) => {
      if (valueBytes(accepted) > MAX_GROUPED_MAIL_BYTES) return insertOne(executor, accepted);
      const outcome = await writer.write(accepted);
      if ("error" in outcome) throw outcome.error;
      return outcome.written;
    },
    getStats: () => ({ ...writer.getStats(), retriedAlone }),
  };
}
