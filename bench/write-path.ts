// The relay's two writes of each mail, as the write-path benchmarks measure them: the row recorded
// pending with its delivery to the address's first endpoint as the mail is accepted (one statement,
// as the inbound pipeline writes them), then the delivery's outcome once the webhook answered (the
// processing follows by the deliveries' trigger), from `concurrency` connections at once. Senders and
// subjects vary from mail to mail as real mail does (they feed the inbox's search index).
import { performance } from "node:perf_hooks";
import type { SqlExecutor } from "@/modules/db/sql-executor";
import { createId } from "@/modules/shared/ids";

const INSERT_PENDING = `WITH processing AS (
    INSERT INTO email_processing
      (id, "emailCallbackId", "fromAddress", subject, recipient, status, "attemptCount", "nextAttemptAt", "createdAt", "updatedAt")
    VALUES ($1, $2, $3, $4, 'bench@hookmail.test', 'pending', 0, now(), now() AT TIME ZONE 'UTC', now() AT TIME ZONE 'UTC')
    RETURNING id
  )
  INSERT INTO delivery (id, "emailProcessingId", "endpointId", status, "nextAttemptAt", "createdAt", "updatedAt")
  SELECT $5, processing.id, $6, 'pending', now(), now() AT TIME ZONE 'UTC', now() AT TIME ZONE 'UTC' FROM processing`;
const RECORD_SUCCESS = `UPDATE delivery
  SET status = 'success', "attemptCount" = 1, "lastStatusCode" = 200, "nextAttemptAt" = NULL, "lockedUntil" = NULL,
      "deliveredAt" = now(), "updatedAt" = now()
  WHERE id = $1`;
const FIRST_ENDPOINT = `SELECT id FROM endpoint WHERE "emailCallbackId" = $1 AND "deletedAt" IS NULL ORDER BY "createdAt", id LIMIT 1`;

let sequence = 0;

/** Writes `mails` mails to the address; answers mails per second. */
export async function writeRelayMails({
  executor,
  emailCallbackId,
  mails,
  concurrency,
}: {
  executor: SqlExecutor;
  emailCallbackId: string;
  mails: number;
  concurrency: number;
}): Promise<number> {
  const [endpoint] = await executor.query<{ id: string }>(FIRST_ENDPOINT, [emailCallbackId]);
  if (!endpoint) throw new Error(`write-path: the address ${emailCallbackId} has no endpoint`);
  let next = 0;
  const startedAt = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < mails) {
        next += 1;
        sequence += 1;
        const id = createId("emailProcessing");
        const deliveryId = createId("delivery");
        const from = `customer${sequence % 5000}@example${sequence % 37}.org`;
        const subject = `Re: Order ${100000 + sequence} — shipment update ${sequence % 977}`;
        await executor.query(INSERT_PENDING, [id, emailCallbackId, from, subject, deliveryId, endpoint.id]);
        await executor.query(RECORD_SUCCESS, [deliveryId]);
      }
    }),
  );
  return mails / ((performance.now() - startedAt) / 1000);
}

export const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
