// AUTH_SECRET, or a secret generated on first start and kept in DATA_DIR so sessions survive
// restarts of a single-process install (DESIGN.md §2).
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { Config } from "./config";

const AUTH_SECRET_FILE = "auth-secret";

export function getAuthSecret(config: Pick<Config, "auth" | "dataDir">): { secret: string; notice?: string } {
  if (config.auth.secret) return { secret: config.auth.secret };
  const file = path.join(config.dataDir, AUTH_SECRET_FILE);
  if (fs.existsSync(file)) return { secret: fs.readFileSync(file, "utf8").trim() };
  fs.mkdirSync(config.dataDir, { recursive: true });
  const secret = randomBytes(32).toString("base64url");
  try {
    fs.writeFileSync(file, `${secret}\n`, { mode: 0o600, flag: "wx" });
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
