// The relay's two writes of each mail, as the write-path benchmarks measure them: the row recorded
// pending as the mail is accepted, then its outcome once the webhook answered, from `concurrency`
// connections at once. Senders and subjects vary from mail to mail as real mail does (they feed the
// inbox's search index).
import { performance } from "node:perf_hooks";
import type { SqlExecutor } from "@/modules/db/sql-executor";
import { createId } from "@/modules/shared/ids";

const INSERT_PENDING = `INSERT INTO email_processing
  (id, "emailCallbackId", "fromAddress", subject, recipient, status, "attemptCount", "nextAttemptAt", "createdAt", "updatedAt")
  VALUES ($1, $2, $3, $4, 'bench@hookmail.test', 'pending', 0, now(), now() AT TIME ZONE 'UTC', now() AT TIME ZONE 'UTC')`;
const RECORD_SUCCESS = `UPDATE email_processing
  SET status = 'success', "attemptCount" = 1, "webhookResponseStatusCode" = 200, "nextAttemptAt" = NULL, "updatedAt" = now()
  WHERE id = $1`;

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
  let next = 0;
  const startedAt = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < mails) {
        next += 1;
        sequence += 1;
        const id = createId("emailProcessing");
        const from = `customer${sequence % 5000}@example${sequence % 37}.org`;
        const subject = `Re: Order ${100000 + sequence} — shipment update ${sequence % 977}`;
        await executor.query(INSERT_PENDING, [id, emailCallbackId, from, subject]);
        await executor.query(RECORD_SUCCESS, [id]);
      }
    }),
  );
  return mails / ((performance.now() - startedAt) / 1000);
}

export const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
