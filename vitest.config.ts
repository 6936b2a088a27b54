// Unit tests run once; integration tests (*.integration.test.ts) run on a fresh embedded PGlite
// database each, and again on PostgreSQL when DATABASE_URL is set (each file on a database of its own).
import path from "node:path";
import { defineConfig } from "vitest/config";

const shared = {
  resolve: { alias: { "@": path.resolve(import.meta.dirname) } },
};
// Reliability tests (tests/reliability) have a config of their own: vitest.reliability.config.ts.
const exclude = ["node_modules/**", ".next/**", "tests/e2e/**", "tests/reliability/**", "data/**"];
const hasPostgres = Boolean(process.env.DATABASE_URL);

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
          name: "integration:pglite",
          include: ["**/*.integration.test.ts"],
          exclude,
          env: { HOOKMAIL_TEST_DATABASE: "pglite" },
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
      ...(hasPostgres
        ? [
            {
              ...shared,
              test: {
                name: "integration:postgres",
                include: ["**/*.integration.test.ts"],
                exclude,
                env: { HOOKMAIL_TEST_DATABASE: "postgres" },
                testTimeout: 60_000,
                hookTimeout: 120_000,
              },
            },
          ]
        : []),
    ],
  },
});
