-- Large values staged before the transaction that writes their row (docs/architecture.md: Large
-- values): a large webhook body arrives from the parsing thread in slices while it is made, and a
-- large raw message is sent in slices, so that no statement carries more than one slice. The row's
-- transaction joins an upload's slices into its column (ordered by part, then seq) and deletes them.
-- UNLOGGED: never written to the WAL, and emptied by PostgreSQL after a crash, when nothing staged
-- matters any more (the message was not yet answered as accepted). Orphans of a process that stopped
-- between staging and writing are deleted by age (modules/retention).
CREATE UNLOGGED TABLE "value_upload_slice" (
    "upload_id" TEXT NOT NULL,
    "part" INTEGER NOT NULL,
    "seq" INTEGER NOT NULL,
    "bytes" BYTEA NOT NULL,
    "created_at" TIMESTAMPTZ NOT NULL DEFAULT now(),
    CONSTRAINT "value_upload_slice_pkey" PRIMARY KEY ("upload_id", "part", "seq")
);

-- Slices are joined once and dropped: out of line, not compressed (mostly base64 and MIME already).
ALTER TABLE "value_upload_slice" ALTER COLUMN "bytes" SET STORAGE EXTERNAL;

CREATE INDEX "value_upload_slice_created_at_idx" ON "value_upload_slice" ("created_at");
