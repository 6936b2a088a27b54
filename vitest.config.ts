// Unit tests run as they are; integration tests (*.integration.test.ts) each get a fresh migrated
// database on one PostgreSQL server for the run: the embedded server, or DATABASE_URL's when it is
// set (tests/support/database-server.global.ts).
import path from "node:path";
import { defineConfig } from "vitest/config";

const shared = {
  resolve: { alias: { "@": path.resolve(import.meta.dirname) } },
};
// Reliability tests (tests/reliability) have a config of their own: vitest.reliability.config.ts.
const exclude = ["node_modules/**", ".next/**", "tests/e2e/**", "tests/reliability/**", "data/**"];

export default defineConfig({
  ...shared,
  test: {
    pool: "forks",
    maxWorkers: 2,
    projects: [
      {
        ...shared,
        test: {
          name: "unit",
          include: ["**/*.test.{ts,tsx}"],
          exclude: [...exclude, "**/*.integration.test.ts"],
          environment: "node",
        },
      },
      {
        ...shared,
        test: {
          name: "integration",
          include: ["**/*.integration.test.ts"],
          exclude,
          globalSetup: ["tests/support/database-server.global.ts"],
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
