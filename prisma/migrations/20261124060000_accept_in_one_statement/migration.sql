-- Accepting a mail for one address in one statement (written by hand: Prisma does not model
-- functions). The duplicate check must see every copy of the message committed before it, so its
-- advisory lock is taken before the INSERT looks: in one function, each statement of a VOLATILE
-- function takes a new snapshot (READ COMMITTED), which one SQL statement with the lock in a
-- sub-select could not do. Called outside an explicit transaction, the call is its own transaction:
-- one round trip instead of BEGIN + lock, INSERT and COMMIT.
CREATE FUNCTION "hookmail_insert_processing"(
  "p_lock_key" BIGINT,
  "p_id" TEXT,
  "p_email_callback_id" TEXT,
  "p_from_address" TEXT,
  "p_subject" TEXT,
  "p_message_id" TEXT,
  "p_recipient" TEXT,
  "p_tag" TEXT,
  "p_status" TEXT,
  "p_error" TEXT,
  "p_raw_message" BYTEA,
  "p_payload" BYTEA,
  "p_attempt_count" INTEGER,
  "p_next_attempt_at" TIMESTAMPTZ,
  "p_locked_until" TIMESTAMPTZ,
  "p_created_at" TIMESTAMPTZ,
  "p_duplicates_since" TIMESTAMPTZ
) RETURNS BOOLEAN LANGUAGE plpgsql VOLATILE AS $$
BEGIN
  IF "p_lock_key" IS NOT NULL THEN
    PERFORM pg_advisory_xact_lock("p_lock_key");
  END IF;
  INSERT INTO "email_processing" (
    "id", "emailCallbackId", "fromAddress", "subject", "messageId", "recipient", "tag", "status", "error",
    "rawMessage", "payload", "attemptCount", "nextAttemptAt", "lockedUntil", "createdAt", "updatedAt"
  )
  SELECT "p_id", "p_email_callback_id", "p_from_address", "p_subject", "p_message_id", "p_recipient", "p_tag",
         "p_status", "p_error", "p_raw_message", "p_payload", "p_attempt_count",
         "p_next_attempt_at" AT TIME ZONE 'UTC', "p_locked_until" AT TIME ZONE 'UTC',
         "p_created_at" AT TIME ZONE 'UTC', "p_created_at" AT TIME ZONE 'UTC'
  WHERE "p_message_id" IS NULL OR NOT EXISTS (
    SELECT 1 FROM "email_processing"
    WHERE "emailCallbackId" = "p_email_callback_id" AND "messageId" = "p_message_id"
      AND "recipient" = "p_recipient" AND "createdAt" > "p_duplicates_since" AT TIME ZONE 'UTC'
  );
  RETURN FOUND;
END
$$;
