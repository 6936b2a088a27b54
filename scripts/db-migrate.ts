// `npm run db:migrate`: applies pending migrations to the configured database (the same runner
// `npm start` uses), then exits. With the embedded server it may run while the app runs: it uses
// the server the app started in DATA_DIR (or starts it, and stops it again when done).

import { ConfigError, loadConfig } from "../modules/config/config";
import { migrateDatabase, openConfiguredDatabase } from "../modules/db/db";
import { MigrationError } from "../modules/db/migrations";
import { createLogger, loggerOptionsFromEnvironment } from "../modules/shared/logging/logger";

try {
  const config = loadConfig(process.env);
  const logger = createLogger(loggerOptionsFromEnvironment(process.env));
  const database = await openConfiguredDatabase(config, logger);
  const { applied } = await migrateDatabase(database, logger);
  console.log(applied.length > 0 ? `Applied: ${applied.join(", ")}` : "No pending migrations.");
  await database.close();
} catch (error) {
  if (error instanceof ConfigError || error instanceof MigrationError) {
    console.error(error.message);
    process.exit(1);
  }
  throw error;
}
