-- Delivery alerts (docs/webhooks.md: Delivery alerts): the owner's choice, and each address's alert
-- state, so that the decision to send an alert or a recovery mail is one conditional UPDATE.

-- AlterTable
ALTER TABLE "user" ADD COLUMN     "deliveryAlerts" BOOLEAN NOT NULL DEFAULT true;

-- AlterTable
ALTER TABLE "email_callback" ADD COLUMN     "lastAlertAt" TIMESTAMP(3),
ADD COLUMN     "isAlerting" BOOLEAN NOT NULL DEFAULT false;
