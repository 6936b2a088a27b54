-- AlterTable
ALTER TABLE "email_callback" ADD COLUMN     "attachmentDelivery" TEXT NOT NULL DEFAULT 'inline',
ADD COLUMN     "authenticationPolicy" TEXT NOT NULL DEFAULT 'none',
ADD COLUMN     "spamThreshold" DOUBLE PRECISION;
