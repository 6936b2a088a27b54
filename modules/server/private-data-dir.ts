// At start, DATA_DIR and what Hookmail keeps in it are made owner-only (docs/security.md): the
// directory 0700, the generated AUTH_SECRET, the embedded database's password, the development
// outbox and the spool of large incoming messages 0700/0600, tightened when an earlier version or a copy left them wider (PostgreSQL keeps
// its own cluster directory 0700 and refuses to start otherwise). Only these known entries are
// walked, so a DATA_DIR pointed at a shared directory by mistake does not have everything in it
// changed.
import fs from "node:fs";
import path from "node:path";
import { AUTH_SECRET_FILE } from "@/modules/config/auth-secret";
import type { Config } from "@/modules/config/config";
import { POSTGRES_PASSWORD_FILE } from "@/modules/db/embedded-server";
import { SPOOL_DIRECTORY } from "@/modules/inbound/message-spool";
import { OUTBOX_DIRECTORY } from "@/modules/mail/mailer";
import { createPrivateDirectory, tightenPrivateTree } from "@/modules/shared/fs/private-files";

/** Tightens an existing DATA_DIR; answers the paths that could not be changed (another owner). */
export function protectDataDir(config: Pick<Config, "dataDir">): string[] {
  if (!fs.existsSync(config.dataDir)) return [];
  const failures = createPrivateDirectory(config.dataDir) ? [] : [config.dataDir];
  for (const entry of [AUTH_SECRET_FILE, POSTGRES_PASSWORD_FILE, OUTBOX_DIRECTORY, SPOOL_DIRECTORY]) {
    failures.push(...tightenPrivateTree(path.join(config.dataDir, entry)));
  }
  return failures;
}
