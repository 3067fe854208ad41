import { compose } from './composition.ts';
import { createModuleContext } from './module-context.ts';
import { migrateToLatest, openDatabase } from './db/database.ts';
import { createLogger } from './logger.ts';
import { adminModule } from './modules/admin/admin.module.ts';
import { apiKeysModule } from './modules/api-keys/api-keys.module.ts';
import { auditModule } from './modules/audit/audit.module.ts';
import { teamsModule } from './modules/teams/teams.module.ts';
import { consoleModule } from './modules/console/console.module.ts';
import { cloudRunsModule } from './modules/cloud-runs/cloud-runs.module.ts';
import { executionsModule } from './modules/executions/executions.module.ts';
import { gameModule } from './modules/game/game.module.ts';
import { luaToolsModule } from './modules/lua-tools/lua-tools.module.ts';
import { moderationModule } from './modules/moderation/moderation.module.ts';
import { notificationsModule } from './modules/notifications/notifications.module.ts';
import { openCloudModule } from './modules/open-cloud/open-cloud.module.ts';
import { playersModule } from './modules/players/players.module.ts';
import { schedulesModule } from './modules/schedules/schedules.module.ts';
import { usersModule } from './modules/users/users.module.ts';
import { createPlatform } from './platform/platform.ts';
import { exitOnStartFailure, loadConfigOrExit, stopOnSignals } from './process/lifecycle.ts';

/**
 * `npm run worker`: a job consumer for the scale-out mode. It builds the modules whose jobs it takes
 * (sandbox runs, scheduled runs, mass-execution parts, notification deliveries, Open Cloud ban
 * updates) and those they need, with no HTTP, no sweeps and no sign-in. Any number may run; each
 * stops gracefully on SIGTERM/SIGINT (running jobs finish first).
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
  const ctx = createModuleContext(config, database, logger, platform);
  const { bus, presence, jobs, reactions, rateLimits, idempotency } = ctx;
  const { entries } = compose(ctx, { bus, presence, jobs, platform, reactions, rateLimits, idempotency })
    .add(auditModule)
    .add(teamsModule)
    .add(apiKeysModule)
    .add(usersModule)
    // Raises the events of the jobs' outcomes (a mass execution finished) and delivers them.
    .add(notificationsModule)
    .add(luaToolsModule)
    .add(consoleModule)
    .add(playersModule)
    .add(gameModule)
    .add(openCloudModule)
    .add(cloudRunsModule)
    .add(executionsModule)
    // Records the outcomes of the Open Cloud updates this worker sends.
    .add(moderationModule)
    .add(schedulesModule)
    .add(adminModule);
  logger.info({ database: database.kind }, 'Moonrelay worker taking jobs');

  stopOnSignals(async (signal) => {
    logger.info({ signal }, 'worker shutting down');
    const lastFirst = [...entries].reverse();
    // Running jobs finish first, then each module lets go of what it holds.
    await jobs.close();
    for (const entry of lastFirst) await entry.close?.();
    await bus.close();
    await presence.close();
    for (const entry of lastFirst) await entry.release?.();
    await platform.close();
    await database.close();
    logger.info('worker stopped');
  });
}

main().catch(exitOnStartFailure('Moonrelay worker'));
