// DATA_DIR at rest (docs/security.md): start-up tightens an existing DATA_DIR and what Hookmail
// keeps in it (0700 directories, 0600 files). The embedded server's own cluster directory is
// checked in modules/db/embedded-server.integration.test.ts.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { modeOf, setUpScratchDirectory } from "@/tests/support/file-modes";
import { protectDataDir } from "./private-data-dir";

const scratch = setUpScratchDirectory({ prefix: "hookmail-data-dir-", umask: 0o022 });

describe("DATA_DIR owner-only", () => {
  it("tightens at start an existing 0755 DATA_DIR, 0644 secrets, and the outbox tree, leaving other entries alone", () => {
    const dataDir = path.join(scratch.root, "data");
    fs.mkdirSync(path.join(dataDir, "outbox"), { recursive: true, mode: 0o755 });
    fs.writeFileSync(path.join(dataDir, "auth-secret"), "s\n", { mode: 0o644 });
    fs.writeFileSync(path.join(dataDir, "postgres-password"), "p\n", { mode: 0o644 });
    fs.writeFileSync(path.join(dataDir, "outbox", "mail.json"), "{}", { mode: 0o644 });
    fs.writeFileSync(path.join(dataDir, "notes.txt"), "the operator's own file", { mode: 0o644 });

    expect(protectDataDir({ dataDir })).toEqual([]);

    for (const directory of [dataDir, path.join(dataDir, "outbox")]) {
      expect({ directory, mode: modeOf(directory) }).toEqual({ directory, mode: 0o700 });
    }
    for (const file of [
      path.join(dataDir, "auth-secret"),
      path.join(dataDir, "postgres-password"),
      path.join(dataDir, "outbox", "mail.json"),
    ]) {
      expect({ file, mode: modeOf(file) }).toEqual({ file, mode: 0o600 });
    }
    expect(modeOf(path.join(dataDir, "notes.txt"))).toBe(0o644);
  });

  it("creates nothing at start when DATA_DIR does not exist", () => {
    const dataDir = path.join(scratch.root, "absent");
    expect(protectDataDir({ dataDir })).toEqual([]);
    expect(fs.existsSync(dataDir)).toBe(false);
  });
});
