// One logger for every module (docs/architecture.md: Logs): pino, one JSON object per line for a
// log collector, readable lines for a person at a terminal. LOG_LEVEL sets the level (info by
// default); LOG_FORMAT=json|pretty the form, JSON by default in production unless the output is a
// terminal. Lines about a mail carry its `processingId`; secrets and links with tokens are never
// written (the fields that could hold them are redacted as a second line of defence).
import pino, { type DestinationStream, type Logger, type LoggerOptions } from "pino";
import pretty from "pino-pretty";
import { processSingleton } from "../process-singleton";
import { LOG_FORMATS, LOG_LEVELS, type LogFormat, type LogLevel } from "./logging.constants";

export type { Logger };

/** Fields that may hold a secret, wherever they appear one level down. */
const REDACTED_PATHS = [
  "password",
  "secret",
  "token",
  "authorization",
  "cookie",
  "apiKey",
  "*.password",
  "*.secret",
  "*.token",
  "*.authorization",
  "*.cookie",
  "*.apiKey",
  "headers.authorization",
  "headers.cookie",
];

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
    ...(hooks ? { hooks } : {}),
    base: undefined,
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: { paths: REDACTED_PATHS, censor: "[redacted]" },
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

const processLogger = processSingleton<Logger>("logger");

/** The process's logger, made from the environment on first use. */
export function getLogger(): Logger {
  return processLogger.getOrCreate(() => createLogger(loggerOptionsFromEnvironment(process.env)));
}

/** A logger that writes nothing (for callers that have nothing to say to anyone). */
export const silentLogger: Logger = createLogger({ level: "silent" });
