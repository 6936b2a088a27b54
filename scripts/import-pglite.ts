// `npm run db:import-pglite`: carries the database of an earlier Hookmail (PGlite, in
// DATA_DIR/pglite) over to the configured PostgreSQL (the embedded server, or DATABASE_URL), then
// moves DATA_DIR/pglite aside so that `npm start` runs again (docs/scaling.md: Upgrading from a
// version that ran PGlite). Run it with the app stopped.

import fs from "node:fs";
import path from "node:path";
import { ConfigError, loadConfig } from "../modules/config/config";
import { openConfiguredDatabase } from "../modules/db/db";
import { PGLITE_DIRECTORY } from "../modules/db/earlier-pglite";
import { MigrationError } from "../modules/db/migrations";
import { importPgliteDatabase, openPgliteDatabase, PgliteImportError } from "../modules/db/pglite-import";
import { tightenPrivateTree } from "../modules/shared/fs/private-files";
import { createLogger, loggerOptionsFromEnvironment } from "../modules/shared/logging/logger";

try {
  const config = loadConfig(process.env);
  const logger = createLogger(loggerOptionsFromEnvironment(process.env));
  const directory = path.join(config.dataDir, PGLITE_DIRECTORY);
  if (!fs.existsSync(path.join(directory, "PG_VERSION"))) {
    console.error(`No PGlite database in ${directory}: nothing to import.`);
    process.exit(1);
  }
  const source = await openPgliteDatabase(directory);
  const target = await openConfiguredDatabase(config, logger);
  try {
    console.log(`Importing ${directory} into ${target.description}…`);
    const tables = await importPgliteDatabase({
      source: source.executor,
      target: target,
      logger: logger,
    });
    const rows = tables.reduce((sum, table) => sum + table.rows, 0);
    console.log(`Imported ${rows} row(s) from ${tables.length} tables.`);
  } finally {
    await source.close();
    await target.close();
  }
  const keptAt = `${directory}.imported-${new Date().toISOString().replace(/[:.]/g, "-")}`;
  fs.renameSync(directory, keptAt);
  // A copy of every account's data: owner-only like the rest of DATA_DIR (docs/security.md).
  tightenPrivateTree(keptAt);
  console.log(
    `The PGlite database is kept at ${keptAt}: remove it once you have checked your data. Start Hookmail with \`npm start\`.`,
  );
} catch (error) {
  if (error instanceof ConfigError || error instanceof MigrationError || error instanceof PgliteImportError) {
    console.error(error.message);
    process.exit(1);
  }
  throw error;
}
