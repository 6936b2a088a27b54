-- CreateTable
CREATE TABLE "action_rate_limit" (
    "key" TEXT NOT NULL,
    "windowStart" TIMESTAMP(3) NOT NULL,
    "count" INTEGER NOT NULL,

    CONSTRAINT "action_rate_limit_pkey" PRIMARY KEY ("key")
);

-- CreateTable
CREATE TABLE "mailgun_token" (
    "token" TEXT NOT NULL,
    "expiresAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "mailgun_token_pkey" PRIMARY KEY ("token")
);

-- CreateIndex
CREATE INDEX "mailgun_token_expiresAt_idx" ON "mailgun_token"("expiresAt");
