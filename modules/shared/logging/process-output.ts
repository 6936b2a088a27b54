// What the app's process writes besides its own log calls goes through the logger too
// (docs/architecture.md: Logs), so that under `npm start` every line of output is one JSON object
// with a `level`: what libraries and Next.js print with console.*, Node's process warnings, the
// lines of a child process such as `next build`, and the error of a crash.
import type { Readable } from "node:stream";
import { format } from "node:util";
import type { Logger } from "./logger";
import { TERMINAL_CODES } from "./redaction";

type ConsoleMethod = "log" | "info" | "debug" | "trace" | "warn" | "error";

const CONSOLE_LEVELS: Record<ConsoleMethod, "info" | "debug" | "warn" | "error"> = {
  log: "info",
  info: "info",
  debug: "debug",
  trace: "debug",
  warn: "warn",
  error: "error",
};

/**
 * Makes console.* write through `logger` (`component: "console"`), Node's warnings through it
 * (`component: "node"`, instead of Node's own line on stderr), and an uncaught exception a fatal
 * line before the process exits with code 1, as it would have. Answers a function that undoes it.
 */
export function routeProcessOutputThroughLogger({
  logger,
  target = console,
  host = process,
}: {
  logger: Logger;
  target?: Pick<Console, ConsoleMethod>;
  host?: NodeJS.Process;
}): () => void {
  const originals = Object.fromEntries(
    (Object.keys(CONSOLE_LEVELS) as ConsoleMethod[]).map((method) => [method, target[method]]),
  ) as Pick<Console, ConsoleMethod>;
  const consoleLogger = logger.child({ component: "console" });
  for (const [method, level] of Object.entries(CONSOLE_LEVELS) as [ConsoleMethod, (typeof CONSOLE_LEVELS)[ConsoleMethod]][]) {
    target[method] = (...args: unknown[]) => consoleLogger[level](format(...args));
  }

  // Node prints a warning through its own 'warning' listener: replaced by one that logs it.
  const warningListeners = host.listeners("warning");
  host.removeAllListeners("warning");
  const onWarning = (warning: Error) => logger.warn({ component: "node", err: warning }, `${warning.name}: ${warning.message}`);
  host.on("warning", onWarning);

  const onUncaughtException = (error: Error) => {
    logger.fatal({ err: error }, "Uncaught exception, exiting");
    host.exit(1);
  };
  host.on("uncaughtException", onUncaughtException);

  return () => {
    Object.assign(target, originals);
    host.off("warning", onWarning);
    for (const listener of warningListeners) host.on("warning", listener as (warning: Error) => void);
    host.off("uncaughtException", onUncaughtException);
  };
}

/**
 * Hands each non-blank line of a child process's output stream to `log` as it comes, without
 * terminal colour codes; resolves at the end of the stream.
 */
export function logStreamLines(stream: Readable, log: (line: string) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    let pending = "";
    const emit = (line: string) => {
      const text = line.replace(TERMINAL_CODES, "").trimEnd();
      if (text.trim()) log(text);
    };
    stream.setEncoding("utf8");
    stream.on("data", (chunk: string) => {
      const lines = (pending + chunk).split(/\r?\n/);
      pending = lines.pop() ?? "";
      for (const line of lines) emit(line);
    });
    stream.once("error", reject);
    stream.once("end", () => {
      emit(pending);
      resolve();
    });
  });
}
