// The embedded PostgreSQL server's own log lines in the app's log (docs/scaling.md: The embedded
// server). The server runs detached and writes DATA_DIR/postgres/log/server.log; one Hookmail
// process at a time reads the new lines of that file and writes each through its logger as a JSON
// line with `component: "postgres"`, the server's pid, and a level from the line's severity
// (LOG → info, WARNING → warn, ERROR and FATAL → error, PANIC → fatal). The relaying process is
// the one holding an advisory lock on its keeper connection: when it stops or dies, its connection
// closes and another process sharing the server takes over, from the end of the file as it then is.
import fs from "node:fs";
import type pg from "pg";
import type { Logger } from "@/modules/shared/logging/logger";

/** The advisory lock of the process relaying the server's log (any fixed number of our own). */
export const RELAY_LOCK_KEY = 74_726_571;
const POLL_INTERVAL_MS = 500;
const TAKE_OVER_INTERVAL_MS = 2_000;
/** Read at most this much of the file per poll (a burst of lines is read over a few polls). */
const MAX_READ_BYTES = 1024 * 1024;

type LogLevel = "debug" | "info" | "warn" | "error" | "fatal";

const LEVEL_BY_SEVERITY: Record<string, LogLevel> = {
  DEBUG: "debug",
  DEBUG1: "debug",
  DEBUG2: "debug",
  DEBUG3: "debug",
  DEBUG4: "debug",
  DEBUG5: "debug",
  LOG: "info",
  INFO: "info",
  NOTICE: "info",
  WARNING: "warn",
  ERROR: "error",
  FATAL: "error",
  PANIC: "fatal",
};

/** The parts of a message that follow its first line, at that line's level. */
const FOLLOWING_PARTS = new Set(["DETAIL", "HINT", "CONTEXT", "STATEMENT", "QUERY", "LOCATION"]);

/** PostgreSQL's default log_line_prefix, `%m [%p] `, then the severity. */
const LINE_PATTERN = /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(?:\.\d+)? \S+ \[(\d+)\] ([A-Z0-9]+):\s+(.*)$/;

export type ServerLogLine = { level: LogLevel; msg: string; pid?: number };

/**
 * Turns the server's lines into log entries. A line that is not a message of its own (a
 * continuation, a DETAIL or HINT) takes the level of the message it belongs to.
 */
export function createServerLogParser(): (line: string) => ServerLogLine {
  let lastLevel: LogLevel = "info";
  return (line) => {
    const match = LINE_PATTERN.exec(line);
    if (!match) return { level: lastLevel, msg: line.trim() };
    const [, pid, severity = "", text = ""] = match;
    const own = LEVEL_BY_SEVERITY[severity];
    if (own) lastLevel = own;
    const level = own ?? (FOLLOWING_PARTS.has(severity) ? lastLevel : "info");
    return { level, msg: `${severity}:  ${text}`, pid: Number(pid) };
  };
}

export function getServerLogSize(file: string): number {
  try {
    return fs.statSync(file).size;
  } catch {
    return 0;
  }
}

/** The last lines of the server's log, for an error message. */
export function readServerLogTail(file: string, lines = 5): string {
  try {
    return fs.readFileSync(file, "utf8").trim().split("\n").slice(-lines).join("\n");
  } catch {
    return "";
  }
}

export type ServerLogRelay = { stop: () => Promise<void> };

/**
 * Relays the new lines of `file` through `logger` while this process holds the relay's lock on
 * `keeper`: from `fromOffset` when it takes the lock at once (the process that started the server
 * passes where the file ended before), else from the end of the file when it takes over.
 * `stop` relays what is left and stops; call it after the server stopped to include its last lines.
 */
export function startServerLogRelay({
  file,
  keeper,
  logger,
  fromOffset,
}: {
  file: string;
  keeper: pg.Client;
  logger: Logger;
  fromOffset?: number;
}): ServerLogRelay {
  // A logger that writes nothing (the test suite's server) needs no relay.
  if (!logger.isLevelEnabled("fatal")) return { stop: async () => undefined };
  const serverLogger = logger.child({ component: "postgres" });
  const parse = createServerLogParser();
  let offset: number | undefined;
  let pending = "";
  let timer: NodeJS.Timeout | undefined;
  let isStopped = false;
  let current: Promise<void> = Promise.resolve();

  const readNewLines = async () => {
    if (offset === undefined) return;
    const size = getServerLogSize(file);
    // The file was replaced (a new cluster): start again from its beginning.
    if (size < offset) offset = 0;
    if (size === offset) return;
    const handle = await fs.promises.open(file, "r");
    try {
      const length = Math.min(size - offset, MAX_READ_BYTES);
      const { bytesRead, buffer } = await handle.read(Buffer.alloc(length), 0, length, offset);
      offset += bytesRead;
      const lines = (pending + buffer.subarray(0, bytesRead).toString("utf8")).split("\n");
      pending = lines.pop() ?? "";
      for (const line of lines) writeLine(line);
    } finally {
      await handle.close();
    }
  };

  const writeLine = (line: string) => {
    if (!line.trim()) return;
    const { level, msg, pid } = parse(line);
    serverLogger[level](pid === undefined ? {} : { pid }, msg);
  };

  const tryToTakeOver = async () => {
    const { rows } = await keeper.query<{ locked: boolean }>("SELECT pg_try_advisory_lock($1) AS locked", [RELAY_LOCK_KEY]);
    if (rows[0]?.locked) offset = fromOffset ?? getServerLogSize(file);
    fromOffset = undefined;
  };

  const tick = () => {
    if (isStopped) return;
    current = (offset === undefined ? tryToTakeOver() : readNewLines())
      .catch(() => undefined)
      .finally(() => {
        if (isStopped) return;
        timer = setTimeout(tick, offset === undefined ? TAKE_OVER_INTERVAL_MS : POLL_INTERVAL_MS);
        timer.unref();
      });
  };
  tick();

  return {
    stop: async () => {
      isStopped = true;
      clearTimeout(timer);
      await current;
      if (offset === undefined) return;
      for (let previous = -1; offset !== previous; ) {
        previous = offset;
        await readNewLines().catch(() => undefined);
      }
      if (pending) writeLine(pending);
      pending = "";
    },
  };
}
