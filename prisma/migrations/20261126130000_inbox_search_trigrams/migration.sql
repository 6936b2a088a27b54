-- The inbox search (`q`: a text found anywhere in the sender or the subject, case-insensitively) by
-- trigram index, so that a search of a big inbox reads the matching rows only, not every row of the
-- address (docs/architecture.md: The inbox). pg_trgm ships with PostgreSQL (the embedded server
-- included) and is a trusted extension, so a database owner may create it; on a server without it
-- the search works as before, by reading the address's rows.
DO $$
BEGIN
  CREATE EXTENSION IF NOT EXISTS pg_trgm;
EXCEPTION WHEN OTHERS THEN
  RAISE NOTICE 'pg_trgm is not available (%): the inbox search reads the rows', SQLERRM;
END
$$;

-- The extension may also live in a schema outside the search path (some managed servers keep
-- extensions apart): then the operator class is not found, and the search goes without the index.
DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN
    CREATE INDEX IF NOT EXISTS "email_processing_search_trgm_idx" ON "email_processing"
      USING gin ("fromAddress" gin_trgm_ops, "subject" gin_trgm_ops);
  END IF;
EXCEPTION WHEN undefined_object THEN
  RAISE NOTICE 'pg_trgm''s operator class is not in the search path (%): the inbox search reads the rows', SQLERRM;
END
$$;
