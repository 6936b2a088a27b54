// Starts one Hookmail process: validates the configuration, opens and migrates the database,
// builds the process's services (services.ts, the composition root), then starts the roles of
// HOOKMAIL_ROLES with them: web (the app and API), smtp (the MX), worker (retries).
import { getAuthSecret } from "@/modules/config/auth-secret";
import { type Config, ConfigError, loadConfig } from "@/modules/config/config";
import { type Database, migrateDatabase, openConfiguredDatabase } from "@/modules/db/db";
import { MigrationError } from "@/modules/db/migrations";
import { describeMissingSmtpWarning } from "@/modules/mail/mailer";
import { getMetricsRepository } from "@/modules/metrics/metrics.dependencies";
import { startMetricsServer } from "@/modules/metrics/metrics-server";
import { createLogger, type Logger, loggerOptionsFromEnvironment } from "@/modules/shared/logging/logger";
import { routeProcessOutputThroughLogger } from "@/modules/shared/logging/process-output";
import { buildAppIfStale } from "./build";
import { startDeliveryDispatch, startSmtpRole } from "./mail-roles";
import { protectDataDir } from "./private-data-dir";
import { createServices, type Services, setServices } from "./services";
import { type RunningRole, startWebRole } from "./web-role";

export async function startHookmail({
  projectDir,
  afterShutdown,
}: {
  projectDir: string;
  /** Runs after the roles and the database have stopped, before the process exits. */
  afterShutdown?: () => Promise<void>;
}) {
  const logger = createLogger(loggerOptionsFromEnvironment(process.env));
  routeProcessOutputThroughLogger({ logger });
  const config = loadConfigOrExit(logger);
  for (const file of protectDataDir(config)) logger.warn(`WARNING: could not make ${file} owner-only (0700/0600)`);
  // The build's own inputs are read from the environment as next build sees it (build-freshness.ts).
  if (config.roles.includes("web")) await buildAppIfStale(projectDir, process.env, logger);

  const database = await openAndMigrateOrExit(config, logger);
  const services = createServices({ config, logger, projectDir, database });
  // Next's route handlers and server components reach these same services (services.ts: getServices).
  setServices(services);
  const authSecret = getAuthSecret(config);
  for (const notice of [...config.notices, authSecret.notice].filter(Boolean)) logger.info(`Notice: ${notice}`);
  for (const line of describeMissingSmtpWarning(config)) logger.warn(line);

  const running: RunningRole[] = [];
  const acceptsMail = config.roles.includes("web") || config.roles.includes("smtp");
  if (acceptsMail || config.roles.includes("worker")) running.push(await startDeliveryDispatch(services));
  if (config.roles.includes("smtp")) running.push(await startSmtpRole(services));
  if (config.roles.includes("web")) running.push(await startWebRole(services));
  if (config.metrics.port !== undefined && config.metrics.token) {
    const metrics = await startMetricsServer({
      host: config.metrics.host,
      port: config.metrics.port,
      token: config.metrics.token,
      getRepository: () => getMetricsRepository(services.database),
      logger,
      metrics: services.metrics(),
    });
    running.push({ name: "metrics", stop: metrics.stop });
    logger.info(`Serving metrics on ${config.metrics.host} port ${metrics.port} (GET /metrics)`);
  }

  logger.info(`Roles: ${config.roles.join(", ")}`);
  logger.info(`Database: ${database.description}`);
  if (config.roles.includes("smtp")) {
    logger.info(`Receiving mail by SMTP on ${config.smtp.host}:${config.smtp.port} for ${config.emailDomains.join(", ")}`);
  }
  if (config.roles.includes("web")) logger.info(`Open ${config.baseUrl} (listening on port ${config.port})`);
  registerShutdown({ running, services, database, afterShutdown });
}

function loadConfigOrExit(logger: Logger): Config {
  try {
    return loadConfig(process.env);
  } catch (error) {
    if (error instanceof ConfigError) {
      logger.fatal(`${error.message}\nFix the environment (see .env.example) and start again.`);
      process.exit(1);
    }
    throw error;
  }
}

async function openAndMigrateOrExit(config: Config, logger: Logger): Promise<Database> {
  let database: Database;
  try {
    database = await openConfiguredDatabase(config, logger);
  } catch (error) {
    const where = config.databaseUrl ? "the PostgreSQL database of DATABASE_URL" : `the embedded PostgreSQL in ${config.dataDir}`;
    logger.fatal({ err: error, database: where }, "Cannot open the database");
    process.exit(1);
  }
  try {
    const { applied } = await migrateDatabase(database, logger);
    logger.info(
      applied.length > 0 ? `Applied ${applied.length} migration(s): ${applied.join(", ")}` : "Database schema is up to date",
    );
  } catch (error) {
    if (error instanceof MigrationError) {
      logger.fatal(`${error.message}\nStart-up stopped: the database schema is not what this version needs.`);
      await database.close().catch(() => undefined);
      process.exit(1);
    }
    throw error;
  }
  return database;
}

function registerShutdown({
  running,
  services,
  database,
  afterShutdown,
}: {
  running: RunningRole[];
  services: Services;
  database: Database;
  afterShutdown?: () => Promise<void>;
}) {
  const { logger } = services;
  let isStopping = false;
  const stop = async (signal: NodeJS.Signals) => {
    if (isStopping) return;
    isStopping = true;
    logger.info(`${signal} received, stopping…`);
    // Stop taking work first (web, smtp), then let the delivery attempts in flight finish.
    for (const role of [...running].reverse())
      await role.stop().catch((error: unknown) => logger.error({ err: error }, `Stopping ${role.name} failed`));
    // The live-events listener's connection ending with the database must not read as a loss to reconnect from.
    await services.close().catch(() => undefined);
    await database.close().catch(() => undefined);
    await afterShutdown?.().catch(() => undefined);
    process.exit(0);
  };
  process.once("SIGTERM", stop);
  process.once("SIGINT", stop);
}
