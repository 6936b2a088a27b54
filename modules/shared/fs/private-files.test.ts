// Owner-only files at rest (docs/security.md): directories 0700, files 0600, whatever the umask,
// and what already exists with wider modes is tightened.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  createPrivateDirectory,
  tightenPrivateFile,
  tightenPrivateTree,
  writePrivateFile,
  writePrivateFileSync,
} from "./private-files";

const modeOf = (file: string) => fs.statSync(file).mode & 0o777;

let root: string;
let previousUmask: number;
beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), "hookmail-private-files-"));
  // A permissive umask, so only the modes the code sets explicitly count.
  previousUmask = process.umask(0);
});
afterEach(() => {
  process.umask(previousUmask);
  fs.rmSync(root, { recursive: true, force: true });
});

describe("owner-only directories and files", () => {
  it("creates a directory and its missing parents 0700", () => {
    const directory = path.join(root, "data", "outbox");
    expect(createPrivateDirectory(directory)).toBe(true);
    expect(modeOf(path.join(root, "data"))).toBe(0o700);
    expect(modeOf(directory)).toBe(0o700);
  });

  it("tightens an existing 0755 directory to 0700", () => {
    const directory = path.join(root, "data");
    fs.mkdirSync(directory, { mode: 0o755 });
    expect(modeOf(directory)).toBe(0o755);
    createPrivateDirectory(directory);
    expect(modeOf(directory)).toBe(0o700);
  });

  it("writes new files 0600, and refuses to overwrite one", async () => {
    writePrivateFileSync(path.join(root, "secret"), "s");
    await writePrivateFile(path.join(root, "mail.json"), "{}");
    expect(modeOf(path.join(root, "secret"))).toBe(0o600);
    expect(modeOf(path.join(root, "mail.json"))).toBe(0o600);
    expect(() => writePrivateFileSync(path.join(root, "secret"), "other")).toThrow(/EEXIST/);
  });

  it("tightens an existing 0644 file to 0600, and says false for a missing one", () => {
    const file = path.join(root, "secret");
    fs.writeFileSync(file, "s", { mode: 0o644 });
    expect(tightenPrivateFile(file)).toBe(true);
    expect(modeOf(file)).toBe(0o600);
    expect(tightenPrivateFile(path.join(root, "missing"))).toBe(false);
  });

  it("tightens a whole tree (directories 0700, files 0600) without following symbolic links", () => {
    const tree = path.join(root, "pglite.imported-2026-11-24T00-00-00-000Z");
    fs.mkdirSync(path.join(tree, "base", "1"), { recursive: true, mode: 0o755 });
    fs.writeFileSync(path.join(tree, "PG_VERSION"), "17", { mode: 0o644 });
    fs.writeFileSync(path.join(tree, "base", "1", "1259"), "x", { mode: 0o666 });
    const outside = path.join(root, "outside.txt");
    fs.writeFileSync(outside, "not ours", { mode: 0o644 });
    fs.symlinkSync(outside, path.join(tree, "link"));

    expect(tightenPrivateTree(tree)).toEqual([]);

    for (const directory of [tree, path.join(tree, "base"), path.join(tree, "base", "1")]) expect(modeOf(directory)).toBe(0o700);
    for (const file of [path.join(tree, "PG_VERSION"), path.join(tree, "base", "1", "1259")]) expect(modeOf(file)).toBe(0o600);
    expect(modeOf(outside)).toBe(0o644);
    expect(tightenPrivateTree(path.join(root, "missing"))).toEqual([]);
  });
});
