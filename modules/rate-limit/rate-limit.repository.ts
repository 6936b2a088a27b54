// SQL of the action rate limiter (table action_rate_limit): one statement per call, so that any
// number of processes count in the same window without a lock held across a round trip. No rules
// here; the window and the limit come in as arguments.
import type { PrismaClient } from "@/modules/db/generated/client";

type Queryable = Pick<PrismaClient, "$queryRaw">;

export type RateLimitCount = { count: number; retryAfterSeconds: number };

export function createRateLimitRepository(db: Queryable) {
  return {
    /**
     * Adds one to the key's count in its current window (a new window, counted from 1, once the
     * previous one is over) and answers the count and the whole seconds until the window ends,
     * both from the database's clock.
     */
    incrementCount: async ({ key, windowMs }: { key: string; windowMs: number }): Promise<RateLimitCount> => {
      // EXCLUDED."windowStart" is now (UTC, like the timestamp(3) columns Prisma writes), truncated to
      // the column's milliseconds: a rounded-up start would put the window's end past now + window
      // (a Retry-After one second too long). now() is the same instant throughout the statement, but
      // it is when the transaction began: a statement that waited on another's row lock can see a
      // window that started after its own now(), hence the cap at the window's length.
      const [row] = await db.$queryRaw<RateLimitCount[]>`
        INSERT INTO action_rate_limit AS current (key, "windowStart", count)
        VALUES (${key}, date_trunc('milliseconds', now() AT TIME ZONE 'UTC'), 1)
        ON CONFLICT (key) DO UPDATE SET
          "windowStart" = CASE WHEN current."windowStart" + ${windowMs}::int * interval '1 millisecond' <= EXCLUDED."windowStart"
            THEN EXCLUDED."windowStart" ELSE current."windowStart" END,
          count = CASE WHEN current."windowStart" + ${windowMs}::int * interval '1 millisecond' <= EXCLUDED."windowStart"
            THEN 1 ELSE current.count + 1 END
        RETURNING count, least(ceil(${windowMs}::int / 1000.0), greatest(1, ceil(extract(epoch FROM
          ("windowStart" + ${windowMs}::int * interval '1 millisecond' - (now() AT TIME ZONE 'UTC'))))))::int AS "retryAfterSeconds"`;
      return row!;
    },

    /** Takes one back from the key's count (an attempt that turned out not to count). */
    decrementCount: async (key: string): Promise<void> => {
      await db.$queryRaw`UPDATE action_rate_limit SET count = greatest(count - 1, 0) WHERE key = ${key} RETURNING key`;
    },
  };
}

export type RateLimitRepository = ReturnType<typeof createRateLimitRepository>;
