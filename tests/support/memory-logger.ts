// A real pino logger (the product's own settings) whose output is kept in memory, for tests that
// check what was logged: the JSON entries as written, and each call's message and error as passed.
import { createLogger, type Logger } from "@/modules/shared/logging/logger";

export { silentLogger } from "@/modules/shared/logging/logger";

export type LogEntry = { level: number; msg: string } & Record<string, unknown>;

const WARN = 40;

export type MemoryLogger = {
  logger: Logger;
  /** Every entry, parsed from the JSON line pino wrote (after redaction). */
  entries: LogEntry[];
  /** The message of every call, in order. */
  lines: string[];
  /** The messages below warn level. */
  infos: string[];
  /** The warnings and errors, each with the error object it was given. */
  errors: { line: string; cause: unknown }[];
};

export function createMemoryLogger(): MemoryLogger {
  const memory: Omit<MemoryLogger, "logger"> = { entries: [], lines: [], infos: [], errors: [] };
  const logger = createLogger({
    level: "trace",
    destination: { write: (line: string) => void memory.entries.push(JSON.parse(line) as LogEntry) },
    hooks: {
      logMethod(args, method, level) {
        const [first, second] = args as unknown[];
        const fields = typeof first === "object" && first !== null ? (first as Record<string, unknown>) : {};
        const line = String(typeof first === "string" ? first : (second ?? ""));
        memory.lines.push(line);
        if (level < WARN) memory.infos.push(line);
        else memory.errors.push({ line, cause: first instanceof Error ? first : fields.err });
        method.apply(this, args);
      },
    },
  });
  return { logger, ...memory };
}
