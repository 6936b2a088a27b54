// The spool of large messages (docs/architecture.md: Large values): past SPOOL_AFTER_BYTES, the SMTP
// listener writes a message to a file of DATA_DIR/spool as it arrives, instead of holding it in
// memory. The parsing thread reads the file (the checks and the parse, each a slice at a time) and
// the raw message is staged in the database from it, so no thread ever holds the message whole. A
// file lives until its message is answered; it holds nothing that was acknowledged (250 comes only
// after the database commit), so a file left by a process that stopped is only litter, deleted by
// the sweep of the next listener to start. Files are owner-only, in an owner-only directory.
import { randomUUID } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import type { SpooledMessage } from "@/modules/inbound/parsing/message-source";
import { createPrivateDirectory, PRIVATE_FILE_MODE } from "@/modules/shared/fs/private-files";

/** The spool's directory in DATA_DIR. */
export const SPOOL_DIRECTORY = "spool";

/**
 * A spooled file untouched for this long belongs to no message in progress (a session lasts
 * SMTP_MAX_SESSION_MS at most, and a parse ten times the parse time limit), and is swept.
 */
export const SPOOL_STALE_AFTER_MS = 24 * 60 * 60 * 1000;

/** One message being written to the spool. */
export type SpoolWriter = {
  /** Appends bytes; the next write waits for this one. */
  write: (bytes: Uint8Array) => Promise<void>;
  /** Closes the file: the whole message, to read. */
  finish: () => Promise<SpooledMessage>;
  /** Deletes the file (written whole or not); safe to call more than once. */
  discard: () => Promise<void>;
};

export type MessageSpool = {
  /** A new file for one message. */
  open: () => Promise<SpoolWriter>;
  /** Deletes the files untouched for `olderThanMs`; answers how many went. */
  sweep: (olderThanMs?: number, now?: number) => Promise<number>;
};

/** The spool of a process: DATA_DIR/spool. */
export const createDataDirSpool = (dataDir: string) => createMessageSpool(path.join(dataDir, SPOOL_DIRECTORY));

export function createMessageSpool(directory: string): MessageSpool {
  const ensureDirectory = () => createPrivateDirectory(directory);

  const open = async (): Promise<SpoolWriter> => {
    ensureDirectory();
    const spoolPath = path.join(directory, `${randomUUID()}.eml`);
    const file = await fs.open(spoolPath, "wx", PRIVATE_FILE_MODE);
    let byteLength = 0;
    let isClosed = false;
    let isDiscarded = false;
    const close = async () => {
      if (isClosed) return;
      isClosed = true;
      await file.close();
    };
    return {
      write: async (bytes) => {
        for (let offset = 0; offset < bytes.byteLength; ) {
          const { bytesWritten } = await file.write(bytes, offset, bytes.byteLength - offset);
          offset += bytesWritten;
        }
        byteLength += bytes.byteLength;
      },
      finish: async () => {
        await close();
        return { spoolPath, byteLength };
      },
      discard: async () => {
        if (isDiscarded) return;
        isDiscarded = true;
        await close().catch(() => undefined);
        await fs.rm(spoolPath, { force: true });
      },
    };
  };

  const sweep = async (olderThanMs = SPOOL_STALE_AFTER_MS, now = Date.now()) => {
    let names: string[];
    try {
      names = await fs.readdir(directory);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return 0;
      throw error;
    }
    let swept = 0;
    for (const name of names.filter((entry) => entry.endsWith(".eml"))) {
      const file = path.join(directory, name);
      const stats = await fs.lstat(file).catch(() => null);
      if (!stats?.isFile() || now - stats.mtimeMs < olderThanMs) continue;
      await fs.rm(file, { force: true });
      swept += 1;
    }
    return swept;
  };

  return { open, sweep };
}
