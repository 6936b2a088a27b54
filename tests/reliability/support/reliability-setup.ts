// What every reliability test starts with: clean-ups run after all its tests, last registered
// first, each failure logged without stopping the others.
import { afterAll } from "vitest";

export type CleanUp = () => Promise<void> | void;

export function setUpReliabilityTest(): { cleanUps: CleanUp[] } {
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
  return { cleanUps };
}
