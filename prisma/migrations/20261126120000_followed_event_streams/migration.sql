-- Live events only for the addresses someone follows (docs/architecture.md: Live events). Recording
-- an event and sending its NOTIFY for every change of every processing cost the relay more than half
-- of its write throughput: a NOTIFY takes PostgreSQL's notification-queue lock at each commit. Now
-- each process that streams an address keeps a row here up to date (every few seconds while a
-- stream is open), and the trigger looks it up:
-- - "streamedUntil": a stream is open somewhere; changes are recorded and NOTIFYed;
-- - "followedUntil": a stream was open in the replay window; changes are recorded (no NOTIFY), so a
--   client that comes back with Last-Event-ID replays what it missed;
-- - neither: nothing is written, and the change costs one index lookup.
-- Rows of processes that stopped simply expire; the trigger's periodic clean-up removes them.

-- CreateTable
CREATE TABLE "processing_event_follower" (
    "emailCallbackId" TEXT NOT NULL,
    "streamedUntil" TIMESTAMPTZ(3) NOT NULL,
    "followedUntil" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "processing_event_follower_pkey" PRIMARY KEY ("emailCallbackId")
);

-- Written by hand below: Prisma does not model triggers.
CREATE OR REPLACE FUNCTION "processing_event_recorded"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  "event_id" BIGINT;
  "is_streamed" BOOLEAN;
BEGIN
  SELECT f."streamedUntil" > statement_timestamp() INTO "is_streamed"
    FROM "processing_event_follower" f
   WHERE f."emailCallbackId" = NEW."emailCallbackId" AND f."followedUntil" > statement_timestamp();
  IF NOT FOUND THEN
    RETURN NULL;
  END IF;
  INSERT INTO "processing_event" (
    "emailCallbackId", "emailProcessingId", "isNew", "status", "error", "webhookResponseStatusCode", "attemptCount", "createdAt"
  )
  VALUES (
    NEW."emailCallbackId", NEW."id", TG_OP = 'INSERT', NEW."status", NEW."error", NEW."webhookResponseStatusCode",
    NEW."attemptCount", statement_timestamp() AT TIME ZONE 'UTC'
  )
  RETURNING "id" INTO "event_id";
  IF "is_streamed" THEN
    PERFORM pg_notify('hookmail_processing_events', NEW."emailCallbackId" || ' ' || "event_id");
  END IF;
  IF "event_id" % 1000 = 0 THEN
    DELETE FROM "processing_event" WHERE "createdAt" < (statement_timestamp() AT TIME ZONE 'UTC') - INTERVAL '1 hour';
    DELETE FROM "processing_event_follower" WHERE "followedUntil" < statement_timestamp();
  END IF;
  RETURN NULL;
END
$$;
