// The database of this process: PostgreSQL through @prisma/adapter-pg when DATABASE_URL is set,
// else the embedded PGlite in DATA_DIR. One client per process, shared through globalThis so the
// custom server and Next's separately bundled route handlers use the same connection.
import path from "node:path";
import { PGlite, types as pgliteTypes, type PGliteOptions } from "@electric-sql/pglite";
import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { PrismaPGlite } from "pglite-prisma-adapter";
import { getConfig } from "@/modules/config/config";
import { createPrivateDirectory, tightenPrivateTree } from "@/modules/shared/fs/private-files";
import { PrismaClient } from "./generated/client";
import { applyMigrations } from "./migrations";
import { createPgExecutor, createPgliteExecutor, type SqlExecutor } from "./sql-executor";

export type Database = {
  kind: "postgres" | "pglite";
  prisma: PrismaClient;
  executor: SqlExecutor;
  close: () => Promise<void>;
};

export type DatabaseLocation =
  | { kind: "postgres"; url: string; poolSize?: number }
  | { kind: "pglite"; dataDir: string | null };

/** The embedded database's directory inside DATA_DIR. */
export const PGLITE_DIRECTORY = "pglite";

export const MIGRATIONS_DIR = path.join(process.cwd(), "prisma", "migrations");

/**
 * bytea to and from PGlite. Its defaults go byte by byte (an array of two-character strings): writing
 * a 25 MiB message took about 27 s and 2.6 GB. Bytes are sent as a binary parameter instead (PGlite
 * sends a Uint8Array as is), and hex results are decoded by Buffer.
 */
const PGLITE_BYTEA_OPTIONS: Pick<PGliteOptions, "serializers" | "parsers"> = {
  serializers: {
    [pgliteTypes.BYTEA]: (value: unknown) =>
      value instanceof Uint8Array ? (value as unknown as string) : pgliteTypes.serializers[pgliteTypes.BYTEA]!(value),
  },
  parsers: {
    [pgliteTypes.BYTEA]: (text: string) => {
      const bytes = Buffer.from(text.slice(2), "hex");
      return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    },
  },
};

export async function openDatabase(location: DatabaseLocation): Promise<Database> {
  if (location.kind === "postgres") {
    const pool = new pg.Pool({ connectionString: location.url, max: location.poolSize ?? 10 });
    // An idle connection the server closes (restart, failover, admin command) is an event, not a
    // crash: the pool drops it and opens a new one on the next query.
    pool.on("error", (error) => console.error(`[hookmail] PostgreSQL connection lost: ${error.message}`));
    const prisma = new PrismaClient({ adapter: new PrismaPg(pool) });
    return {
      kind: "postgres",
      prisma,
      executor: createPgExecutor(pool),
      close: async () => {
        await prisma.$disconnect();
        await pool.end();
      },
    };
  }
  // Owner-only (docs/security.md): the directory 0700 before the first file, and what PGlite wrote 0600.
  if (location.dataDir) createPrivateDirectory(location.dataDir);
  const pglite = location.dataDir
    ? await PGlite.create(location.dataDir, PGLITE_BYTEA_OPTIONS)
    : await PGlite.create(PGLITE_BYTEA_OPTIONS);
  if (location.dataDir) tightenPrivateTree(location.dataDir);
  const prisma = new PrismaClient({ adapter: new PrismaPGlite(pglite) });
  return {
    kind: "pglite",
    prisma,
    executor: createPgliteExecutor(pglite),
    close: async () => {
      await prisma.$disconnect();
      await pglite.close();
    },
  };
}

export function getDatabaseLocation(): DatabaseLocation {
  const config = getConfig();
  return config.databaseUrl
    ? { kind: "postgres", url: config.databaseUrl }
    : { kind: "pglite", dataDir: path.join(config.dataDir, PGLITE_DIRECTORY) };
}

export async function migrateDatabase(database: Database, log?: (line: string) => void) {
  return applyMigrations({ executor: database.executor, migrationsDir: MIGRATIONS_DIR, log });
}

const globalForDatabase = globalThis as typeof globalThis & { __hookmailDatabase?: Promise<Database> };

/** The process's database, opened on first use. The server opens and migrates it before listening. */
export function getDatabase(): Promise<Database> {
  globalForDatabase.__hookmailDatabase ??= openDatabase(getDatabaseLocation()).catch((error: unknown) => {
    globalForDatabase.__hookmailDatabase = undefined;
    throw error;
  });
  return globalForDatabase.__hookmailDatabase;
}

export async function getPrisma(): Promise<PrismaClient> {
  return (await getDatabase()).prisma;
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

/** Makes an already opened database the process's database (tests, and the server after migrating). */
export function setProcessDatabase(database: Database) {
  globalForDatabase.__hookmailDatabase = Promise.resolve(database);
}
