// A DATA_DIR holding an earlier version's PGlite database is never silently ignored
// (docs/scaling.md: Upgrading from a version that ran PGlite): start-up stops with one line that
// says what it found and the command that carries it over.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { describeEarlierPgliteDatabase } from "./earlier-pglite";

let dataDir: string;
beforeEach(() => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "hookmail-earlier-"));
});
afterEach(() => fs.rmSync(dataDir, { recursive: true, force: true }));

describe("an earlier version's PGlite database in DATA_DIR", () => {
  it("is described in one line naming the directory and the import command", () => {
    fs.mkdirSync(path.join(dataDir, "pglite"));
    fs.writeFileSync(path.join(dataDir, "pglite", "PG_VERSION"), "17\n");

    const message = describeEarlierPgliteDatabase(dataDir);

    expect(message).toContain(path.join(dataDir, "pglite"));
    expect(message).toContain("npm run db:import-pglite");
    expect(message).not.toContain("\n");
  });

  it("is not reported when there is none, or once it was imported and moved aside", () => {
    expect(describeEarlierPgliteDatabase(dataDir)).toBeNull();
    fs.mkdirSync(path.join(dataDir, "pglite.imported-2026-11-24T00-00-00-000Z"));
    fs.writeFileSync(path.join(dataDir, "pglite.imported-2026-11-24T00-00-00-000Z", "PG_VERSION"), "17\n");
    expect(describeEarlierPgliteDatabase(dataDir)).toBeNull();
  });

  it("is not mistaken for an empty pglite directory without a database in it", () => {
    fs.mkdirSync(path.join(dataDir, "pglite"));
    expect(describeEarlierPgliteDatabase(dataDir)).toBeNull();
  });
});
