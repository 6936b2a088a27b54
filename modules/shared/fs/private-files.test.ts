// Owner-only files at rest (docs/security.md): directories 0700, files 0600, whatever the umask,
// and what already exists with wider modes is tightened.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { modeOf, setUpScratchDirectory } from "@/tests/support/file-modes";
import {
  createPrivateDirectory,
  tightenPrivateFile,
  tightenPrivateTree,
  writePrivateFile,
  writePrivateFileSync,
} from "./private-files";

// A permissive umask, so only the modes the code sets explicitly count.
const scratch = setUpScratchDirectory({ prefix: "hookmail-private-files-", umask: 0 });

describe("owner-only directories and files", () => {
  it("creates a directory and its missing parents 0700", () => {
    const directory = path.join(scratch.root, "data", "outbox");
    expect(createPrivateDirectory(directory)).toBe(true);
    expect(modeOf(path.join(scratch.root, "data"))).toBe(0o700);
    expect(modeOf(directory)).toBe(0o700);
  });

  it("tightens an existing 0755 directory to 0700", () => {
    const directory = path.join(scratch.root, "data");
    fs.mkdirSync(directory, { mode: 0o755 });
    expect(modeOf(directory)).toBe(0o755);
    createPrivateDirectory(directory);
    expect(modeOf(directory)).toBe(0o700);
  });

  it("writes new files 0600, and refuses to overwrite one", async () => {
    writePrivateFileSync(path.join(scratch.root, "secret"), "s");
    await writePrivateFile(path.join(scratch.root, "mail.json"), "{}");
    expect(modeOf(path.join(scratch.root, "secret"))).toBe(0o600);
    expect(modeOf(path.join(scratch.root, "mail.json"))).toBe(0o600);
    expect(() => writePrivateFileSync(path.join(scratch.root, "secret"), "other")).toThrow(/EEXIST/);
  });

  it("tightens an existing 0644 file to 0600, and says false for a missing one", () => {
    const file = path.join(scratch.root, "secret");
    fs.writeFileSync(file, "s", { mode: 0o644 });
    expect(tightenPrivateFile(file)).toBe(true);
    expect(modeOf(file)).toBe(0o600);
    expect(tightenPrivateFile(path.join(scratch.root, "missing"))).toBe(false);
  });

  it("tightens a whole tree (directories 0700, files 0600) without following symbolic links", () => {
    const tree = path.join(scratch.root, "kept-copy");
    fs.mkdirSync(path.join(tree, "base", "1"), { recursive: true, mode: 0o755 });
    fs.writeFileSync(path.join(tree, "PG_VERSION"), "17", { mode: 0o644 });
    fs.writeFileSync(path.join(tree, "base", "1", "1259"), "x", { mode: 0o666 });
    const outside = path.join(scratch.root, "outside.txt");
    fs.writeFileSync(outside, "not ours", { mode: 0o644 });
    fs.symlinkSync(outside, path.join(tree, "link"));

    expect(tightenPrivateTree(tree)).toEqual([]);

    for (const directory of [tree, path.join(tree, "base"), path.join(tree, "base", "1")]) expect(modeOf(directory)).toBe(0o700);
    for (const file of [path.join(tree, "PG_VERSION"), path.join(tree, "base", "1", "1259")]) expect(modeOf(file)).toBe(0o600);
    expect(modeOf(outside)).toBe(0o644);
    expect(tightenPrivateTree(path.join(scratch.root, "missing"))).toEqual([]);
  });
});
