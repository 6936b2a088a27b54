// DATA_DIR at rest (docs/security.md): the embedded database is created owner-only, and start-up
// tightens an existing DATA_DIR and what Hookmail keeps in it (0700 directories, 0600 files).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openDatabase } from "@/modules/db/db";
import { protectDataDir } from "./private-data-dir";

const modeOf = (file: string) => fs.statSync(file).mode & 0o777;

function listTree(root: string): { directories: string[]; files: string[] } {
  const directories: string[] = [];
  const files: string[] = [];
  const visit = (entry: string) => {
    const stats = fs.lstatSync(entry);
    if (stats.isDirectory()) {
      directories.push(entry);
      for (const name of fs.readdirSync(entry)) visit(path.join(entry, name));
    } else if (stats.isFile()) {
      files.push(entry);
    }
  };
  visit(root);
  return { directories, files };
}

let root: string;
let previousUmask: number;
beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), "hookmail-data-dir-"));
  previousUmask = process.umask(0o022);
});
afterEach(() => {
  process.umask(previousUmask);
  fs.rmSync(root, { recursive: true, force: true });
});

describe("DATA_DIR owner-only", () => {
  it("creates the embedded PGlite database with every directory 0700 and every file 0600", async () => {
    const dataDir = path.join(root, "data");
    const database = await openDatabase({ kind: "pglite", dataDir: path.join(dataDir, "pglite") });
    await database.close();

    expect(modeOf(dataDir)).toBe(0o700);
    const { directories, files } = listTree(path.join(dataDir, "pglite"));
    expect(files.length).toBeGreaterThan(10);
    expect(directories.filter((directory) => modeOf(directory) !== 0o700)).toEqual([]);
    expect(files.filter((file) => modeOf(file) !== 0o600)).toEqual([]);
  }, 60_000);

  it("tightens at start an existing 0755 DATA_DIR, a 0644 secret, and the database and outbox trees, leaving other entries alone", () => {
    const dataDir = path.join(root, "data");
    fs.mkdirSync(path.join(dataDir, "pglite", "base"), { recursive: true, mode: 0o755 });
    fs.mkdirSync(path.join(dataDir, "outbox"), { mode: 0o755 });
    fs.writeFileSync(path.join(dataDir, "auth-secret"), "s\n", { mode: 0o644 });
    fs.writeFileSync(path.join(dataDir, "pglite", "base", "1259"), "x", { mode: 0o644 });
    fs.writeFileSync(path.join(dataDir, "outbox", "mail.json"), "{}", { mode: 0o644 });
    fs.writeFileSync(path.join(dataDir, "notes.txt"), "the operator's own file", { mode: 0o644 });

    expect(protectDataDir({ dataDir })).toEqual([]);

    for (const directory of [dataDir, path.join(dataDir, "pglite"), path.join(dataDir, "pglite", "base"), path.join(dataDir, "outbox")]) {
      expect({ directory, mode: modeOf(directory) }).toEqual({ directory, mode: 0o700 });
    }
    for (const file of [path.join(dataDir, "auth-secret"), path.join(dataDir, "pglite", "base", "1259"), path.join(dataDir, "outbox", "mail.json")]) {
      expect({ file, mode: modeOf(file) }).toEqual({ file, mode: 0o600 });
    }
    expect(modeOf(path.join(dataDir, "notes.txt"))).toBe(0o644);
  });

  it("creates nothing at start when DATA_DIR does not exist", () => {
    const dataDir = path.join(root, "absent");
    expect(protectDataDir({ dataDir })).toEqual([]);
    expect(fs.existsSync(dataDir)).toBe(false);
  });
});
