// What every reliability test starts with: the PostgreSQL server of DATABASE_URL (without one the
// test skips, saying so), and clean-ups run after all its tests, last registered first, each
// failure logged without stopping the others.
import { afterAll } from "vitest";

export type CleanUp = () => Promise<void> | void;

export function setUpReliabilityTest(name: string): { serverUrl: string | undefined; cleanUps: CleanUp[] } {
  const serverUrl = process.env.DATABASE_URL;
  if (!serverUrl) {
    console.warn(`${name} reliability test skipped: set DATABASE_URL to a PostgreSQL server (e.g. postgres://postgres@127.0.0.1:5432/postgres).`);
  }
  const cleanUps: CleanUp[] = [];
  afterAll(async () => {
    for (const cleanUp of cleanUps.reverse()) {
      try {
        await cleanUp();
      } catch (error) {
        console.error("clean-up failed:", error);
      }
    }
  }, 60_000);
  return { serverUrl, cleanUps };
}
