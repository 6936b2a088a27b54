// `npm run db:migrate`: applies pending migrations to the configured database (the same runner
// `npm start` uses), then exits. With the embedded server it may run while the app runs: it uses
// the server the app started in DATA_DIR (or starts it, and stops it again when done).

import { ConfigError, getConfig } from "../modules/config/config";
import { getDatabase, migrateDatabase } from "../modules/db/db";
import { MigrationError } from "../modules/db/migrations";
import { getLogger } from "../modules/shared/logging/logger";

try {
  getConfig();
  const database = await getDatabase();
  const { applied } = await migrateDatabase(database, getLogger());
  console.log(applied.length > 0 ? `Applied: ${applied.join(", ")}` : "No pending migrations.");
  await database.close();
} catch (error) {
  if (error instanceof ConfigError || error instanceof MigrationError) {
    console.error(error.message);
    process.exit(1);
  }
  throw error;
}
