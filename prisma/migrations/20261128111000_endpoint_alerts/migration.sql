-- Delivery alerts per endpoint (docs/webhooks.md: Delivery alerts). An alert names the endpoint whose
-- delivery gave up, and its recovery mail comes when a delivery to that endpoint succeeds again, not
-- when another endpoint of the address does: the "alerting" state moves from the address to the
-- endpoint. The address keeps `lastAlertAt` (at most one alert per address an hour).

-- AlterTable
ALTER TABLE "endpoint" ADD COLUMN "isAlerting" BOOLEAN NOT NULL DEFAULT false;

-- An alert under way was about the address's webhook: its first live endpoint.
UPDATE "endpoint" e SET "isAlerting" = true
FROM "email_callback" c
WHERE c."isAlerting" AND e."id" = (
  SELECT f."id" FROM "endpoint" f WHERE f."emailCallbackId" = c."id" AND f."deletedAt" IS NULL
  ORDER BY f."createdAt", f."id" LIMIT 1);

-- AlterTable
ALTER TABLE "email_callback" DROP COLUMN "isAlerting";
