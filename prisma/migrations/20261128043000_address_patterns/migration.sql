-- Addresses on users' own domains may be patterns (`orders-*`) or the domain's catch-all (`*`)
-- (docs/domains.md: Routing). Each address keeps how it matches: its kind (0 exact, 1 pattern,
-- 2 catch-all), its username as a LIKE pattern (`\`, `%`, `_` escaped, each `*` as `_%`: one or more
-- characters) and its count of literal characters, so a recipient is routed by one indexed query.

-- AlterTable
ALTER TABLE "email_callback" ADD COLUMN "matchKind" SMALLINT NOT NULL DEFAULT 0,
ADD COLUMN "likePattern" TEXT NOT NULL DEFAULT '',
ADD COLUMN "literalCount" INTEGER NOT NULL DEFAULT 0;

-- Every existing address is exact.
UPDATE "email_callback"
SET "likePattern" = replace(replace(replace("username", '\', '\\'), '%', '\%'), '_', '\_'),
    "literalCount" = length("username");

-- CreateIndex
CREATE INDEX "email_callback_domain_pattern_idx" ON "email_callback"("domain") WHERE ("deletedAt" IS NULL AND "matchKind" > 0);
