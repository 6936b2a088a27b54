// The storage of the worker's daily re-check of domains (docs/domains.md: Daily re-check). Claiming
// due domains moves their `lastCheckedAt` to now in one statement that skips rows another process is
// claiming (`FOR UPDATE SKIP LOCKED`), so each due domain is checked by one process at a time; the
// result is then written only if nothing else checked, changed or deleted the domain meanwhile, so a
// transition is recorded (and its mail sent) once.
import type { Database } from "@/modules/db/db";
import { utcTimestampParameter } from "@/modules/db/sql-executor";
import { DOMAIN_HELD_STATUSES, type DomainStatus } from "./domains.constants";

const utc = utcTimestampParameter;

/** A claimed domain: what its check needs, and who its owner is for the mail a transition sends. */
export type ClaimedDomain = {
  id: string;
  name: string;
  token: string;
  status: DomainStatus;
  failingSince: Date | null;
  /** The `lastCheckedAt` the claim wrote: the result is saved only while it is still there. */
  claimedAt: Date;
  email: string;
  ownerName: string;
  locale: string | null;
};

export type RecheckResult = {
  status: DomainStatus;
  lastCheckError: string | null;
  failingSince: Date | null;
  checkedAt: Date;
};

export function createDomainRechecksRepository({ executor }: Pick<Database, "executor">) {
  return {
    /**
     * Takes up to `batchSize` verified or failing domains last checked at or before `dueBefore`
     * (never checked first, then the oldest), marking them checked at `now`.
     */
    claimDueDomains: ({ now, dueBefore, batchSize }: { now: Date; dueBefore: Date; batchSize: number }) =>
      executor.query<ClaimedDomain>(
        `WITH due AS (
           SELECT id FROM domain
           WHERE status = ANY($4::text[]) AND ("lastCheckedAt" IS NULL OR "lastCheckedAt" <= ${utc(2)})
           ORDER BY "lastCheckedAt" NULLS FIRST, id LIMIT $3
           FOR UPDATE SKIP LOCKED
         )
         UPDATE domain d SET "lastCheckedAt" = ${utc(1)}
         FROM due, "user" u
         WHERE d.id = due.id AND u.id = d."userId"
           AND d.status = ANY($4::text[]) AND (d."lastCheckedAt" IS NULL OR d."lastCheckedAt" <= ${utc(2)})
         RETURNING d.id, d.name, d.token, d.status, d."failingSince" AT TIME ZONE 'UTC' AS "failingSince",
           d."lastCheckedAt" AT TIME ZONE 'UTC' AS "claimedAt", u.email, u.name AS "ownerName", u.locale`,
        [now.toISOString(), dueBefore.toISOString(), batchSize, [...DOMAIN_HELD_STATUSES]],
      ),

    /** Writes a check's result unless the domain changed since its claim; answers whether it did. */
    async saveRecheck(domain: ClaimedDomain, result: RecheckResult): Promise<boolean> {
      const rows = await executor.query<{ id: string }>(
        `UPDATE domain SET status = $3, "lastCheckError" = $4,
           "failingSince" = ${utc(5)}, "lastCheckedAt" = ${utc(6)}
         WHERE id = $1 AND status = $2 AND "lastCheckedAt" = ${utc(7)}
         RETURNING id`,
        [
          domain.id,
          domain.status,
          result.status,
          result.lastCheckError,
          result.failingSince?.toISOString() ?? null,
          result.checkedAt.toISOString(),
          domain.claimedAt.toISOString(),
        ],
      );
      return rows.length === 1;
    },
  };
}

export type DomainRechecksRepository = ReturnType<typeof createDomainRechecksRepository>;
