-- The live event stream (docs/architecture.md: Live events). Every change of a processing that its
-- stream shows (the row written as the mail arrives; a new status, error, webhook status code or
-- attempt count) appends one row here and sends a NOTIFY naming it, from whichever process made the
-- change. The row keeps the state of that moment, so a stream that resumes (Last-Event-ID) replays
-- what it missed as it was. No foreign keys: appending must not lock the processing's callback, and
-- the rows of a deleted processing are skipped by the readers' join.

-- CreateTable
CREATE TABLE "processing_event" (
    "id" BIGSERIAL NOT NULL,
    "emailCallbackId" TEXT NOT NULL,
    "emailProcessingId" TEXT NOT NULL,
    "isNew" BOOLEAN NOT NULL,
    "status" TEXT NOT NULL,
    "error" TEXT,
    "webhookResponseStatusCode" INTEGER,
    "attemptCount" INTEGER NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "processing_event_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "processing_event_emailCallbackId_id_idx" ON "processing_event"("emailCallbackId", "id");

-- CreateIndex
CREATE INDEX "processing_event_createdAt_idx" ON "processing_event"("createdAt");

-- Written by hand below: Prisma does not model triggers. The NOTIFY payload is `<emailCallbackId>
-- <event id>` (far below NOTIFY's 8000-byte limit): a listener reads the row only when it streams
-- that address. A NOTIFY is delivered when its transaction commits, so the row is there to read.
-- Every thousandth event also removes the events older than an hour (streams replay a few minutes),
-- so the table stays small whichever roles run.
CREATE FUNCTION "processing_event_recorded"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  "event_id" BIGINT;
BEGIN
  INSERT INTO "processing_event" (
    "emailCallbackId", "emailProcessingId", "isNew", "status", "error", "webhookResponseStatusCode", "attemptCount", "createdAt"
  )
  VALUES (
    NEW."emailCallbackId", NEW."id", TG_OP = 'INSERT', NEW."status", NEW."error", NEW."webhookResponseStatusCode",
    NEW."attemptCount", statement_timestamp() AT TIME ZONE 'UTC'
  )
  RETURNING "id" INTO "event_id";
  PERFORM pg_notify('hookmail_processing_events', NEW."emailCallbackId" || ' ' || "event_id");
  IF "event_id" % 1000 = 0 THEN
    DELETE FROM "processing_event" WHERE "createdAt" < (statement_timestamp() AT TIME ZONE 'UTC') - INTERVAL '1 hour';
  END IF;
  RETURN NULL;
END
$$;

-- A row written with a creation time more than an hour old is history being loaded (an import, a
-- benchmark's seed), not mail arriving: no stream could replay it, so it gets no event.
CREATE TRIGGER "processing_event_insert" AFTER INSERT ON "email_processing"
  FOR EACH ROW
  WHEN (NEW."createdAt" > (statement_timestamp() AT TIME ZONE 'UTC') - INTERVAL '1 hour')
  EXECUTE FUNCTION "processing_event_recorded"();

-- Fires only for an UPDATE that changes what a stream shows: not for claims (lockedUntil), nor for
-- the content being set or cleared (rawMessage, payload).
CREATE TRIGGER "processing_event_update" AFTER UPDATE OF "status", "error", "webhookResponseStatusCode", "attemptCount"
  ON "email_processing"
  FOR EACH ROW
  WHEN (OLD."status" IS DISTINCT FROM NEW."status"
        OR OLD."error" IS DISTINCT FROM NEW."error"
        OR OLD."webhookResponseStatusCode" IS DISTINCT FROM NEW."webhookResponseStatusCode"
        OR OLD."attemptCount" IS DISTINCT FROM NEW."attemptCount")
  EXECUTE FUNCTION "processing_event_recorded"();
