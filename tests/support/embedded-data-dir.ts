// For tests of the embedded PostgreSQL server, each with DATA_DIRs of its own: clean-ups run after
// each test, last registered first, and fresh DATA_DIRs among them.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach } from "vitest";
import { POSTGRES_DIRECTORY, readServerLock } from "@/modules/db/embedded-server";

export type CleanUps = (() => Promise<void> | void)[];

/** The clean-ups of the current test: what is pushed there runs after it, last first. */
export function setUpCleanUpsAfterEach(): CleanUps {
  const cleanUps: CleanUps = [];
  afterEach(async () => {
    for (const cleanUp of cleanUps.splice(0).reverse()) await cleanUp();
  });
  return cleanUps;
}

/** A fresh DATA_DIR, removed after the test (its server stopped first if a test left it running). */
export function createDataDir(cleanUps: CleanUps, prefix = "hookmail-embedded-"): string {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  cleanUps.push(() => {
    const lock = readServerLock(path.join(dataDir, POSTGRES_DIRECTORY));
    if (lock?.isAlive) process.kill(lock.pid, "SIGQUIT");
    fs.rmSync(dataDir, { recursive: true, force: true });
  });
  return dataDir;
}
