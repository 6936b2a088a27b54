// The schema and the migrations agree (README: Stack notes): replayed, prisma/migrations give what
// prisma/schema.prisma describes, so that `npm run db:new` proposes only what its author changed
// (a table or index the schema lacks would be dropped by the next migration it writes).
import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "..");

describe("prisma/schema.prisma and prisma/migrations", () => {
  it("agree: `npm run db:check` finds no difference between the replayed migrations and the schema", async () => {
    const { stdout } = await promisify(execFile)(
      path.join(ROOT, "node_modules", ".bin", "tsx"),
      ["scripts/db-new.ts", "--check"],
      {
        cwd: ROOT,
      },
    );
    expect(stdout.trim()).toBe("No schema changes");
  }, 120_000);
});
