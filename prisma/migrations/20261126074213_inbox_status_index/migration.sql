-- The inbox filtered by status, and "redeliver all failed": one address's rows of one status,
-- newest first, without reading its other rows.
CREATE INDEX "email_processing_emailCallbackId_status_createdAt_id_idx" ON "email_processing"("emailCallbackId", "status", "createdAt" DESC, "id" DESC);
