// For tests of owner-only files (docs/security.md): a scratch directory of each test's own, made
// under a known umask, and the permission bits of a path.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach } from "vitest";

export const modeOf = (file: string) => fs.statSync(file).mode & 0o777;

/**
 * Before each test, a fresh directory named `${prefix}…` in the system's temporary directory as
 * `root`, and the process's umask set to `umask`; after it, the umask restored and the directory removed.
 */
export function setUpScratchDirectory({ prefix, umask }: { prefix: string; umask: number }): { root: string } {
  const scratch = { root: "" };
  let previousUmask: number;
  beforeEach(() => {
    scratch.root = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
    previousUmask = process.umask(umask);
  });
  afterEach(() => {
    process.umask(previousUmask);
    fs.rmSync(scratch.root, { recursive: true, force: true });
  });
  return scratch;
}
