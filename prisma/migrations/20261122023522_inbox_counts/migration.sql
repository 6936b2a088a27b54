-- CreateTable
CREATE TABLE "email_processing_count" (
    "id" BIGSERIAL NOT NULL,
    "emailCallbackId" TEXT NOT NULL,
    "hour" TIMESTAMP(3) NOT NULL,
    "delta" INTEGER NOT NULL,

    CONSTRAINT "email_processing_count_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "email_processing_count_emailCallbackId_hour_delta_idx" ON "email_processing_count"("emailCallbackId", "hour" DESC, "delta");

-- AddForeignKey
ALTER TABLE "email_processing_count" ADD CONSTRAINT "email_processing_count_emailCallbackId_fkey" FOREIGN KEY ("emailCallbackId") REFERENCES "email_callback"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- The inbox counts (written by hand: Prisma does not model triggers). Every statement that adds or
-- removes processings appends one delta per (callback, hour of createdAt) it touched. Writers only
-- append, so concurrent mail for one callback never waits on a counter row, and no lock order can
-- deadlock; the inbox sums the deltas and folds them together now and then.
CREATE FUNCTION "email_processing_count_inserted"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "email_processing_count" ("emailCallbackId", "hour", "delta")
  SELECT "emailCallbackId", date_trunc('hour', "createdAt"), count(*) FROM "inserted_rows" GROUP BY 1, 2;
  RETURN NULL;
END
$$;

-- A callback being deleted takes its counts with it (foreign key, ON DELETE CASCADE): its processings,
-- deleted by the same cascade, add no delta for it.
CREATE FUNCTION "email_processing_count_deleted"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "email_processing_count" ("emailCallbackId", "hour", "delta")
  SELECT "emailCallbackId", date_trunc('hour', "createdAt"), -count(*) FROM "deleted_rows" AS deleted
  WHERE EXISTS (SELECT 1 FROM "email_callback" WHERE "email_callback"."id" = deleted."emailCallbackId")
  GROUP BY 1, 2;
  RETURN NULL;
END
$$;

-- No code moves a processing to another callback or hour; should an UPDATE ever do it, the counts follow.
CREATE FUNCTION "email_processing_count_moved"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "email_processing_count" ("emailCallbackId", "hour", "delta")
  VALUES (OLD."emailCallbackId", date_trunc('hour', OLD."createdAt"), -1),
         (NEW."emailCallbackId", date_trunc('hour', NEW."createdAt"), 1);
  RETURN NULL;
END
$$;

CREATE FUNCTION "email_processing_count_truncated"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "email_processing_count";
  RETURN NULL;
END
$$;

CREATE TRIGGER "email_processing_count_insert" AFTER INSERT ON "email_processing"
  REFERENCING NEW TABLE AS "inserted_rows" FOR EACH STATEMENT EXECUTE FUNCTION "email_processing_count_inserted"();

CREATE TRIGGER "email_processing_count_delete" AFTER DELETE ON "email_processing"
  REFERENCING OLD TABLE AS "deleted_rows" FOR EACH STATEMENT EXECUTE FUNCTION "email_processing_count_deleted"();

-- Fires only for an UPDATE that sets one of these columns to another value (not for status updates).
CREATE TRIGGER "email_processing_count_move" AFTER UPDATE OF "emailCallbackId", "createdAt" ON "email_processing"
  FOR EACH ROW
  WHEN (OLD."emailCallbackId" IS DISTINCT FROM NEW."emailCallbackId"
        OR date_trunc('hour', OLD."createdAt") IS DISTINCT FROM date_trunc('hour', NEW."createdAt"))
  EXECUTE FUNCTION "email_processing_count_moved"();

CREATE TRIGGER "email_processing_count_truncate" AFTER TRUNCATE ON "email_processing"
  FOR EACH STATEMENT EXECUTE FUNCTION "email_processing_count_truncated"();

-- The processings already there. CREATE TRIGGER above locks out writers until this migration
-- commits, so none is counted twice or missed.
INSERT INTO "email_processing_count" ("emailCallbackId", "hour", "delta")
SELECT "emailCallbackId", date_trunc('hour', "createdAt"), count(*) FROM "email_processing" GROUP BY 1, 2;
