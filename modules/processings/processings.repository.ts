// Prisma access to the inbox (its rows page by page, and its counts per hour), one inbox row and its
// delivery attempts. No rules here; ownership is part of every query (a callback is looked up by its
// id and owner, a processing within its callback).
import type { Database } from "@/modules/db/db";
import { Prisma } from "@/modules/db/generated/client";
import { measureBytea, openBytea, readBytea } from "@/modules/db/sliced-values";
import { createProcessingDeliveriesRepository, RESTARTED, utc } from "./processing-deliveries.repository";
import { PROCESSING_STATUS, type ProcessingStatus } from "./processings.constants";
import { type ProcessingRecord, type StoredDeliveryAttempt, toContainsPattern } from "./processings.models";

/** The columns of an inbox row (ProcessingRecord), shared by every query that lists or reads one. */
export const PROCESSING_FIELDS = {
  id: true,
  fromAddress: true,
  recipient: true,
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
  delivery: { select: { endpointId: true } },
} as const;

export type OwnedEmailCallback = { id: string; domain: string; username: string };

export type InboxPosition = {
  total: number;
  foldableRows: number;
  page: { createdBefore: Date; skip: number } | null;
};

/** Which of a callback's rows a filtered page counts and lists; `search` is matched as a substring, case-insensitively. */
export type ProcessingsFilter = { emailCallbackId: string; status?: ProcessingStatus; search?: string };

/** The WHERE of a filtered inbox query (bound parameters only; the search's wildcards escaped). */
function filterCondition({ emailCallbackId, status, search }: ProcessingsFilter): Prisma.Sql {
  const conditions = [Prisma.sql`"emailCallbackId" = ${emailCallbackId}`];
  if (status) conditions.push(Prisma.sql`status = ${status}`);
  if (search) {
    const pattern = toContainsPattern(search);
    conditions.push(Prisma.sql`("fromAddress" ILIKE ${pattern} ESCAPE '\\' OR subject ILIKE ${pattern} ESCAPE '\\')`);
  }
  return Prisma.join(conditions, " AND ");
}

/** A stored value of the address's row, read in slices (a 25 MiB message would otherwise hold the event loop). */
const ownedContent = (id: string, emailCallbackId: string) => ({
  table: "email_processing",
  id,
  match: { '"emailCallbackId"': emailCallbackId },
});

export function createProcessingsRepository({ prisma, executor }: Pick<Database, "prisma" | "executor">) {
  return {
    ...createProcessingDeliveriesRepository({ prisma }),

    /** The caller's live (not deleted) callback, or null. */
    findEmailCallback: (id: string, userId: string): Promise<OwnedEmailCallback | null> =>
      prisma.emailCallback.findFirst({
        where: { id, userId, deletedAt: null },
        select: { id: true, domain: true, username: true },
      }),

    /**
     * The callback's total and where the row at `offset` (newest first) is, from the counts the
     * database keeps per hour (email_processing_count), in one statement over a few thousand count
     * rows at most, however big the inbox: the row is among those created before the end of its hour,
     * after `skip` of them. `page` is null past the last row. `foldableRows`: count rows beyond one
     * per hour.
     */
    findInboxPosition: async ({
      emailCallbackId,
      offset,
    }: {
      emailCallbackId: string;
      offset: number;
    }): Promise<InboxPosition> => {
      const [position] = await prisma.$queryRaw<
        { total: number; foldableRows: number; createdBefore: Date | null; skip: number | null }[]
      >`
        WITH hours AS (
          SELECT hour, sum(delta)::int AS count, count(*)::int AS rows
          FROM email_processing_count WHERE "emailCallbackId" = ${emailCallbackId} GROUP BY hour
        ), running AS (
          SELECT hour, count, sum(count) OVER (ORDER BY hour DESC) - count AS newer FROM hours
        ), found AS (
          SELECT hour + interval '1 hour' AS "createdBefore", ${offset}::int - newer AS skip
          FROM running WHERE newer + count > ${offset}::int ORDER BY hour DESC LIMIT 1
        )
        SELECT totals.total, totals."foldableRows", found."createdBefore", found.skip::int AS skip
        FROM (SELECT coalesce(sum(count), 0)::int AS total, (coalesce(sum(rows), 0) - count(*))::int AS "foldableRows" FROM hours) totals
        LEFT JOIN found ON true`;
      const { total, foldableRows, createdBefore, skip } = position!;
      return { total, foldableRows, page: createdBefore && skip !== null ? { createdBefore, skip } : null };
    },

    /** Newest first, from the processings created before `createdBefore`. */
    listProcessings: ({
      emailCallbackId,
      createdBefore,
      skip,
      take,
    }: {
      emailCallbackId: string;
      createdBefore: Date;
      skip: number;
      take: number;
    }): Promise<ProcessingRecord[]> =>
      prisma.emailProcessing.findMany({
        where: { emailCallbackId, createdAt: { lt: createdBefore } },
        orderBy: [{ createdAt: "desc" }, { id: "desc" }],
        skip,
        take,
        select: PROCESSING_FIELDS,
      }),

    /** How many of the callback's rows the filter keeps (a count over those rows, not the per-hour counts). */
    countFilteredProcessings: async (filter: ProcessingsFilter): Promise<number> => {
      const [row] = await prisma.$queryRaw<{ total: number }[]>`
        SELECT count(*)::int AS total FROM email_processing WHERE ${filterCondition(filter)}`;
      return row!.total;
    },

    /** One page of the rows the filter keeps, newest first (ties by id, like the unfiltered pages). */
    listFilteredProcessings: ({
      skip,
      take,
      ...filter
    }: ProcessingsFilter & { skip: number; take: number }): Promise<ProcessingRecord[]> =>
      prisma.$queryRaw<ProcessingRecord[]>`
        SELECT id, "fromAddress", recipient, subject, status, error, "webhookResponseStatusCode", "createdAt"
        FROM email_processing WHERE ${filterCondition(filter)}
        ORDER BY "createdAt" DESC, id DESC
        OFFSET ${skip}::int LIMIT ${take}::int`,

    /**
     * Folds the callback's count rows into one per hour (an hour that nets to zero goes); only hours
     * holding more than one row are rewritten. Rows another call is folding at the same time are left
     * to it, so this never waits.
     */
    foldProcessingCounts: async (emailCallbackId: string): Promise<void> => {
      await prisma.$executeRaw`
        WITH folded AS (
          DELETE FROM email_processing_count
          WHERE id IN (
            SELECT id FROM email_processing_count
            WHERE "emailCallbackId" = ${emailCallbackId}
              AND hour IN (
                SELECT hour FROM email_processing_count WHERE "emailCallbackId" = ${emailCallbackId}
                GROUP BY hour HAVING count(*) > 1
              )
            FOR UPDATE SKIP LOCKED
          )
          RETURNING hour, delta
        )
        INSERT INTO email_processing_count ("emailCallbackId", hour, delta)
        SELECT ${emailCallbackId}, hour, sum(delta) FROM folded GROUP BY hour HAVING sum(delta) <> 0`;
    },

    findProcessing: ({ id, emailCallbackId }: { id: string; emailCallbackId: string }): Promise<ProcessingRecord | null> =>
      prisma.emailProcessing.findFirst({ where: { id, emailCallbackId }, select: PROCESSING_FIELDS }),

    /**
     * Starts a new attempt series of a mail that is not pending and still holds its content: its
     * deliveries that ended in error, or, when none did, every one of them (docs/webhooks.md:
     * Redelivery). Each is pending again, with no attempt made, due now and unclaimed; earlier attempts
     * stay. The conditions are part of the update, so concurrent calls and the content clean-up cannot
     * slip in between. Answers the deliveries restarted (none: not restarted).
     */
    restartDelivery: async ({ id, now }: { id: string; now: Date }): Promise<string[]> => {
      const rows = await prisma.$queryRaw<{ id: string }[]>`
        UPDATE delivery d SET ${RESTARTED(now)}
        WHERE d.id IN (
          SELECT r.id FROM delivery r JOIN email_processing p ON p.id = r."emailProcessingId"
          WHERE r."emailProcessingId" = ${id} AND p.status <> ${PROCESSING_STATUS.PENDING} AND p.payload IS NOT NULL
            AND (r.status = ${PROCESSING_STATUS.ERROR} OR NOT EXISTS (
              SELECT 1 FROM delivery e WHERE e."emailProcessingId" = ${id} AND e.status = ${PROCESSING_STATUS.ERROR}))
          FOR UPDATE OF r SKIP LOCKED
        ) AND d.status <> ${PROCESSING_STATUS.PENDING}
        RETURNING d.id`;
      return rows.map((row) => row.id);
    },

    /**
     * restartDelivery for many mails in one statement: up to `limit` of the callback's failed mails
     * (status error) that still hold their content, created from `since` (included) to `until`
     * (excluded), oldest first; their deliveries that ended in error start again. Mails another call
     * is restarting at the same time are left to it. Answers the mails and the deliveries restarted.
     */
    restartFailedDeliveries: async ({
      emailCallbackId,
      since,
      until,
      now,
      limit,
    }: {
      emailCallbackId: string;
      since?: Date;
      until?: Date;
      now: Date;
      limit: number;
    }): Promise<{ processingIds: string[]; deliveryIds: string[] }> => {
      const rows = await prisma.$queryRaw<{ id: string; processingId: string }[]>`
        WITH chosen AS (
          SELECT id FROM email_processing
          WHERE "emailCallbackId" = ${emailCallbackId} AND status = ${PROCESSING_STATUS.ERROR} AND payload IS NOT NULL
            ${since ? Prisma.sql`AND "createdAt" >= ${utc(since)}` : Prisma.empty}
            ${until ? Prisma.sql`AND "createdAt" < ${utc(until)}` : Prisma.empty}
          ORDER BY "createdAt", id
          LIMIT ${limit}::int
          FOR UPDATE SKIP LOCKED
        )
        UPDATE delivery d SET ${RESTARTED(now)}
        FROM chosen WHERE d."emailProcessingId" = chosen.id AND d.status = ${PROCESSING_STATUS.ERROR}
        RETURNING d.id, d."emailProcessingId" AS "processingId"`;
      return { processingIds: [...new Set(rows.map((row) => row.processingId))], deliveryIds: rows.map((row) => row.id) };
    },

    /** One row with its delivery state and the webhook body it sends (null once the content is gone). */
    findProcessingDetail: async ({ id, emailCallbackId }: { id: string; emailCallbackId: string }) => {
      const row = await prisma.emailProcessing.findFirst({
        where: { id, emailCallbackId },
        select: { ...PROCESSING_FIELDS, attemptCount: true, nextAttemptAt: true },
      });
      if (!row) return null;
      const payload = await readBytea(executor, { ...ownedContent(id, emailCallbackId), column: "payload" });
      return { ...row, payload: payload ?? null };
    },

    /** The row's message as received: undefined without such a row, null once the content is gone. */
    findRawMessage: ({ id, emailCallbackId }: { id: string; emailCallbackId: string }) =>
      readBytea(executor, { ...ownedContent(id, emailCallbackId), column: '"rawMessage"' }),

    /** The size of the row's message as received, without reading it; undefined and null as above. */
    measureRawMessage: ({ id, emailCallbackId }: { id: string; emailCallbackId: string }) =>
      measureBytea(executor, { ...ownedContent(id, emailCallbackId), column: '"rawMessage"' }),

    /** The row's message as received, or the webhook body sent, as a stream of slices (a download); undefined and null as above. */
    openContent: ({ id, emailCallbackId, part }: { id: string; emailCallbackId: string; part: "rawMessage" | "payload" }) =>
      openBytea(executor, { ...ownedContent(id, emailCallbackId), column: part === "rawMessage" ? '"rawMessage"' : "payload" }),

    /** Newest first, each naming its endpoint (null for attempts older than endpoints). */
    listDeliveryAttempts: async (emailProcessingId: string): Promise<StoredDeliveryAttempt[]> =>
      (
        await prisma.deliveryAttempt.findMany({
          where: { emailProcessingId },
          orderBy: [{ attemptedAt: "desc" }, { id: "desc" }],
          select: ATTEMPT_FIELDS,
        })
      ).map(({ delivery, ...attempt }) => ({ ...attempt, endpointId: delivery?.endpointId ?? null })),
  };
}

export type ProcessingsRepository = ReturnType<typeof createProcessingsRepository>;
