import Koa, { type Middleware } from 'koa';
import Router from '@koa/router';
import { ERRORS } from '@moonrelay/contract/messages';
import type { Config } from './config.ts';
import { openDatabase, migrateToLatest, type DatabaseHandle } from './db/database.ts';
import type { Logger } from './logger.ts';
import { AppError } from './http/app-error.ts';
import { authenticate } from './http/authenticate.ts';
import type { AppState } from './http/context.ts';
import { errorHandler } from './http/error-handler.ts';
import { createRateLimits } from './http/rate-limit.ts';
import { requestLog } from './http/request-log.ts';
import { securityHeaders } from './http/security-headers.ts';
import { webApp } from './http/web-app.ts';
import { createApiKeysService } from './modules/api-keys/api-keys.service.ts';
import { createAccountsService } from './modules/auth/accounts.service.ts';
import { mountAuthRoutes } from './modules/auth/auth.routes.ts';
import { createSessionsService } from './modules/auth/sessions.service.ts';
import { mountOpenApiRoute } from './modules/openapi/openapi.routes.ts';
import { createScriptsService } from './modules/scripts/scripts.service.ts';
import { mountScriptRoutes } from './modules/scripts/scripts.routes.ts';
import { createUsersService } from './modules/users/users.service.ts';
import { mountUserRoutes } from './modules/users/users.routes.ts';
import { memoryRateLimitBackend } from './platform/rate-limits.ts';
import { createSandboxPool } from '@moonrelay/worker/pool/sandbox-pool';
import { createExecutionsService } from './modules/executions/executions.service.ts';
import { mountExecutionRoutes } from './modules/executions/executions.routes.ts';
import { sandboxRunner } from './modules/executions/sandbox-runner.ts';
import { luaToolsForHttp } from './modules/lua-tools/lua-tools.http.ts';
import { mountLuaToolsRoutes } from './modules/lua-tools/lua-tools.routes.ts';
import { createLuaToolsService } from './modules/lua-tools/lua-tools.service.ts';
import { createSecretBox } from './security/secret-box.ts';
import { loadServerSecret } from './security/server-secret.ts';

export interface MoonrelayApp {
  koa: Koa<AppState>;
  database: DatabaseHandle;
  services: ReturnType<typeof createServices>;
  /** Releases what the app holds (the database last). Call after the HTTP server has closed. */
  close(): Promise<void>;
}

function createServices(config: Config, database: DatabaseHandle) {
  const { db } = database;
  const box = createSecretBox(loadServerSecret(config.appSecret, config.dataDir), 'api-keys');
  const rateLimits = createRateLimits(memoryRateLimitBackend, config.rateLimit);
  const apiKeys = createApiKeysService({ db, box });
  const sessions = createSessionsService({ db });
  const users = createUsersService({ db, apiKeys });
  const accounts = createAccountsService({
    db,
    users,
    sessions,
    apiKeys,
    loginFailures: memoryRateLimitBackend.counter(
      'login-failures',
      config.loginThrottle.maxFailures,
      config.loginThrottle.lockoutSeconds,
    ),
    adminEmails: config.adminEmails,
  });
  const scripts = createScriptsService({ db });
  // Both start their threads on first use, so an app that never runs Lua holds none.
  const luaToolsThreads = createLuaToolsService();
  const sandboxPool = createSandboxPool({ size: config.sandbox.threads, maxQueue: config.sandbox.maxQueue });
  const luaTools = luaToolsForHttp(luaToolsThreads);
  const executions = createExecutionsService({ db, sandbox: sandboxRunner(sandboxPool), syntax: luaTools });
  const stopThreads = () => Promise.all([sandboxPool.close(), luaToolsThreads.close()]).then(() => undefined);
  return { rateLimits, apiKeys, sessions, users, accounts, scripts, luaTools, executions, sandboxPool, stopThreads };
}

const isApiPath = (path: string) => path === '/api' || path.startsWith('/api/');

/** Runs `middleware` for /api requests only; the web app's files need no authentication. */
function apiOnly(middleware: Middleware<AppState>): Middleware<AppState> {
  return (ctx, next) => (isApiPath(ctx.path) ? middleware(ctx, next) : next());
}

/** Builds the whole application from a config without listening; tests and main.ts both use it. */
export async function buildApp(config: Config, logger: Logger): Promise<MoonrelayApp> {
  const database = openDatabase(config.database);
  try {
    const applied = await migrateToLatest(database.db);
    if (applied.length) logger.info({ migrations: applied }, 'database migrated');
  } catch (error) {
    await database.close();
    throw error;
  }
  const services = createServices(config, database);

  const koa = new Koa<AppState>({ proxy: config.trustProxy });
  // Errors after the answer has started (a file stream cut off by the client) reach Koa, not our
  // error middleware. A visitor closing the page mid-download is normal and not worth a log line.
  koa.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'ERR_STREAM_PREMATURE_CLOSE' || error.code === 'ECONNRESET') return;
    logger.error({ err: error }, 'response failed');
  });
  const api = new Router<AppState>();
  mountAuthRoutes(api, services.rateLimits, services.accounts);
  mountUserRoutes(api, services.rateLimits, services.users);
  mountExecutionRoutes(api, services.rateLimits, services.executions);
  mountScriptRoutes(api, services.rateLimits, services.scripts);
  mountLuaToolsRoutes(api, services.rateLimits, services.luaTools);
  mountOpenApiRoute(api, services.rateLimits);

  koa.use(requestLog(logger));
  koa.use(securityHeaders());
  koa.use(errorHandler());
  koa.use(apiOnly(authenticate(services)));
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

  return {
    koa,
    database,
    services,
    // Threads first (in-flight requests have finished by now), the database last.
    close: async () => {
      await services.stopThreads();
      await database.close();
    },
  };
}
