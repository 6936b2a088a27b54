// The database of this process: PostgreSQL through @prisma/adapter-pg, on the server of
// DATABASE_URL or, when it is unset, on the embedded server in DATA_DIR (embedded-server.ts). The
// process's one is opened by the composition root (docs/architecture.md: The parts).

import path from "node:path";
import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import type { Config } from "@/modules/config/config";
import { type Logger, silentLogger } from "@/modules/shared/logging/logger";
import { startEmbeddedServer } from "./embedded-server";
import { PrismaClient } from "./generated/client";
import { applyMigrations } from "./migrations";
import { createPgExecutor, type SqlExecutor } from "./sql-executor";

export type Database = {
  prisma: PrismaClient;
  executor: SqlExecutor;
  /** Where it runs, for the start-up log: never the connection string (it carries a password). */
  description: string;
  /** A connection of its own, outside the pool, not yet connected: for a session that outlives its queries (LISTEN). */
  createSessionClient: (applicationName: string) => pg.Client;
  close: () => Promise<void>;
};

export type DatabaseLocation = {
  url: string;
  poolSize?: number;
  /** Where a lost connection is reported. */
  logger?: Logger;
};

export const MIGRATIONS_DIR = path.join(process.cwd(), "prisma", "migrations");

export async function openDatabase({ url, poolSize = 10, logger = silentLogger }: DatabaseLocation): Promise<Database> {
  const pool = new pg.Pool({ connectionString: url, max: poolSize, application_name: "hookmail" });
  // An idle connection the server closes (restart, failover, admin command) is an event, not a
  // crash: the pool drops it and opens a new one on the next query.
  pool.on("error", (error) => logger.error({ err: error }, `PostgreSQL connection lost: ${error.message}`));
  const prisma = new PrismaClient({ adapter: new PrismaPg(pool) });
  const { hostname, port, pathname } = new URL(url);
  return {
    prisma,
    executor: createPgExecutor(pool),
    description: `PostgreSQL ${decodeURIComponent(pathname.slice(1))} on ${hostname}:${port || 5432}`,
    createSessionClient: (applicationName) =>
      new pg.Client({ connectionString: url, application_name: applicationName, keepAlive: true }),
    close: async () => {
      await prisma.$disconnect();
      await pool.end();
    },
  };
}

/**
 * The process's database: DATABASE_URL's, or the embedded server's, started (or joined, when
 * another Hookmail process on this machine runs it) first. Closing it lets go of the embedded server.
 */
export async function openConfiguredDatabase(
  config: Pick<Config, "databaseUrl" | "dataDir">,
  logger: Logger = silentLogger,
): Promise<Database> {
  if (config.databaseUrl) return openDatabase({ url: config.databaseUrl, logger });
  const server = await startEmbeddedServer({ dataDir: config.dataDir, logger });
  const database = await openDatabase({ url: server.url, logger });
  return {
    ...database,
    description: `embedded PostgreSQL in ${config.dataDir} (${database.description})`,
    close: async () => {
      await database.close();
      await server.release();
    },
  };
}

export async function migrateDatabase(database: Database, logger?: Logger) {
  return applyMigrations({ executor: database.executor, migrationsDir: MIGRATIONS_DIR, logger });
}

/** Answers whether the database answers a trivial query (health checks). */
export async function isDatabaseReachable(database: Database, timeoutMs = 2000): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), timeoutMs);
  });
  const probe = database.executor
    .query("SELECT 1 AS ok")
    .then(() => true)
    .catch(() => false);
  try {
    return await Promise.race([probe, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
