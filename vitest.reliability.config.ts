// Reliability tests (`npm run test:reliability`): slow, multi-process tests that `npm test` leaves out.
// Like the integration tests, they share one PostgreSQL server for the run, where each test gets a
// fresh migrated database: the embedded server, or DATABASE_URL's when it is set
// (tests/support/database-server.global.ts). The test of the zero-config default runs the app on
// an embedded server of its own, in its own DATA_DIR, as `npm start` does.
import path from "node:path";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: { alias: { "@": path.resolve(import.meta.dirname) } },
  test: {
    name: "reliability",
    include: ["tests/reliability/**/*.reliability.test.ts"],
    environment: "node",
    pool: "forks",
    maxWorkers: 1,
    globalSetup: ["tests/support/database-server.global.ts"],
    testTimeout: 300_000,
    hookTimeout: 120_000,
  },
});
