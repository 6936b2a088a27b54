// Prisma CLI configuration. Only `prisma generate` is used from the CLI; migrations are applied by
// modules/db/migrations.ts and authored by scripts/db-new.ts (see README: Stack notes).
import { defineConfig } from "prisma/config";

export default defineConfig({
  schema: "prisma/schema.prisma",
  migrations: { path: "prisma/migrations" },
});
