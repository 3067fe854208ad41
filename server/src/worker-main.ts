import { createServices } from './app.ts';

import { migrateToLatest, openDatabase } from './db/database.ts';
import { createLogger } from './logger.ts';
import { createPlatform } from './platform/platform.ts';
import { exitOnStartFailure, loadConfigOrExit, stopOnSignals } from './process/lifecycle.ts';

/**
 * `npm run worker`: a job consumer for the scale-out mode. It builds the same services as a server
 * instance (no HTTP) and takes jobs from the BullMQ queue: Lua sandbox runs and mass-execution
 * parts. Any number may run; each stops gracefully on SIGTERM/SIGINT (running jobs finish first).
 */
async function main(): Promise<void> {
  const config = loadConfigOrExit();
  if (!config.redisUrl) {
    console.error('npm run worker needs REDIS_URL (the scale-out mode); the embedded mode runs jobs in the server.');
    process.exit(1);
  }
  const logger = createLogger(config.logLevel);
  const database = openDatabase(config.database, logger);
  await migrateToLatest(database.db);
  const platform = createPlatform(config, logger, 'worker');
  const services = createServices(config, database, logger, platform);
  logger.info({ database: database.kind }, 'Moonrelay worker taking jobs');

  stopOnSignals(async (signal) => {
    logger.info({ signal }, 'worker shutting down');
    await platform.close();
    await services.stopThreads();
    await database.close();
    logger.info('worker stopped');
  });
}

main().catch(exitOnStartFailure('Moonrelay worker'));
