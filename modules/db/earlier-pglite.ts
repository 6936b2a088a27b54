// Versions of Hookmail before the embedded PostgreSQL kept their zero-config database in
// DATA_DIR/pglite (PGlite). Such a directory is never silently ignored: start-up stops and says how
// to carry its data over (`npm run db:import-pglite`, scripts/import-pglite.ts), which moves the
// directory aside once its rows are in the new database.
import fs from "node:fs";
import path from "node:path";

/** DATA_DIR/pglite, where earlier versions kept their database. */
export const PGLITE_DIRECTORY = "pglite";

/** The one-line start-up message when DATA_DIR holds a PGlite database not yet carried over, else null. */
export function describeEarlierPgliteDatabase(dataDir: string): string | null {
  const directory = path.join(dataDir, PGLITE_DIRECTORY);
  if (!fs.existsSync(path.join(directory, "PG_VERSION"))) return null;
  return `Found a database of an earlier Hookmail (PGlite) in ${directory}: run \`npm run db:import-pglite\` to carry its data over to the embedded PostgreSQL, then start again (or set DATABASE_URL to use another database).`;
}
