import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { type Database, migrateDatabase, openDatabase } from "@/modules/db/db";
import { startEmbeddedServer } from "@/modules/db/embedded-server";
import { silentLogger } from "@/modules/shared/logging/logger";
import { createDatabaseOnServer } from "@/tests/support/server-database";

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
      adminUrl: server.adminUrlFor("postgres"),
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
export const createDatabaseOn = (adminUrl: string) => createDatabaseOnServer(adminUrl, undefined, { prefix: "hookmail_bench" });

/** A fresh database on the server, migrated and opened as the product opens its own; dropped on close. */
export async function openBenchDatabase(adminUrl: string, { poolSize = 10 }: { poolSize?: number } = {}): Promise<BenchDatabase> {
  const { name, url, drop } = await createDatabaseOn(adminUrl);
  const database = await openDatabase({ url, poolSize });
  await migrateDatabase(database, silentLogger);
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

export const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

/** "0.81 (0.74–0.88)": the median with its spread. */
export const formatSpread = (values: number[], digits = 2) =>
  `${median(values).toFixed(digits)} (${Math.min(...values).toFixed(digits)}–${Math.max(...values).toFixed(digits)})`;
