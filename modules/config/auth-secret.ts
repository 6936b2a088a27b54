// AUTH_SECRET, or a secret generated on first start and kept in DATA_DIR so sessions survive
// restarts of a single-process install (docs/security.md). DATA_DIR is owner-only (0700) and the
// secret file 0600; a file or directory found with wider modes is tightened before it is read.
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { createPrivateDirectory, tightenPrivateFile, writePrivateFileSync } from "@/modules/shared/fs/private-files";
import type { Config } from "./config";

export const AUTH_SECRET_FILE = "auth-secret";

export function getAuthSecret(config: Pick<Config, "auth" | "dataDir">): { secret: string; notice?: string } {
  if (config.auth.secret) return { secret: config.auth.secret };
  const file = path.join(config.dataDir, AUTH_SECRET_FILE);
  createPrivateDirectory(config.dataDir);
  if (fs.existsSync(file)) {
    tightenPrivateFile(file);
    return { secret: fs.readFileSync(file, "utf8").trim() };
  }
  const secret = randomBytes(32).toString("base64url");
  try {
    writePrivateFileSync(file, `${secret}\n`);
  } catch (error) {
    // Another process wrote it first: use theirs.
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return { secret: fs.readFileSync(file, "utf8").trim() };
    throw error;
  }
  return {
    secret,
    notice: `AUTH_SECRET is not set: generated one and kept it in ${file}. Set AUTH_SECRET when several processes share a database.`,
  };
}
