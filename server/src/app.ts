import type http from 'node:http';
import Koa, { type Middleware } from 'koa';
import Router from '@koa/router';
import { ERRORS } from '@moonrelay/contract/messages';
import type { Config } from './config.ts';
import { compose, mountModules, startSweeps } from './composition.ts';
import { openDatabase, migrateToLatest, type DatabaseHandle } from './db/database.ts';
import type { Logger } from './logger.ts';
import { AppError } from './http/app-error.ts';
import type { AppState } from './http/context.ts';
import { errorHandler } from './http/error-handler.ts';
import { createRequestListener } from './http/fast-routes.ts';
import { requestLog } from './http/request-log.ts';
import { requestMetrics } from './http/request-metrics.ts';
import { compressAnswers } from './http/compress-answers.ts';
import { securityHeaders } from './http/security-headers.ts';
import { webApp } from './http/web-app.ts';
import { createModuleContext } from './module-context.ts';
import type { AppOverrides, ModuleContext } from './modules/module.ts';
import { adminModule } from './modules/admin/admin.module.ts';
import { analyticsModule } from './modules/analytics/analytics.module.ts';
import { apiKeysModule } from './modules/api-keys/api-keys.module.ts';
import { auditModule } from './modules/audit/audit.module.ts';
import { teamsModule } from './modules/teams/teams.module.ts';
import { authModule } from './modules/auth/auth.module.ts';
import { catalogueModule } from './modules/catalogue/catalogue.module.ts';
import { consoleModule } from './modules/console/console.module.ts';
import { cloudRunsModule } from './modules/cloud-runs/cloud-runs.module.ts';
import { executionsModule } from './modules/executions/executions.module.ts';
import { gameModule } from './modules/game/game.module.ts';
import { luaToolsModule } from './modules/lua-tools/lua-tools.module.ts';
import { moderationModule } from './modules/moderation/moderation.module.ts';
import { notificationsModule } from './modules/notifications/notifications.module.ts';
import { openApiModule } from './modules/openapi/openapi.module.ts';
import { openCloudModule } from './modules/open-cloud/open-cloud.module.ts';
import { instrument } from './modules/operations/instrument.ts';
import { operationsModule } from './modules/operations/operations.module.ts';
import { playersModule } from './modules/players/players.module.ts';
import { schedulesModule } from './modules/schedules/schedules.module.ts';
import { scriptLoaderModule } from './modules/script-loader/script-loader.module.ts';
import { scriptsModule } from './modules/scripts/scripts.module.ts';
import { simulatorModule } from './modules/simulator/simulator.module.ts';
import { twoFactorModule } from './modules/two-factor/two-factor.module.ts';
import { usersModule } from './modules/users/users.module.ts';
import { createPlatform } from './platform/platform.ts';
import { attachSocketHub } from './realtime/socket-hub.ts';

export type { AppOverrides } from './modules/module.ts';

export interface MoonrelayApp {
  /** What the HTTP server serves: the fast routes (the game's ping), then the Koa stack. */
  requestListener: http.RequestListener;
  koa: Koa<AppState>;
  database: DatabaseHandle;
  services: Services;
  /** Serves live push (Socket.IO) on the HTTP server the app is served from. */
  attachRealtime(server: http.Server): void;
  /**
   * Answers waiting long-polls and execute calls now and cuts the dashboards' sockets (they reconnect
   * by themselves), so the HTTP server can close promptly.
   */
  drain(): void;
  /** Releases what the app holds (the database last). Call after the HTTP server has closed. */
  close(): Promise<void>;
}

/** How often idempotency keys past their lifetime are removed. */
const IDEMPOTENCY_PRUNE_MS = 5_000;

/**
 * Moonrelay's modules, in the order they are built (each takes services of the ones above it by
 * name). They start in this order, and drain and close in the reverse.
 */
export function composeModules(ctx: ModuleContext) {
  const { bus, presence, jobs, platform, reactions, rateLimits, idempotency } = ctx;
  return compose(ctx, { bus, presence, jobs, platform, reactions, rateLimits, idempotency })
    .add(auditModule)
    .add(teamsModule)
    .add(apiKeysModule)
    .add(usersModule)
    .add(twoFactorModule)
    .add(authModule)
    .add(notificationsModule)
    .add(scriptsModule)
    .add(luaToolsModule)
    .add(consoleModule)
    .add(playersModule)
    .add(gameModule)
    .add(openCloudModule)
    .add(cloudRunsModule)
    .add(executionsModule)
    .add(moderationModule)
    .add(simulatorModule)
    .add(schedulesModule)
    .add(catalogueModule)
    .add(scriptLoaderModule)
    .add(adminModule)
    .add(analyticsModule)
    .add(operationsModule)
    .add(openApiModule);
}

export type Services = ReturnType<typeof composeModules>['services'];

const isApiPath = (path: string) => path === '/api' || path.startsWith('/api/');

/** Runs `middleware` for /api requests only; the web app's files need no authentication. */
function apiOnly(middleware: Middleware<AppState>): Middleware<AppState> {
  return (ctx, next) => (isApiPath(ctx.path) ? middleware(ctx, next) : next());
}

/** Builds the whole application from a config without listening; tests and main.ts both use it. */
export async function buildApp(config: Config, logger: Logger, overrides: AppOverrides = {}): Promise<MoonrelayApp> {
  const database = openDatabase(config.database, logger);
  try {
    const applied = await migrateToLatest(database.db);
    if (applied.length) logger.info({ migrations: applied }, 'database migrated');
  } catch (error) {
    await database.close();
    throw error;
  }
  const platform = createPlatform(config, logger);
  const ctx = createModuleContext(config, database, logger, platform, overrides);
  const { services, entries } = composeModules(ctx);
  const stopSweeps = startSweeps(
    [
      ...entries.flatMap((entry) => entry.sweeps ?? []),
      { name: 'idempotency prune', everyMs: IDEMPOTENCY_PRUNE_MS, run: () => ctx.idempotency.prune() },
    ],
    (error, name) => logger.error({ err: error }, `${name} failed`),
  );
  for (const entry of entries) await entry.start?.();
  let hub: ReturnType<typeof attachSocketHub> | undefined;

  const koa = new Koa<AppState>({ proxy: config.trustProxy });
  // Errors after the answer has started (a file stream cut off by the client) reach Koa, not our
  // error middleware. A visitor closing the page mid-download is normal and not worth a log line.
  koa.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'ERR_STREAM_PREMATURE_CLOSE' || error.code === 'ECONNRESET') return;
    logger.error({ err: error }, 'response failed');
  });
  const api = new Router<AppState>();
  const fastRoutes = mountModules(api, entries, services);

  koa.use(requestLog(logger));
  koa.use(requestMetrics(services.requestMetrics));
  const requestCounts = instrument(platform.metrics, {
    presence: services.presence,
    heldLongPolls: () => services.waits.pending,
  });
  koa.use(requestCounts.middleware);
  koa.use(securityHeaders({ catalogueSiteUrl: config.catalogue.siteUrl }));
  // Outside the error handler, so an error's answer is compressed as any other.
  koa.use(compressAnswers());
  koa.use(errorHandler());
  koa.use(apiOnly(services.authenticate));
  for (const middleware of entries.flatMap((entry) => entry.apiMiddleware ?? [])) koa.use(apiOnly(middleware));
  koa.use(api.routes());
  koa.use(
    api.allowedMethods({
      throw: true,
      notImplemented: () => new AppError(501, 'Method not supported'),
      methodNotAllowed: () => new AppError(405, 'Method not allowed'),
    }),
  );
  // Sets (rather than throws) the 404 so that allowedMethods above can still turn it into a 405.
  koa.use(
    apiOnly((ctx) => {
      ctx.status = 404;
      ctx.body = { error: ERRORS.notFound };
    }),
  );
  koa.use(webApp(config.webDistDir));

  const lastFirst = [...entries].reverse();
  return {
    requestListener: createRequestListener({
      koa,
      routes: fastRoutes,
      logger,
      recorder: services.requestMetrics,
      countAnswer: requestCounts.countAnswer,
    }),
    koa,
    database,
    services,
    attachRealtime(server) {
      for (const entry of entries) entry.attach?.(server);
      hub = attachSocketHub({
        server,
        bus: services.bus,
        logger,
        identify: services.identifySocket,
        recheck: { everyMs: config.socketRecheckMs, stillValid: services.socketSessionsStillValid },
        adapterClients: platform.socketAdapterClients,
      });
    },
    drain() {
      for (const entry of lastFirst) entry.drain?.();
      hub?.cutConnections();
    },
    // Sweeps first, then each module (the last built first), the job queue and push, the threads,
    // the platform, and the database last.
    close: async () => {
      stopSweeps();
      for (const entry of lastFirst) await entry.close?.();
      await services.jobs.close();
      await hub?.close();
      await services.bus.close();
      await services.presence.close();
      for (const entry of lastFirst) await entry.release?.();
      await platform.close();
      await database.close();
    },
  };
}
