-- Destinations (docs/architecture.md: The data; docs/webhooks.md: Destinations). An address has one or
-- more endpoints, and a mail to be delivered has one delivery per endpoint that takes it, each with its
-- own attempts, retries and outcome: the delivery queue moves from email_processing to delivery, and
-- a processing's delivery state becomes what its deliveries say.

-- CreateTable
CREATE TABLE "endpoint" (
    "id" TEXT NOT NULL,
    "emailCallbackId" TEXT NOT NULL,
    "url" TEXT NOT NULL,
    "format" TEXT NOT NULL DEFAULT 'json',
    "signingScheme" TEXT NOT NULL DEFAULT 'hmac',
    "secret" TEXT,
    "publicKey" TEXT,
    "privateKeyEncrypted" TEXT,
    "headers" JSONB NOT NULL DEFAULT '{}',
    "timeoutMs" INTEGER,
    "filter" JSONB,
    "isEnabled" BOOLEAN NOT NULL DEFAULT true,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,
    "deletedAt" TIMESTAMP(3),

    CONSTRAINT "endpoint_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "delivery" (
    "id" TEXT NOT NULL,
    "emailProcessingId" TEXT NOT NULL,
    "endpointId" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "error" TEXT,
    "attemptCount" INTEGER NOT NULL DEFAULT 0,
    "nextAttemptAt" TIMESTAMP(3),
    "lockedUntil" TIMESTAMP(3),
    "lastStatusCode" INTEGER,
    "deliveredAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "delivery_pkey" PRIMARY KEY ("id")
);

-- AlterTable
ALTER TABLE "delivery_attempt" ADD COLUMN "deliveryId" TEXT;

-- CreateIndex
CREATE INDEX "endpoint_live_idx" ON "endpoint"("emailCallbackId", "createdAt", "id") WHERE ("deletedAt" IS NULL);
CREATE UNIQUE INDEX "delivery_emailProcessingId_endpointId_key" ON "delivery"("emailProcessingId", "endpointId");
-- The queue: only pending deliveries, by when they are due.
CREATE INDEX "delivery_due_idx" ON "delivery"("nextAttemptAt") WHERE ("status" = 'pending');
CREATE INDEX "delivery_endpointId_idx" ON "delivery"("endpointId");
CREATE INDEX "delivery_attempt_deliveryId_idx" ON "delivery_attempt"("deliveryId");

-- AddForeignKey
ALTER TABLE "endpoint" ADD CONSTRAINT "endpoint_emailCallbackId_fkey" FOREIGN KEY ("emailCallbackId") REFERENCES "email_callback"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "delivery" ADD CONSTRAINT "delivery_emailProcessingId_fkey" FOREIGN KEY ("emailProcessingId") REFERENCES "email_processing"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "delivery" ADD CONSTRAINT "delivery_endpointId_fkey" FOREIGN KEY ("endpointId") REFERENCES "endpoint"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "delivery_attempt" ADD CONSTRAINT "delivery_attempt_deliveryId_fkey" FOREIGN KEY ("deliveryId") REFERENCES "delivery"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Every address's webhook becomes its first endpoint, with its id made from the address's
-- (`ept_` + the address id's random part), so the first endpoint of an address is known without a read.
INSERT INTO "endpoint" ("id", "emailCallbackId", "url", "signingScheme", "secret", "createdAt", "updatedAt", "deletedAt")
SELECT 'ept_' || substring("id" FROM 5), "id", "webhookUrl",
       CASE WHEN "webhookSecret" IS NULL THEN 'none' ELSE 'hmac' END, "webhookSecret", "createdAt", "updatedAt", "deletedAt"
FROM "email_callback";

-- Every mail that was or is being delivered gets its delivery to that endpoint, with the state the
-- processing held (`dlv_` + the processing id's random part); its attempts name that delivery.
INSERT INTO "delivery" ("id", "emailProcessingId", "endpointId", "status", "error", "attemptCount", "nextAttemptAt",
                        "lockedUntil", "lastStatusCode", "deliveredAt", "createdAt", "updatedAt")
SELECT 'dlv_' || substring(p."id" FROM 4), p."id", 'ept_' || substring(p."emailCallbackId" FROM 5), p."status",
       CASE WHEN p."status" = 'error' THEN p."error" END, p."attemptCount", p."nextAttemptAt", p."lockedUntil",
       p."webhookResponseStatusCode", p."deliveredAt", p."createdAt", p."updatedAt"
FROM "email_processing" p
WHERE p."status" IN ('pending', 'success', 'error');

UPDATE "delivery_attempt" a SET "deliveryId" = 'dlv_' || substring(a."emailProcessingId" FROM 4)
WHERE EXISTS (SELECT 1 FROM "delivery" d WHERE d."id" = 'dlv_' || substring(a."emailProcessingId" FROM 4));

-- The processing no longer holds a claim: its deliveries do.
DROP INDEX "email_processing_status_nextAttemptAt_idx";
ALTER TABLE "email_processing" DROP COLUMN "lockedUntil";

-- The address's webhookUrl and webhookSecret are its first live endpoint's (the specification's calls
-- read and write them): a new address gets its first endpoint from them, a change of them is a change
-- of that endpoint, and a change of the endpoints is copied back. Depth guards stop the copy from
-- copying itself back.
CREATE FUNCTION "hookmail_first_endpoint_created"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "endpoint" ("id", "emailCallbackId", "url", "signingScheme", "secret", "createdAt", "updatedAt")
  VALUES ('ept_' || substring(NEW."id" FROM 5), NEW."id", NEW."webhookUrl",
          CASE WHEN NEW."webhookSecret" IS NULL THEN 'none' ELSE 'hmac' END, NEW."webhookSecret", NEW."createdAt", NEW."updatedAt");
  RETURN NULL;
END
$$;
CREATE TRIGGER "email_callback_first_endpoint" AFTER INSERT ON "email_callback"
  FOR EACH ROW EXECUTE FUNCTION "hookmail_first_endpoint_created"();

CREATE FUNCTION "hookmail_first_endpoint_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF pg_trigger_depth() > 1 THEN RETURN NULL; END IF;
  UPDATE "endpoint" e SET
    "url" = NEW."webhookUrl",
    "signingScheme" = CASE WHEN NEW."webhookSecret" IS NULL THEN 'none' ELSE 'hmac' END,
    "secret" = NEW."webhookSecret",
    "publicKey" = CASE WHEN NEW."webhookSecret" IS NULL THEN NULL ELSE e."publicKey" END,
    "privateKeyEncrypted" = CASE WHEN NEW."webhookSecret" IS NULL THEN NULL ELSE e."privateKeyEncrypted" END,
    "updatedAt" = NEW."updatedAt"
  WHERE e."id" = (
    SELECT f."id" FROM "endpoint" f WHERE f."emailCallbackId" = NEW."id" AND f."deletedAt" IS NULL
    ORDER BY f."createdAt", f."id" LIMIT 1);
  -- A secret left as it was keeps the endpoint's scheme (an Ed25519 first endpoint stays one).
  RETURN NULL;
END
$$;
CREATE TRIGGER "email_callback_first_endpoint_change" AFTER UPDATE OF "webhookUrl", "webhookSecret" ON "email_callback"
  FOR EACH ROW WHEN (OLD."webhookUrl" IS DISTINCT FROM NEW."webhookUrl" OR OLD."webhookSecret" IS DISTINCT FROM NEW."webhookSecret")
  EXECUTE FUNCTION "hookmail_first_endpoint_changed"();

CREATE FUNCTION "hookmail_endpoints_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  "callback_id" TEXT := COALESCE(NEW."emailCallbackId", OLD."emailCallbackId");
BEGIN
  IF pg_trigger_depth() > 1 THEN RETURN NULL; END IF;
  UPDATE "email_callback" c SET
    "webhookUrl" = f."url",
    "webhookSecret" = CASE WHEN f."signingScheme" = 'hmac' THEN f."secret" END
  FROM (
    SELECT e."url", e."signingScheme", e."secret" FROM "endpoint" e
    WHERE e."emailCallbackId" = "callback_id" AND e."deletedAt" IS NULL
    ORDER BY e."createdAt", e."id" LIMIT 1
  ) f
  WHERE c."id" = "callback_id"
    AND (c."webhookUrl" IS DISTINCT FROM f."url"
      OR c."webhookSecret" IS DISTINCT FROM CASE WHEN f."signingScheme" = 'hmac' THEN f."secret" END);
  RETURN NULL;
END
$$;
CREATE TRIGGER "endpoint_first_copy" AFTER INSERT OR UPDATE OR DELETE ON "endpoint"
  FOR EACH ROW EXECUTE FUNCTION "hookmail_endpoints_changed"();

-- A processing's delivery state is its deliveries': error when one gave up (its error), else pending
-- while one is, else success when one succeeded, else not processed (each was skipped). Its attempt
-- count is theirs summed, its status code the last one answered, its next attempt the soonest.
-- Statement-level, so a batch of outcomes derives each processing once. The processings are locked
-- first, in id order (two batches cannot deadlock on them), and only then read: a statement takes its
-- snapshot when it starts, so reading the deliveries in the locking statement could miss a sibling
-- delivery's outcome committed while it waited.
CREATE FUNCTION "hookmail_deliveries_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  "processing_ids" TEXT[];
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
  RETURN NULL;
END
$$;
CREATE TRIGGER "delivery_state_update" AFTER UPDATE ON "delivery"
  REFERENCING OLD TABLE AS "previous" NEW TABLE AS "changed" FOR EACH STATEMENT EXECUTE FUNCTION "hookmail_deliveries_changed"();

-- Accepting a mail for one address in one statement, now with its deliveries (one per endpoint that
-- takes it), written already claimed when the accepting process takes the first attempts.
DROP FUNCTION "hookmail_insert_processing"(BIGINT, TEXT, TEXT, TEXT, TEXT, TEXT, TEXT, TEXT, TEXT, TEXT, BYTEA, BYTEA, INTEGER,
  TIMESTAMPTZ, TIMESTAMPTZ, TIMESTAMPTZ, TIMESTAMPTZ);
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
  "p_next_attempt_at" TIMESTAMPTZ,
  "p_locked_until" TIMESTAMPTZ,
  "p_created_at" TIMESTAMPTZ,
  "p_duplicates_since" TIMESTAMPTZ,
  "p_delivery_ids" TEXT[],
  "p_endpoint_ids" TEXT[]
) RETURNS BOOLEAN LANGUAGE plpgsql VOLATILE AS $$
BEGIN
  IF "p_lock_key" IS NOT NULL THEN
    PERFORM pg_advisory_xact_lock("p_lock_key");
  END IF;
  INSERT INTO "email_processing" (
    "id", "emailCallbackId", "fromAddress", "subject", "messageId", "recipient", "tag", "status", "error",
    "rawMessage", "payload", "attemptCount", "nextAttemptAt", "createdAt", "updatedAt"
  )
  SELECT "p_id", "p_email_callback_id", "p_from_address", "p_subject", "p_message_id", "p_recipient", "p_tag",
         "p_status", "p_error", "p_raw_message", "p_payload", 0,
         "p_next_attempt_at" AT TIME ZONE 'UTC', "p_created_at" AT TIME ZONE 'UTC', "p_created_at" AT TIME ZONE 'UTC'
  WHERE "p_message_id" IS NULL OR NOT EXISTS (
    SELECT 1 FROM "email_processing"
    WHERE "emailCallbackId" = "p_email_callback_id" AND "messageId" = "p_message_id"
      AND "recipient" = "p_recipient" AND "createdAt" > "p_duplicates_since" AT TIME ZONE 'UTC'
  );
  IF NOT FOUND THEN RETURN FALSE; END IF;
  INSERT INTO "delivery" ("id", "emailProcessingId", "endpointId", "status", "nextAttemptAt", "lockedUntil", "createdAt", "updatedAt")
  SELECT d."id", "p_id", d."endpointId", 'pending', "p_next_attempt_at" AT TIME ZONE 'UTC', "p_locked_until" AT TIME ZONE 'UTC',
         "p_created_at" AT TIME ZONE 'UTC', "p_created_at" AT TIME ZONE 'UTC'
  FROM unnest("p_delivery_ids", "p_endpoint_ids") AS d("id", "endpointId");
  RETURN TRUE;
END
$$;
