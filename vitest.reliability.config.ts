// Reliability tests (`npm run test:reliability`): slow, multi-process tests that `npm test` leaves out.
// They need a PostgreSQL server in DATABASE_URL and skip, saying so, without one.
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
    testTimeout: 300_000,
    hookTimeout: 120_000,
  },
});
