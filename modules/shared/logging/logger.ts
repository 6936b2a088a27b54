// One logger for every module (docs/architecture.md: Logs): pino, one JSON object per line for a
// log collector, readable lines for a person at a terminal. LOG_LEVEL sets the level (info by
// default); LOG_FORMAT=json|pretty the form, JSON by default in production unless the output is a
// terminal. Lines about a mail carry its `processingId`; secrets and links with tokens are never
// written (redaction.ts takes out, as a second line of defence, the fields that could hold them and
// the tokens of links in any text).
import pino, { type DestinationStream, type Logger, type LoggerOptions } from "pino";
import pretty from "pino-pretty";
import { LOG_FORMATS, LOG_LEVELS, type LogFormat, type LogLevel } from "./logging.constants";
import { REDACTED, REDACTED_PATHS, redactValue } from "./redaction";

export type { Logger };

export function createLogger({
  level = "info",
  format = "json",
  destination,
  hooks,
}: {
  level?: LogLevel;
  format?: LogFormat;
  /** Where the lines go (tests); standard output otherwise. */
  destination?: DestinationStream;
  /** pino's hooks (tests watch the calls with them). */
  hooks?: LoggerOptions["hooks"];
}): Logger {
  const options: LoggerOptions = {
    level,
    hooks: {
      // Link tokens and bearer credentials are taken out of every argument before pino sees it.
      logMethod(args, method, callLevel) {
        const redacted = args.map((arg) => redactValue(arg)) as typeof args;
        if (hooks?.logMethod) hooks.logMethod.call(this, redacted, method, callLevel);
        else method.apply(this, redacted);
      },
    },
    base: undefined,
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: { paths: REDACTED_PATHS, censor: REDACTED },
    serializers: { err: pino.stdSerializers.err },
  };
  if (destination) return pino(options, destination);
  if (format === "pretty") {
    return pino(options, pretty({ sync: true, translateTime: "SYS:HH:MM:ss", ignore: "pid,hostname", messageKey: "msg" }));
  }
  return pino(options);
}

/** The level and form the environment asks for; a value outside the lists falls back to the default (the configuration refuses it at start). */
export function loggerOptionsFromEnvironment(
  environment: Record<string, string | undefined>,
  isTerminal = Boolean(process.stdout.isTTY),
): { level: LogLevel; format: LogFormat } {
  const level = LOG_LEVELS.find((candidate) => candidate === environment.LOG_LEVEL?.trim().toLowerCase()) ?? "info";
  const requested = LOG_FORMATS.find((candidate) => candidate === environment.LOG_FORMAT?.trim().toLowerCase());
  const format = requested ?? (environment.NODE_ENV === "production" && !isTerminal ? "json" : "pretty");
  return { level, format };
}

/** A logger that writes nothing (for callers that have nothing to say to anyone). */
export const silentLogger: Logger = createLogger({ level: "silent" });
