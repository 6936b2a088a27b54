-- Live events name the endpoint (docs/webhooks.md: Live events): an event that a delivery's change
-- caused carries that delivery's endpoint. A delivery's change reaches its processing through the
-- statement trigger "delivery_state_update", which may change several deliveries of one processing in
-- one statement (outcomes are written in groups) and may leave the processing's shown state as it was;
-- so those events are now recorded by that trigger, one per changed delivery, with the processing's
-- state after the change, and the processing's own trigger records only the changes made to it
-- directly (the mail's arrival, a change made by hand).

-- AlterTable
ALTER TABLE "processing_event" ADD COLUMN "endpointId" TEXT;

-- Written by hand below: Prisma does not model triggers. One event, recorded and NOTIFYed as before
-- (migration 20261126120000_followed_event_streams) for the addresses someone follows.
CREATE FUNCTION "hookmail_record_processing_event"(
  "p_email_callback_id" TEXT,
  "p_email_processing_id" TEXT,
  "p_is_new" BOOLEAN,
  "p_status" TEXT,
  "p_error" TEXT,
  "p_status_code" INTEGER,
  "p_attempt_count" INTEGER,
  "p_endpoint_id" TEXT
) RETURNS VOID LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  "event_id" BIGINT;
  "is_streamed" BOOLEAN;
BEGIN
  SELECT f."streamedUntil" > statement_timestamp() INTO "is_streamed"
    FROM "processing_event_follower" f
   WHERE f."emailCallbackId" = "p_email_callback_id" AND f."followedUntil" > statement_timestamp();
  IF NOT FOUND THEN
    RETURN;
  END IF;
  INSERT INTO "processing_event" (
    "emailCallbackId", "emailProcessingId", "isNew", "status", "error", "webhookResponseStatusCode", "attemptCount",
    "endpointId", "createdAt"
  )
  VALUES (
    "p_email_callback_id", "p_email_processing_id", "p_is_new", "p_status", "p_error", "p_status_code", "p_attempt_count",
    "p_endpoint_id", statement_timestamp() AT TIME ZONE 'UTC'
  )
  RETURNING "id" INTO "event_id";
  IF "is_streamed" THEN
    PERFORM pg_notify('hookmail_processing_events', "p_email_callback_id" || ' ' || "event_id");
  END IF;
  IF "event_id" % 1000 = 0 THEN
    DELETE FROM "processing_event" WHERE "createdAt" < (statement_timestamp() AT TIME ZONE 'UTC') - INTERVAL '1 hour';
    DELETE FROM "processing_event_follower" WHERE "followedUntil" < statement_timestamp();
  END IF;
END
$$;

-- A change of the processing made by the deliveries' trigger (trigger depth above 1) is recorded by
-- that trigger, with its endpoint.
CREATE OR REPLACE FUNCTION "processing_event_recorded"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' AND pg_trigger_depth() > 1 THEN
    RETURN NULL;
  END IF;
  PERFORM "hookmail_record_processing_event"(
    NEW."emailCallbackId", NEW."id", TG_OP = 'INSERT', NEW."status", NEW."error", NEW."webhookResponseStatusCode",
    NEW."attemptCount", NULL
  );
  RETURN NULL;
END
$$;

-- As in migration 20261128070000_endpoints_and_deliveries, and then one event per delivery whose shown
-- state (status, error, attempt count, status code) changed, in delivery id order.
CREATE OR REPLACE FUNCTION "hookmail_deliveries_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  "processing_ids" TEXT[];
  "event" RECORD;
BEGIN
  -- Claims and lease renewals change only "lockedUntil": nothing to derive.
  SELECT array_agg(DISTINCT n."emailProcessingId") INTO "processing_ids"
  FROM "changed" n JOIN "previous" o ON o."id" = n."id"
  WHERE (n."status", n."error", n."attemptCount", n."lastStatusCode", n."nextAttemptAt", n."deliveredAt")
        IS DISTINCT FROM (o."status", o."error", o."attemptCount", o."lastStatusCode", o."nextAttemptAt", o."deliveredAt");
  IF "processing_ids" IS NULL THEN RETURN NULL; END IF;
  PERFORM 1 FROM "email_processing" WHERE "id" = ANY("processing_ids") ORDER BY "id" FOR UPDATE;
  UPDATE "email_processing" p SET
    "status" = s."status",
    "error" = CASE WHEN s."status" IN ('error', 'not-processed') THEN s."error" END,
    "attemptCount" = s."attemptCount",
    "webhookResponseStatusCode" = s."lastStatusCode",
    "nextAttemptAt" = s."nextAttemptAt",
    "deliveredAt" = s."deliveredAt",
    "updatedAt" = s."updatedAt"
  FROM (
    SELECT d."emailProcessingId",
      CASE WHEN bool_or(d."status" = 'error') THEN 'error'
           WHEN bool_or(d."status" = 'pending') THEN 'pending'
           WHEN bool_or(d."status" = 'success') THEN 'success'
           ELSE 'not-processed' END AS "status",
      COALESCE(min(d."error") FILTER (WHERE d."status" = 'error'), min(d."error")) AS "error",
      sum(d."attemptCount")::int AS "attemptCount",
      (array_agg(d."lastStatusCode" ORDER BY d."updatedAt" DESC, d."id") FILTER (WHERE d."lastStatusCode" IS NOT NULL))[1] AS "lastStatusCode",
      min(d."nextAttemptAt") FILTER (WHERE d."status" = 'pending') AS "nextAttemptAt",
      max(d."deliveredAt") AS "deliveredAt",
      max(d."updatedAt") AS "updatedAt"
    FROM "delivery" d
    WHERE d."emailProcessingId" = ANY("processing_ids")
    GROUP BY d."emailProcessingId"
  ) s
  WHERE p."id" = s."emailProcessingId"
    AND (p."status", p."error", p."attemptCount", p."webhookResponseStatusCode", p."nextAttemptAt", p."deliveredAt")
        IS DISTINCT FROM (s."status", CASE WHEN s."status" IN ('error', 'not-processed') THEN s."error" END, s."attemptCount",
                          s."lastStatusCode", s."nextAttemptAt", s."deliveredAt");
  -- Read after the UPDATE above: the processings as it left them. Only the addresses someone follows
  -- are looked at (the common case, nobody follows, costs this one join and no call).
  FOR "event" IN
    SELECT p."emailCallbackId", p."id", p."status", p."error", p."webhookResponseStatusCode", p."attemptCount", n."endpointId"
    FROM "changed" n
    JOIN "previous" o ON o."id" = n."id"
    JOIN "email_processing" p ON p."id" = n."emailProcessingId"
    JOIN "processing_event_follower" f ON f."emailCallbackId" = p."emailCallbackId" AND f."followedUntil" > statement_timestamp()
    WHERE (n."status", n."error", n."attemptCount", n."lastStatusCode")
          IS DISTINCT FROM (o."status", o."error", o."attemptCount", o."lastStatusCode")
    ORDER BY n."id"
  LOOP
    PERFORM "hookmail_record_processing_event"(
      "event"."emailCallbackId", "event"."id", false, "event"."status", "event"."error", "event"."webhookResponseStatusCode",
      "event"."attemptCount", "event"."endpointId"
    );
  END LOOP;
  RETURN NULL;
END
$$;
