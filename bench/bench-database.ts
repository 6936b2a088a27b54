// The database servers of the benchmarks. The zero-config default: the embedded PostgreSQL server
// that `npm start` runs without DATABASE_URL (modules/db/embedded-server.ts), started here in a
// throwaway DATA_DIR under the system's temporary directory, with the product's own settings.
// Beside it, when DATABASE_URL is set, the server it names. Each benchmark works in fresh
// databases of its own on either server, migrated, and dropped when closed.
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { type Database, migrateDatabase, openDatabase } from "@/modules/db/db";
import { startEmbeddedServer } from "@/modules/db/embedded-server";

export type ServerKind = "embedded" | "postgres";

export type BenchServer = {
  kind: ServerKind;
  /** The server's maintenance database (`postgres`), for CREATE and DROP DATABASE. */
  adminUrl: string;
  /** The throwaway DATA_DIR of an embedded server. */
  dataDir?: string;
  /** Stops an embedded server and removes its DATA_DIR; leaves DATABASE_URL's server alone. */
  stop: () => Promise<void>;
};

export type BenchDatabase = Database & { url: string; name: string };

/** The embedded server of the default install, in a fresh DATA_DIR. */
export async function startEmbeddedBenchServer(): Promise<BenchServer> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "hookmail-bench-"));
  try {
    const server = await startEmbeddedServer({ dataDir });
    return {
      kind: "embedded",
      adminUrl: server.urlFor("postgres"),
      dataDir,
      stop: async () => {
        await server.release();
        fs.rmSync(dataDir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    fs.rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
}

/** DATABASE_URL's server, or null when it is unset. */
export function findDatabaseUrlServer(): BenchServer | null {
  const url = process.env.DATABASE_URL;
  return url ? { kind: "postgres", adminUrl: url, stop: async () => undefined } : null;
}

/** The servers a benchmark compares: the embedded default always, DATABASE_URL's when set and wanted. */
export function listWantedServerKinds(variable: string): ServerKind[] {
  const wanted = (process.env[variable] ?? "embedded,postgres").split(",").map((kind) => kind.trim());
  return (["embedded", "postgres"] as const).filter(
    (kind) => wanted.includes(kind) && (kind === "embedded" || process.env.DATABASE_URL),
  );
}

export async function startBenchServer(kind: ServerKind): Promise<BenchServer> {
  if (kind === "embedded") return startEmbeddedBenchServer();
  const server = findDatabaseUrlServer();
  if (!server) throw new Error("DATABASE_URL is unset");
  return server;
}

/** A new empty database on the server, and how to drop it. */
export async function createDatabaseOn(adminUrl: string): Promise<{ name: string; url: string; drop: () => Promise<void> }> {
  const name = `hookmail_bench_${randomBytes(6).toString("hex")}`;
  await runOnServer(adminUrl, `CREATE DATABASE ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return { name, url: url.toString(), drop: () => runOnServer(adminUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}

/** A fresh database on the server, migrated and opened as the product opens its own; dropped on close. */
export async function openBenchDatabase(adminUrl: string, { poolSize = 10 }: { poolSize?: number } = {}): Promise<BenchDatabase> {
  const { name, url, drop } = await createDatabaseOn(adminUrl);
  const database = await openDatabase({ url, poolSize });
  await migrateDatabase(database, () => undefined);
  return {
    ...database,
    url,
    name,
    close: async () => {
      await database.close();
      await drop();
    },
  };
}

async function runOnServer(adminUrl: string, sql: string) {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(sql);
  } finally {
    await admin.end();
  }
}

export const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

/** "0.81 (0.74–0.88)": the median with its spread. */
export const formatSpread = (values: number[], digits = 2) =>
  `${median(values).toFixed(digits)} (${Math.min(...values).toFixed(digits)}–${Math.max(...values).toFixed(digits)})`;
