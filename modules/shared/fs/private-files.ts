// Owner-only files at rest (docs/security.md): DATA_DIR and everything Hookmail keeps in it (the
// generated AUTH_SECRET, the embedded database, the development outbox) are directories 0700 and
// files 0600, and a directory or file that already exists with wider modes is tightened.
import fs from "node:fs";
import { writeFile } from "node:fs/promises";
import path from "node:path";

export const PRIVATE_DIRECTORY_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

/**
 * Creates a directory (and missing parents) owner-only, or tightens an existing one to 0700.
 * Throws when it cannot be created; answers false when an existing one could not be tightened
 * (another owner), which start-up reports rather than refusing to run.
 */
export function createPrivateDirectory(directory: string): boolean {
  fs.mkdirSync(directory, { recursive: true, mode: PRIVATE_DIRECTORY_MODE });
  try {
    if (isServerTraversable(fs.statSync(directory))) return true;
    fs.chmodSync(directory, PRIVATE_DIRECTORY_MODE);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EPERM") return false;
    throw error;
  }
}

/**
 * The one wider mode kept: 0710 with another group, which a root process gives DATA_DIR so the
 * embedded PostgreSQL's own user can pass through to its cluster directory (and list or read
 * nothing else in it).
 */
function isServerTraversable(stats: fs.Stats): boolean {
  return (stats.mode & 0o777) === 0o710 && typeof process.getgid === "function" && stats.gid !== process.getgid();
}

/** Writes a new file owner-only; fails with EEXIST when it is already there (`wx`). */
export function writePrivateFileSync(file: string, content: string): void {
  fs.writeFileSync(file, content, { mode: PRIVATE_FILE_MODE, flag: "wx" });
}

/** As writePrivateFileSync, asynchronously. */
export async function writePrivateFile(file: string, content: string): Promise<void> {
  await writeFile(file, content, { mode: PRIVATE_FILE_MODE, flag: "wx" });
}

/** Tightens an existing file to 0600; false when it could not (missing, or another owner). */
export function tightenPrivateFile(file: string): boolean {
  try {
    fs.chmodSync(file, PRIVATE_FILE_MODE);
    return true;
  } catch {
    return false;
  }
}

/**
 * Tightens a directory Hookmail owns and everything in it: directories 0700, files 0600. Symbolic
 * links are neither followed nor changed. Returns the paths it could not change (another owner),
 * so the caller can say so instead of stopping.
 */
export function tightenPrivateTree(root: string): string[] {
  const failures: string[] = [];
  const visit = (entry: string) => {
    let stats: fs.Stats;
    try {
      stats = fs.lstatSync(entry);
    } catch {
      return;
    }
    if (stats.isSymbolicLink()) return;
    const mode = stats.isDirectory() ? PRIVATE_DIRECTORY_MODE : PRIVATE_FILE_MODE;
    if ((stats.mode & 0o777) !== mode) {
      try {
        fs.chmodSync(entry, mode);
      } catch {
        failures.push(entry);
      }
    }
    if (stats.isDirectory()) {
      let names: string[] = [];
      try {
        names = fs.readdirSync(entry);
      } catch {
        failures.push(entry);
      }
      for (const name of names) visit(path.join(entry, name));
    }
  };
  visit(root);
  return failures;
}
