// Mailgun tokens already used, in the mailgun_token table: every web process sees the same set, so
// a signed post replayed to another process within the timestamp tolerance is refused there too.
// Plain SQL through the executor; no rules here beyond the atomic claim.
import type { Database } from "@/modules/db/db";
import { utcTimestampParameter } from "@/modules/db/sql-executor";
import type { MailgunTokenRegistry } from "./inbound-auth";
import { MAILGUN_TOKEN_RETENTION_MS } from "./inbound-providers.constants";

/** Expired rows are deleted by a claim at most this often per process. */
const EXPIRED_SWEEP_INTERVAL_MS = 60 * 1000;

export function createMailgunTokenRepository(
  database: Pick<Database, "executor">,
  { retentionMs = MAILGUN_TOKEN_RETENTION_MS } = {},
): MailgunTokenRegistry {
  const { executor } = database;
  let lastSweepMs = 0;
  const iso = (ms: number) => new Date(ms).toISOString();
  return {
    async has(token, nowMs) {
      const rows = await executor.query<{ token: string }>(
        `SELECT "token" FROM "mailgun_token" WHERE "token" = $1 AND "expiresAt" > ${utcTimestampParameter(2)}`,
        [token, iso(nowMs)],
      );
      return rows.length > 0;
    },
    async claim(token, nowMs) {
      if (nowMs - lastSweepMs >= EXPIRED_SWEEP_INTERVAL_MS) {
        lastSweepMs = nowMs;
        await deleteExpiredMailgunTokens(database, new Date(nowMs));
      }
      // One statement: a new token is inserted, an expired row of the same token is taken over,
      // a live one is left alone (no row returned: a replay), whichever process got there first.
      const rows = await executor.query<{ token: string }>(
        `INSERT INTO "mailgun_token" ("token", "expiresAt") VALUES ($1, ${utcTimestampParameter(2)})
         ON CONFLICT ("token") DO UPDATE SET "expiresAt" = EXCLUDED."expiresAt"
           WHERE "mailgun_token"."expiresAt" <= ${utcTimestampParameter(3)}
         RETURNING "token"`,
        [token, iso(nowMs + retentionMs), iso(nowMs)],
      );
      return rows.length > 0;
    },
    async release(token) {
      await executor.query(`DELETE FROM "mailgun_token" WHERE "token" = $1`, [token]);
    },
  };
}

/** Deletes the tokens whose lifetime is over; the retention sweep may call it too. */
export async function deleteExpiredMailgunTokens(database: Pick<Database, "executor">, now: Date): Promise<number> {
  const rows = await database.executor.query<{ token: string }>(
    `DELETE FROM "mailgun_token" WHERE "expiresAt" <= ${utcTimestampParameter(1)} RETURNING "token"`,
    [now.toISOString()],
  );
  return rows.length;
}
