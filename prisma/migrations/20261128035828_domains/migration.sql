-- Users' own domains (docs/domains.md): each account's claim of a name, with the token its TXT record
-- must carry and the state of its last DNS check. An account claims a name once; a name is held
-- (verified, or failing during its grace period) by one account at a time, while other accounts'
-- pending claims of it stay.

-- CreateTable
CREATE TABLE "domain" (
    "id" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "token" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "verifiedAt" TIMESTAMP(3),
    "lastCheckedAt" TIMESTAMP(3),
    "lastCheckError" TEXT,
    "failingSince" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "domain_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "domain_userId_createdAt_idx" ON "domain"("userId", "createdAt");

-- CreateIndex
CREATE UNIQUE INDEX "domain_userId_name_key" ON "domain"("userId", "name");

-- CreateIndex
CREATE UNIQUE INDEX "domain_held_name_key" ON "domain"("name") WHERE ("status" <> 'pending');

-- AddForeignKey
ALTER TABLE "domain" ADD CONSTRAINT "domain_userId_fkey" FOREIGN KEY ("userId") REFERENCES "user"("id") ON DELETE CASCADE ON UPDATE CASCADE;
