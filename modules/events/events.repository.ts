// Storage of the live event stream: the events the triggers on email_processing append
// (migration 20261126091500_processing_events), read by id or after a cursor, and what an
// `email.received` event needs. Plain SQL through the executor; no rules here.
import type pg from "pg";
import { type OpenedBytea, openBytea } from "@/modules/db/sliced-values";
import type { SqlExecutor } from "@/modules/db/sql-executor";

/** One event with the processing it is about: its state at that moment, and what never changes. */
export type ProcessingEventRow = {
  /** The event's sequence number (bigint, as text). */
  eventId: string;
  emailCallbackId: string;
  emailProcessingId: string;
  /** true for the row written as the mail arrived. */
  isNew: boolean;
  status: string;
  error: string | null;
  webhookResponseStatusCode: number | null;
  attemptCount: number;
  /** The endpoint whose delivery changed; null for the arrival and for changes made to the processing itself. */
  endpointId: string | null;
  fromAddress: string;
  recipient: string;
  subject: string;
  createdAt: Date;
};

/** An endpoint of the address as a stream of its requests needs it: what it is sent and how it is signed. */
export type StreamedEndpoint = {
  endpointId: string;
  format: "json" | "raw";
  signingScheme: string;
  secret: string | null;
  publicKey: string | null;
  privateKeyEncrypted: string | null;
  headers: Record<string, string>;
};

export type OpenedWebhookBody = OpenedBytea & {
  webhookSecret: string | null;
  reopen: () => Promise<ReadableStream<Uint8Array> | null>;
};

const EVENT_COLUMNS = `e.id::text AS "eventId", e."emailCallbackId", e."emailProcessingId", e."isNew", e.status, e.error,
  e."webhookResponseStatusCode", e."attemptCount", e."endpointId", p."fromAddress", p.recipient, p.subject, p."createdAt" AT TIME ZONE 'UTC' AS "createdAt"`;

export function createEventsRepository(executor: SqlExecutor) {
  return {
    /** The caller's live address; null when there is none of that id, or it is another user's. */
    findOwnedEmailCallback: async ({ id, userId }: { id: string; userId: string }) => {
      const [row] = await executor.query<{ id: string }>(
        `SELECT id FROM email_callback WHERE id = $1 AND "userId" = $2 AND "deletedAt" IS NULL`,
        [id, userId],
      );
      return row ?? null;
    },

    /** A live endpoint of the address; null when it has none of that id. */
    findEndpointOfAddress: async ({ id, emailCallbackId }: { id: string; emailCallbackId: string }) => {
      const [row] = await executor.query<Omit<StreamedEndpoint, "headers"> & { headers: Record<string, string> | null }>(
        `SELECT id AS "endpointId", format, "signingScheme", secret, "publicKey", "privateKeyEncrypted", headers
         FROM endpoint WHERE id = $1 AND "emailCallbackId" = $2 AND "deletedAt" IS NULL`,
        [id, emailCallbackId],
      );
      if (!row) return null;
      const format: StreamedEndpoint["format"] = row.format === "raw" ? "raw" : "json";
      return { ...row, format, headers: row.headers ?? {} } satisfies StreamedEndpoint;
    },

    /**
     * What an endpoint is sent of a processing, opened to be read a slice at a time: the stored
     * webhook body (json) or the message as received (raw), and the recipient; null when the
     * endpoint took no delivery of it (its filter refused the mail, it was disabled) or the content is gone.
     */
    openEndpointBody: async ({
      emailProcessingId,
      emailCallbackId,
      endpoint,
    }: {
      emailProcessingId: string;
      emailCallbackId: string;
      endpoint: Pick<StreamedEndpoint, "endpointId" | "format">;
    }): Promise<(OpenedBytea & { recipient: string; reopen: () => Promise<ReadableStream<Uint8Array> | null> }) | null> => {
      const [delivery] = await executor.query<{ recipient: string }>(
        `SELECT p.recipient FROM delivery d JOIN email_processing p ON p.id = d."emailProcessingId"
         WHERE d."emailProcessingId" = $1 AND d."endpointId" = $2 AND p."emailCallbackId" = $3`,
        [emailProcessingId, endpoint.endpointId, emailCallbackId],
      );
      if (!delivery) return null;
      const ref = {
        table: "email_processing",
        column: endpoint.format === "raw" ? '"rawMessage"' : "payload",
        id: emailProcessingId,
        match: { '"emailCallbackId"': emailCallbackId },
      };
      const opened = await openBytea(executor, ref);
      if (!opened) return null;
      return { ...opened, recipient: delivery.recipient, reopen: async () => (await openBytea(executor, ref))?.stream ?? null };
    },

    /** The events of these ids whose processing still exists, in sequence order. */
    findEventsByIds: (ids: readonly string[]) =>
      executor.query<ProcessingEventRow>(
        `SELECT ${EVENT_COLUMNS} FROM processing_event e JOIN email_processing p ON p.id = e."emailProcessingId"
         WHERE e.id = ANY($1::bigint[]) ORDER BY e.id`,
        [ids],
      ),

    /** An address's events after `afterId`, no older than `windowMs`, in sequence order. */
    findEventsAfter: ({
      emailCallbackId,
      afterId,
      windowMs,
      limit,
    }: {
      emailCallbackId: string;
      afterId: string;
      windowMs: number;
      limit: number;
    }) =>
      executor.query<ProcessingEventRow>(
        `SELECT ${EVENT_COLUMNS} FROM processing_event e JOIN email_processing p ON p.id = e."emailProcessingId"
         WHERE e."emailCallbackId" = $1 AND e.id > $2::bigint
           AND e."createdAt" >= (now() AT TIME ZONE 'UTC') - $3::int * interval '1 millisecond'
         ORDER BY e.id LIMIT $4`,
        [emailCallbackId, afterId, windowMs, limit],
      ),

    /** The newest event's id ("0" when there is none): where a stream without Last-Event-ID starts. */
    findLatestEventId: async (): Promise<string> => {
      const [row] = await executor.query<{ id: string }>(`SELECT COALESCE(MAX(id), 0)::text AS id FROM processing_event`);
      return row?.id ?? "0";
    },

    /**
     * The stored webhook body of a processing of the address, opened to be read a slice at a time
     * (it can be 34 MiB: docs/architecture.md, Large values), and the address's secret now; null
     * when there is none. `reopen` reads it again from the start.
     */
    openWebhookBody: async ({
      emailProcessingId,
      emailCallbackId,
    }: {
      emailProcessingId: string;
      emailCallbackId: string;
    }): Promise<OpenedWebhookBody | null> => {
      const [callback] = await executor.query<{ webhookSecret: string | null }>(
        `SELECT "webhookSecret" FROM email_callback WHERE id = $1`,
        [emailCallbackId],
      );
      if (!callback) return null;
      const ref = {
        table: "email_processing",
        column: "payload",
        id: emailProcessingId,
        match: { '"emailCallbackId"': emailCallbackId },
      };
      const opened = await openBytea(executor, ref);
      if (!opened) return null;
      return {
        ...opened,
        webhookSecret: callback.webhookSecret,
        reopen: async () => (await openBytea(executor, ref))?.stream ?? null,
      };
    },
  };
}

export type EventsRepository = ReturnType<typeof createEventsRepository>;

/**
 * Marks addresses streamed and followed from now on (run on the listener's own connection); an
 * address's mark is only ever extended, whichever process refreshes it.
 */
export async function followEmailCallbacks(
  client: Pick<pg.Client, "query">,
  emailCallbackIds: readonly string[],
  { streamedForMs, followedForMs }: { streamedForMs: number; followedForMs: number },
): Promise<void> {
  if (emailCallbackIds.length === 0) return;
  await client.query(
    `INSERT INTO processing_event_follower AS f ("emailCallbackId", "streamedUntil", "followedUntil")
     SELECT id, statement_timestamp() + $2::int * interval '1 millisecond', statement_timestamp() + $3::int * interval '1 millisecond'
     FROM unnest($1::text[]) AS id
     ON CONFLICT ("emailCallbackId") DO UPDATE SET
       "streamedUntil" = GREATEST(f."streamedUntil", EXCLUDED."streamedUntil"),
       "followedUntil" = GREATEST(f."followedUntil", EXCLUDED."followedUntil")`,
    [emailCallbackIds, streamedForMs, followedForMs],
  );
}
