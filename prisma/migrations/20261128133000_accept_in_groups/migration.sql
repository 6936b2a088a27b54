-- Accepting the mails of several sessions in one statement and one commit (docs/architecture.md: Group
-- commit), written by hand: Prisma does not model functions. The group's rows come as arrays, one
-- element per mail; its deliveries as arrays too, each naming its processing. The duplicate locks
-- of the whole group are taken first, in sorted order (as the multi-row transaction takes them), so
-- two groups cannot deadlock; only then, in a statement of its own (a new snapshot: it sees every
-- copy committed before the locks were granted), a row is inserted unless it is a duplicate: of a
-- processing already written (the rule of hookmail_insert_processing) or of an earlier row of the
-- group. The raw messages and bodies come in one bytea, joined, each found by its offset (0-based)
-- and length (a null offset: no value): node-postgres sends a bytea parameter as bytes, but an array
-- of them as hex text, twice the size to write and to read. Answers, in the group's order, whether
-- each row was written. hookmail_insert_processing
-- stays: one mail alone, and each mail of a group whose statement failed, goes through it.
CREATE FUNCTION "hookmail_insert_processings"(
  "p_lock_keys" BIGINT[],
  "p_ids" TEXT[],
  "p_email_callback_ids" TEXT[],
  "p_from_addresses" TEXT[],
  "p_subjects" TEXT[],
  "p_message_ids" TEXT[],
  "p_recipients" TEXT[],
  "p_tags" TEXT[],
  "p_statuses" TEXT[],
  "p_errors" TEXT[],
  "p_values" BYTEA,
  "p_raw_offsets" INTEGER[],
  "p_raw_lengths" INTEGER[],
  "p_payload_offsets" INTEGER[],
  "p_payload_lengths" INTEGER[],
  "p_next_attempt_ats" TIMESTAMPTZ[],
  "p_locked_untils" TIMESTAMPTZ[],
  "p_created_ats" TIMESTAMPTZ[],
  "p_duplicates_sinces" TIMESTAMPTZ[],
  "p_delivery_processing_ids" TEXT[],
  "p_delivery_ids" TEXT[],
  "p_endpoint_ids" TEXT[]
) RETURNS BOOLEAN[] LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  "lock_key" BIGINT;
  "written" BOOLEAN[];
BEGIN
  FOR "lock_key" IN SELECT DISTINCT k FROM unnest("p_lock_keys") AS k WHERE k IS NOT NULL ORDER BY k LOOP
    PERFORM pg_advisory_xact_lock("lock_key");
  END LOOP;
  WITH "input" AS (
    SELECT * FROM unnest("p_ids", "p_email_callback_ids", "p_from_addresses", "p_subjects", "p_message_ids", "p_recipients",
                         "p_tags", "p_statuses", "p_errors", "p_raw_offsets", "p_raw_lengths", "p_payload_offsets",
                         "p_payload_lengths", "p_next_attempt_ats", "p_locked_untils", "p_created_ats", "p_duplicates_sinces")
      WITH ORDINALITY AS i("id", "emailCallbackId", "fromAddress", "subject", "messageId", "recipient", "tag", "status",
                           "error", "rawOffset", "rawLength", "payloadOffset", "payloadLength", "nextAttemptAt",
                           "lockedUntil", "createdAt", "duplicatesSince", "ord")
  ), "kept" AS (
    -- Not a duplicate of a written processing, and the first of the group with its key.
    SELECT n.* FROM (
      SELECT i.*, row_number() OVER (PARTITION BY i."emailCallbackId", i."messageId", i."recipient" ORDER BY i."ord") AS "copy"
      FROM "input" i
      WHERE i."messageId" IS NULL OR NOT EXISTS (
        SELECT 1 FROM "email_processing" p
        WHERE p."emailCallbackId" = i."emailCallbackId" AND p."messageId" = i."messageId"
          AND p."recipient" = i."recipient" AND p."createdAt" > i."duplicatesSince" AT TIME ZONE 'UTC')
    ) n
    WHERE n."messageId" IS NULL OR n."copy" = 1
  ), "inserted" AS (
    INSERT INTO "email_processing" (
      "id", "emailCallbackId", "fromAddress", "subject", "messageId", "recipient", "tag", "status", "error",
      "rawMessage", "payload", "attemptCount", "nextAttemptAt", "createdAt", "updatedAt"
    )
    SELECT k."id", k."emailCallbackId", k."fromAddress", k."subject", k."messageId", k."recipient", k."tag", k."status",
           k."error",
           CASE WHEN k."rawOffset" IS NOT NULL THEN substring("p_values" FROM k."rawOffset" + 1 FOR k."rawLength") END,
           CASE WHEN k."payloadOffset" IS NOT NULL THEN substring("p_values" FROM k."payloadOffset" + 1 FOR k."payloadLength") END,
           0, k."nextAttemptAt" AT TIME ZONE 'UTC', k."createdAt" AT TIME ZONE 'UTC',
           k."createdAt" AT TIME ZONE 'UTC'
    FROM "kept" k ORDER BY k."ord"
    RETURNING "id"
  ), "deliveries" AS (
    INSERT INTO "delivery" ("id", "emailProcessingId", "endpointId", "status", "nextAttemptAt", "lockedUntil", "createdAt", "updatedAt")
    SELECT d."id", k."id", d."endpointId", 'pending', k."nextAttemptAt" AT TIME ZONE 'UTC', k."lockedUntil" AT TIME ZONE 'UTC',
           k."createdAt" AT TIME ZONE 'UTC', k."createdAt" AT TIME ZONE 'UTC'
    FROM unnest("p_delivery_processing_ids", "p_delivery_ids", "p_endpoint_ids") AS d("processingId", "id", "endpointId")
    JOIN "kept" k ON k."id" = d."processingId"
  )
  SELECT array_agg(EXISTS (SELECT 1 FROM "inserted" w WHERE w."id" = i."id") ORDER BY i."ord") INTO "written"
  FROM "input" i;
  RETURN "written";
END
$$;
