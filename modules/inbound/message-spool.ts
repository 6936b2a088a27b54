// The spool of large messages (docs/architecture.md: Large values): past SPOOL_AFTER_BYTES, the SMTP
// listener and the raw route write a message to a file of DATA_DIR/spool as it arrives, instead of
// holding it in memory. The parsing thread reads the file (the checks and the parse, each a slice at
// a time) and the raw message is staged in the database from it, so no thread ever holds the
// message whole. A file lives until its message is answered; it holds nothing that was
// acknowledged (250 and 200 come only after the database commit), so a file left by a process that
// stopped is only litter, deleted by the sweep of the next process to make its spool. Files are
// owner-only, in an owner-only directory. One spool per process, made by the composition root.
import { randomUUID } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import { joinChunks } from "@/modules/shared/bytes/join-chunks";
import { createPrivateDirectory, PRIVATE_FILE_MODE } from "@/modules/shared/fs/private-files";
import { type Logger, silentLogger } from "@/modules/shared/logging/logger";
import type { SpooledMessage } from "./parsing/message-source";

/** Past this many bytes, a message goes to the spool as it arrives, not into memory. */
export const SPOOL_AFTER_BYTES = 1024 * 1024;

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
  /**
   * A new file for one message; null where none can be made (a read-only DATA_DIR, say), which the
   * spool logs: the caller then holds the message in memory, as it would a small one.
   */
  open: () => Promise<SpoolWriter | null>;
  /** Deletes the files untouched for `olderThanMs`; answers how many went. */
  sweep: (olderThanMs?: number, now?: number) => Promise<number>;
};

/** The spool of a process: DATA_DIR/spool. */
export const createDataDirSpool = (dataDir: string, logger?: Logger) =>
  createMessageSpool(path.join(dataDir, SPOOL_DIRECTORY), logger);

export function createMessageSpool(directory: string, logger: Logger = silentLogger): MessageSpool {
  const openFile = async () => {
    createPrivateDirectory(directory);
    const spoolPath = path.join(directory, `${randomUUID()}.eml`);
    return { spoolPath, file: await fs.open(spoolPath, "wx", PRIVATE_FILE_MODE) };
  };

  const open = async (): Promise<SpoolWriter | null> => {
    const opened = await openFile().catch((error: unknown) => {
      logger.warn({ err: error, directory }, "Cannot write to the spool (DATA_DIR/spool): a large message is held in memory");
      return null;
    });
    if (!opened) return null;
    const { spoolPath, file } = opened;
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

/** A message read in: its bytes or its spooled file, and how to let go of it once it is answered. */
export type CollectedMessage = { raw: Buffer | SpooledMessage; release: () => Promise<void> };

/**
 * Collects a message as it arrives, for the SMTP listener and the raw route: up to
 * SPOOL_AFTER_BYTES as its chunks in memory, joined at the end; past it, in a file of the spool
 * (the chunks so far first), each `add` waiting for its write, so the sender goes no faster than
 * the disk. Where the spool makes no file, the chunks stay in memory. `discard` lets go of
 * whatever was kept; it is safe to call more than once.
 */
export function collectMessage(spool: MessageSpool) {
  const chunks: Uint8Array[] = [];
  let length = 0;
  let writer: SpoolWriter | null | undefined;
  return {
    add: async (chunk: Uint8Array) => {
      length += chunk.byteLength;
      if (writer === undefined && length > SPOOL_AFTER_BYTES) {
        writer = await spool.open();
        if (writer) for (const kept of chunks.splice(0)) await writer.write(kept);
      }
      if (writer) await writer.write(chunk);
      else chunks.push(chunk);
    },
    finish: async (): Promise<CollectedMessage> => {
      if (!writer) return { raw: await joinChunks(chunks, length), release: async () => undefined };
      return { raw: await writer.finish(), release: writer.discard };
    },
    discard: async () => {
      chunks.length = 0;
      await writer?.discard().catch(() => undefined);
    },
  };
}
