import { GAME_COMMAND_EXPIRY_MS } from '@moonrelay/contract/constants';
import type http from 'node:http';
import Koa, { type Middleware } from 'koa';
import Router from '@koa/router';
import type { CommandView } from '@moonrelay/contract/game';
import { ERRORS } from '@moonrelay/contract/messages';
import type { Config } from './config.ts';
import { openDatabase, migrateToLatest, type DatabaseHandle } from './db/database.ts';
import type { Logger } from './logger.ts';
import { AppError } from './http/app-error.ts';
import { authenticate } from './http/authenticate.ts';
import type { AppState } from './http/context.ts';
import { errorHandler } from './http/error-handler.ts';
import { createRequestListener } from './http/fast-routes.ts';
import { createRateLimits } from './http/rate-limit.ts';
import { requestLog } from './http/request-log.ts';
import { requestMetrics } from './http/request-metrics.ts';
import { securityHeaders } from './http/security-headers.ts';
import { webApp } from './http/web-app.ts';
import { createApiKeysService } from './modules/api-keys/api-keys.service.ts';
import { mountApiKeyRoutes } from './modules/api-keys/api-keys.routes.ts';
import { auditKeyChanges } from './modules/api-keys/key-changes.ts';
import { createAccountsService } from './modules/auth/accounts.service.ts';
import { mountAuthRoutes } from './modules/auth/auth.routes.ts';
import { mountOidcRoutes } from './modules/auth/oidc.routes.ts';
import { createAccountSecurity } from './modules/auth/account-security.service.ts';
import { mountAccountSecurityRoutes } from './modules/auth/account-security.routes.ts';
import type { SessionSecondFactor } from './modules/auth/sessions.service.ts';
import { adminNeedsTwoFactor } from './http/authenticate.ts';
import { createOidcService } from './modules/auth/oidc.service.ts';
import { createSessionsService } from './modules/auth/sessions.service.ts';
import { mountOpenApiRoute } from './modules/openapi/openapi.routes.ts';
import { createScriptsService } from './modules/scripts/scripts.service.ts';
import { mountScriptRoutes } from './modules/scripts/scripts.routes.ts';
import { createUsersService } from './modules/users/users.service.ts';
import { mountUserRoutes } from './modules/users/users.routes.ts';
import { createSandboxPool } from '@moonrelay/worker/pool/sandbox-pool';
import { createExecutionsService } from './modules/executions/executions.service.ts';
import { mountExecutionRoutes } from './modules/executions/executions.routes.ts';
import { createRunRetention, RUN_RETENTION_SWEEP_MS } from './modules/executions/run-retention.ts';
import { mountRunRoutes } from './modules/executions/runs.routes.ts';
import { createRunsService } from './modules/executions/runs.service.ts';
import { queuedSandboxRunner, registerSandboxJob, sandboxRunner } from './modules/executions/sandbox-runner.ts';
import { luaToolsForHttp } from './modules/lua-tools/lua-tools.http.ts';
import { mountLuaToolsRoutes } from './modules/lua-tools/lua-tools.routes.ts';
import { createLuaToolsService } from './modules/lua-tools/lua-tools.service.ts';
import { createBusWaits } from './modules/game/bus-waits.ts';
import { createCommandsService } from './modules/game/commands.service.ts';
import { createGameLinkService } from './modules/game/game-link.service.ts';
import { createServerChanges } from './modules/game/server-changes.ts';
import { createConnectAdmission } from './modules/game/connect-admission.ts';
import { mountGameRoutes } from './modules/game/game.routes.ts';
import { createServerUrl } from './http/server-url.ts';
import { createPlayerProfiles } from './modules/game/player-profiles.ts';
import { createConsoleService } from './modules/console/console.service.ts';
import { mountConsoleRoutes } from './modules/console/console.routes.ts';
import { createCatalogueService } from './modules/catalogue/catalogue.service.ts';
import { mountCatalogueRoutes } from './modules/catalogue/catalogue.routes.ts';
import { createScriptLoaderService } from './modules/script-loader/script-loader.service.ts';
import { mountScriptLoaderRoutes } from './modules/script-loader/script-loader.routes.ts';
import { createScriptTokens } from './modules/script-loader/script-tokens.ts';
import { createPlatform, type Platform } from './platform/platform.ts';
import { instrument } from './modules/operations/instrument.ts';
import { mountOperationsRoutes } from './modules/operations/operations.routes.ts';
import { attachSocketHub } from './realtime/socket-hub.ts';
import { mountAdminRoutes } from './modules/admin/admin.routes.ts';
import { createAdminService } from './modules/admin/admin.service.ts';
import { createMassExecution } from './modules/admin/mass-execution.ts';
import { createMassProgress } from './modules/admin/mass-progress.ts';
import { createIdempotency } from './http/idempotency.ts';
import { createAuditService } from './modules/audit/audit.service.ts';
import { mountAnalyticsRoutes } from './modules/analytics/analytics.routes.ts';
import { createAnalyticsService } from './modules/analytics/analytics.service.ts';
import { createRequestMetrics } from './modules/analytics/request-metrics.ts';
import { createScheduleRuns } from './modules/schedules/schedule-runs.ts';
import { mountScheduleRoutes } from './modules/schedules/schedules.routes.ts';
import { mountPlayerRoutes } from './modules/players/players.routes.ts';
import { createPlayersService } from './modules/players/players.service.ts';
import { mountModerationRoutes } from './modules/moderation/moderation.routes.ts';
import { createModerationService } from './modules/moderation/moderation.service.ts';
import { createRoster, ROSTER_SWEEP_MS } from './modules/players/roster.ts';
import { isLive } from './modules/game/game-server-view.ts';
import { createSchedulesService } from './modules/schedules/schedules.service.ts';
import { createSecretBox } from './security/secret-box.ts';
import { createChallenges } from './modules/two-factor/challenges.ts';
import { mountTwoFactorRoutes } from './modules/two-factor/two-factor.routes.ts';
import { createTwoFactorService } from './modules/two-factor/two-factor.service.ts';
import { createPasskeysService } from './modules/two-factor/passkeys.service.ts';
import { loadServerSecret } from './security/server-secret.ts';
import { createDelivery } from './modules/notifications/delivery.ts';
import { createNotificationSources, tapBus } from './modules/notifications/notification-sources.ts';
import { mountNotificationRoutes } from './modules/notifications/notifications.routes.ts';
import { createNotificationsService } from './modules/notifications/notifications.service.ts';
import { createNotifier } from './modules/notifications/notifier.ts';
import { createSignInAddresses } from './modules/notifications/sign-in-addresses.ts';
import { systemNetwork, type OutboundNetwork } from './modules/notifications/outbound-http.ts';
import { createBansService } from './modules/open-cloud/bans.service.ts';
import { systemClock } from './modules/open-cloud/clock.ts';
import { createOpenCloudKeys } from './modules/open-cloud/open-cloud-keys.ts';
import { mountOpenCloudRoutes } from './modules/open-cloud/open-cloud.routes.ts';
import { createRestrictionOutcomes } from './modules/open-cloud/restriction-outcomes.ts';
import { createRestrictions } from './modules/open-cloud/restrictions.ts';
import { createOpenCloudClient } from './modules/open-cloud/roblox-open-cloud.ts';
import { isSimulatedServerId } from '@moonrelay/contract/simulator';
import { leaveOutSimulated, realServers } from './modules/simulator/simulated-servers.ts';
import { createSimulator } from './modules/simulator/simulator.service.ts';
import { mountSimulatorRoutes } from './modules/simulator/simulator.routes.ts';

export interface MoonrelayApp {
  /** What the HTTP server serves: the fast routes (the game's ping), then the Koa stack. */
  requestListener: http.RequestListener;
  koa: Koa<AppState>;
  database: DatabaseHandle;
  services: ReturnType<typeof createServices>;
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

/**
 * How often presence is checked for games that stopped pinging, commands for ones that ran out of
 * time, and game servers' consoles for lines beyond the number kept.
 */
const DISCONNECT_SWEEP_MS = 1_000;
const COMMAND_SWEEP_MS = 5_000;
const CONSOLE_PRUNE_MS = 5_000;
/** How often bans waiting for a live server are offered to one, and stranded results settled. */
const MODERATION_SWEEP_MS = 5_000;
/** How often notification events whose next try came due (retries, rate limits) are handed out. */
const NOTIFICATION_SWEEP_MS = 1_000;
/** Roblox's bans in force listed beside Moonrelay's own (GET /api/players/bans). */
const BANS_FROM_ROBLOX_LISTED = 1_000;

/** Parts a test replaces: what notification deliveries resolve and dial. */
export interface AppOverrides {
  notificationNetwork?: OutboundNetwork;
}

export function createServices(
  config: Config,
  database: DatabaseHandle,
  logger: Logger,
  platform: Platform,
  overrides: AppOverrides = {},
) {
  const { db } = database;
  const { presence, jobs } = platform;
  // Notifications hear what this process publishes (each event is raised once, where it happened).
  const notificationBox = createSecretBox(
    loadServerSecret(config.appSecret, config.dataDir),
    'notification-destinations',
  );
  const notificationDelivery = createDelivery({
    db,
    jobs: platform.notificationJobs ?? jobs,
    box: notificationBox,
    logger,
    network: overrides.notificationNetwork ?? systemNetwork,
    allowedHosts: new Set(config.notifications.allowedHosts),
    publicUrl: config.publicUrl,
    retryBaseMs: config.notifications.retryBaseMs,
    leaseMs: config.notifications.leaseMs,
    onlyProcess: platform.mode === 'embedded',
  });
  const notifier = createNotifier({ db, logger, hand: notificationDelivery.hand });
  const notificationSources = createNotificationSources((userId, build) => notifier.raise(userId, build));
  const bus = tapBus(platform.bus, (event) => notificationSources.observe(leaveOutSimulated(event)));
  const waits = createBusWaits(bus);
  // The execution service and the game link need each other (a run becomes a command; a command's
  // result completes a run), so the commands reach the executions through this late-bound call.
  let completeGameRuns: (commands: CommandView[]) => Promise<void> = async () => {};
  // Moderation's bans, kicks and warnings are commands too; their results reach it the same way.
  let settleModeration: (commands: CommandView[]) => Promise<void> = async () => {};
  // Mass-execution parts move on with their commands, in whichever process records the step.
  const massProgress = createMassProgress({ db, bus, claimExpiryMs: GAME_COMMAND_EXPIRY_MS });
  const commands = createCommandsService({
    db,
    bus,
    onFinished: async (finished) => {
      await completeGameRuns(finished);
      await settleModeration(finished);
    },
    onMoved: (moved) => massProgress.commandsChanged(moved),
  });
  const box = createSecretBox(loadServerSecret(config.appSecret, config.dataDir), 'api-keys');
  const rateLimits = createRateLimits(platform.rateLimitBackend, config.rateLimit);
  const registrations = platform.rateLimitBackend.counter('registrations', config.registrationsPerIpPerHour, 3600);
  const apiKeys = createApiKeysService({ db, box, bus });
  const sessions = createSessionsService({ db, bus });
  const audit = createAuditService({ db, bus });
  const users = createUsersService({ db, apiKeys, audit, bus });
  const loginAttempts = platform.rateLimitBackend.counter(
    'login-attempts',
    config.loginThrottle.maxFailures,
    config.loginThrottle.lockoutSeconds,
  );
  const serverSecret = loadServerSecret(config.appSecret, config.dataDir);
  const twoFactor = createTwoFactorService({
    db,
    box: createSecretBox(serverSecret, 'totp-secrets'),
    audit,
    attempts: loginAttempts,
    // Past the lockout four times in a day, an account's proofs wait for the day's window to end.
    dailyAttempts: platform.rateLimitBackend.counter(
      'account-proofs-daily',
      config.loginThrottle.maxFailures * 4,
      24 * 60 * 60,
    ),
    requireForAdmins: config.requireTwoFactorForAdmins,
    issuer: 'Moonrelay',
  });
  const passkeys = createPasskeysService({ db, audit, twoFactor });
  const accountSecurity = createAccountSecurity({ db, sessions, twoFactor, passkeys, users, audit });
  const accounts = createAccountsService({
    db,
    users,
    sessions,
    apiKeys,
    loginAttempts,
    twoFactor,
    challenges: createChallenges(serverSecret),
    adminEmails: config.adminEmails,
    audit,
    bus,
  });
  const oidc = createOidcService({
    db,
    oidc: config.oidc,
    publicUrl: config.publicUrl,
    accounts,
    users,
    logger,
    audit,
  });
  const scripts = createScriptsService({ db });
  // Both start their threads on first use, so an app that never runs Lua holds none.
  const luaToolsThreads = createLuaToolsService();
  const sandboxPool = createSandboxPool({ size: config.sandbox.threads, maxQueue: config.sandbox.maxQueue });
  const luaTools = luaToolsForHttp(luaToolsThreads);
  const serverChanges = createServerChanges(bus);
  const gameServerChanges: typeof serverChanges = {
    ...serverChanges,
    pinged(presence) {
      // Simulated servers take no bans and raise no notifications (modules/simulator).
      const real = !isSimulatedServerId(presence.serverId);
      // A server that just connected takes the bans and unbans waiting for one.
      if (real && presence.connectedAtMs === presence.lastPingMs) {
        moderation
          .serverConnected(presence.userId)
          .catch((error: unknown) => logger.warn({ err: error }, 'sending waiting bans failed; the sweep retries'));
      }
      if (real) notificationSources.serverPinged(presence);
      serverChanges.pinged(presence);
    },
    gone(presence) {
      if (!isSimulatedServerId(presence.serverId)) notificationSources.serverGone(presence);
      serverChanges.gone(presence);
    },
  };
  const admission = createConnectAdmission({
    maxLagMs: config.gameShedLagMs,
    refused: platform.metrics.counter(
      'moonrelay_game_connects_refused_total',
      'Game servers refused a connection (503) while the event loop was behind',
    ),
  });
  const consoleLines = createConsoleService({
    db,
    bus,
    logger,
    keepPerServer: config.console.linesPerServer,
    userLinesPerMinute: config.console.userLinesPerMinute,
  });
  const roster = createRoster({
    db,
    bus,
    logger,
    sessionRetentionDays: config.playerSessionRetentionDays,
    recordsMax: config.playerRecordsMax,
    recordsKeepDays: config.playerRecordsKeepDays,
    notice: (userId, serverId, text, atMs) => consoleLines.notice(userId, serverId, text, atMs),
    isLive: async (userId, serverId) => {
      const server = await presence.get(userId, serverId);
      return server !== undefined && isLive(server, Date.now());
    },
  });
  const players = createPlayersService({ db });
  const gameLink = createGameLinkService({
    db,
    presence,
    commands,
    waits,
    changes: gameServerChanges,
    admission,
    consoleLines,
    roster,
    newServers: platform.rateLimitBackend.counter('game-new-servers', config.gameNewServersPerKeyPerMinute, 60),
    logger,
  });
  const moderation = createModerationService({
    db,
    audit,
    commands,
    liveServers: async (ownerId) => realServers(await gameLink.liveServers(ownerId)),
    raise: (userId, build) => notifier.raise(userId, build),
    // The Open Cloud queue is made further down; these run only once requests come in.
    openCloud: {
      hasKey: (ownerId) => restrictions.hasKey(ownerId),
      enqueue: (request) => restrictions.enqueue(request),
      find: (actionId) => restrictions.find(actionId),
      activeBans: async (ownerId) => (await bans.list(ownerId, BANS_FROM_ROBLOX_LISTED)).active,
      forgetImportedBan: (trx, ownerId, robloxUserId) => bans.forget(trx, ownerId, robloxUserId),
    },
    logger,
  });
  settleModeration = (finished) => moderation.commandsFinished(finished);
  // Redis restarted empty: the servers whose pings are held here are alive; say so at once.
  platform.onRedisRestored(() => {
    gameLink.restoreHeldPresence().catch((error: unknown) => logger.warn({ err: error }, 'presence restore failed'));
  });
  const executions = createExecutionsService({
    db,
    bus,
    gameWaitMs: config.gameExecutionWaitMs,
    sandbox: platform.sandboxInWorkers ? queuedSandboxRunner(jobs) : sandboxRunner(sandboxPool),
    syntax: luaTools,
    game: {
      executionServer: gameLink.executionServer,
      queueExecution: async (userId, serverId, code, executionId) => {
        const sent = await gameLink.send(
          userId,
          { type: 'execute', data: { code }, serverId },
          'execution',
          executionId,
        );
        return sent.id;
      },
      waitForResult: (commandId, timeoutMs) => waits.commandFinished(commandId, timeoutMs),
      ping: async (userId, serverId, playerData) => (await gameLink.ping(userId, { serverId, playerData })).commands,
    },
  });
  completeGameRuns = executions.completeGameRuns;
  // The dashboard's simulated game servers run code where dry runs do (docs/decisions/045).
  const simulator = createSimulator({
    apiKeys,
    sandbox: platform.sandboxInWorkers ? queuedSandboxRunner(jobs) : sandboxRunner(sandboxPool),
    presence,
    bus,
    logger,
    otherInstances: platform.mode === 'scale-out',
  });
  const schedules = createSchedulesService({ db, jobs, minIntervalSeconds: config.scheduleMinIntervalSeconds });
  // Due times run wherever the queue runs jobs: this server (embedded) or a worker (scale-out).
  const scheduleRuns = createScheduleRuns({
    db,
    bus,
    jobs,
    executions,
    liveServers: gameLink.liveServers,
    budget: rateLimits.execution,
  });
  const runs = createRunsService({ db });
  const runRetention = createRunRetention({ db, logger });
  const profiles = createPlayerProfiles(config.roblox);
  // The breaker's "open for N ms" is a pause every instance sees: the shared pacer's pause is just that.
  const breakerPause = platform.sharedPacing?.('catalogue-breaker');
  const catalogue = createCatalogueService(config.catalogue, {
    logger,
    shared: platform.sharedPacing?.('catalogue'),
    sharedBreaker: breakerPause && {
      store: { open: (ms) => breakerPause.pacer.pause(ms), openFor: () => breakerPause.pacer.pausedFor() },
      onError: breakerPause.onError,
    },
  });
  const scriptLoader = createScriptLoaderService({
    db,
    tokens: createScriptTokens(loadServerSecret(config.appSecret, config.dataDir), {
      lifetimeDays: config.loaderTokenDays,
    }),
  });
  registerSandboxJob(jobs, sandboxPool);
  const admin = createAdminService({ db, apiKeys, users, audit, presence, gameLink, executions, luaTools, bus });
  const massExecution = createMassExecution({
    db,
    jobs,
    audit,
    gameLink,
    executions,
    luaTools,
    progress: massProgress,
  });
  const idempotency = createIdempotency(db);
  const notifications = createNotificationsService({
    db,
    box: notificationBox,
    urls: {
      discordOrigins: config.notifications.discordOrigins,
      allowedHosts: new Set(config.notifications.allowedHosts),
    },
    notifier,
  });
  const signInAddresses = createSignInAddresses({
    db,
    logger,
    raise: (userId, build) => notifier.raise(userId, build),
  });
  // Open Cloud bans (docs/decisions/038): the key, the durable update queue and the imported bans.
  // Whoever acts on the outcomes (moderation actions) listens on openCloudOutcomes.
  const openCloudBox = createSecretBox(serverSecret, 'open-cloud-keys');
  const openCloudOutcomes = createRestrictionOutcomes(logger);
  const restrictions = createRestrictions({
    db,
    jobs,
    box: openCloudBox,
    clock: systemClock,
    config: config.openCloud,
    logger,
    onOutcome: openCloudOutcomes.tell,
    onlyProcess: platform.mode === 'embedded',
  });
  // Bans and unbans sent through Open Cloud end in the moderation rows that asked for them.
  openCloudOutcomes.listen((actionId, outcome) => {
    moderation
      .recordBanOutcome(actionId, outcome)
      .catch((error: unknown) => logger.warn({ err: error, actionId }, 'recording an Open Cloud outcome failed'));
  });
  const openCloudKeys = createOpenCloudKeys({
    db,
    box: openCloudBox,
    client: createOpenCloudClient({ baseUrl: config.openCloud.baseUrl, now: () => systemClock.now() }),
    clock: systemClock,
    audit,
    onSaved: (userId) => {
      restrictions
        .queueImport(userId)
        .catch((error: unknown) => logger.warn({ err: error }, 'queueing a ban import failed'));
    },
  });
  const bans = createBansService({ db });
  // Counted in memory per request, written in bulk every few seconds (docs/decisions/013).
  const requestMetrics = createRequestMetrics({ db, logger });
  const analytics = createAnalyticsService({ db, flushMetrics: requestMetrics.flush });
  // A socket gets the admins' room (every user's runs and audit entries) only on the terms the admin
  // routes set: REQUIRE_TWO_FACTOR_FOR_ADMINS asks of the session that it passed a second factor.
  const adminPowers = (session: { isAdmin: boolean; secondFactor: SessionSecondFactor | null }) =>
    session.isAdmin && !adminNeedsTwoFactor(config.requireTwoFactorForAdmins, session);
  const identifySocket = async (token: string) => {
    const session = await sessions.resolve(token);
    return session ? { sessionId: session.sessionId, userId: session.userId, isAdmin: adminPowers(session) } : null;
  };
  const socketSessionsStillValid = async (sessionIds: string[]) => {
    const valid = await sessions.stillValid(sessionIds);
    return new Map([...valid].map(([id, session]) => [id, { isAdmin: adminPowers(session) }]));
  };
  const stopThreads = () => Promise.all([sandboxPool.close(), luaToolsThreads.close()]).then(() => undefined);
  return {
    rateLimits,
    registrations,
    apiKeys,
    sessions,
    users,
    accounts,
    twoFactor,
    passkeys,
    accountSecurity,
    oidc,
    scripts,
    luaTools,
    executions,
    schedules,
    scheduleRuns,
    roster,
    players,
    moderation,
    runs,
    runRetention,
    sandboxPool,
    stopThreads,
    bus,
    presence,
    waits,
    commands,
    gameLink,
    consoleLines,
    serverChanges,
    admission,
    profiles,
    catalogue,
    scriptLoader,
    identifySocket,
    socketSessionsStillValid,
    audit,
    jobs,
    admin,
    massExecution,
    massProgress,
    idempotency,
    platform,
    requestMetrics,
    analytics,
    notifier,
    notificationSources,
    notificationDelivery,
    notifications,
    signInAddresses,
    restrictions,
    openCloudOutcomes,
    openCloudKeys,
    bans,
    simulator,
  };
}

export type Services = ReturnType<typeof createServices>;

/**
 * Background sweeps: games that stopped pinging are announced; commands that ran out of time end;
 * runs past the history's retention go (hourly); consoles keep their newest lines.
 */
function startSweeps(services: ReturnType<typeof createServices>, logger: Logger): () => void {
  const every = (ms: number, name: string, work: () => Promise<unknown>) => {
    let running = false;
    const timer = setInterval(() => {
      if (running) return;
      running = true;
      work()
        .catch((error: unknown) => logger.error({ err: error }, `${name} failed`))
        .finally(() => (running = false));
    }, ms);
    timer.unref();
    return () => clearInterval(timer);
  };
  // The open-commands hint loads at once; until then every ping asks the database.
  services.commands.refreshHint().catch((error: unknown) => logger.error({ err: error }, 'command hint failed'));
  const stops = [
    every(DISCONNECT_SWEEP_MS, 'disconnect sweep', () => services.gameLink.sweepDisconnected()),
    every(COMMAND_SWEEP_MS, 'command sweep', async () => {
      await services.commands.sweep();
      await services.commands.refreshHint();
      await services.massProgress.sweep();
      await services.idempotency.prune();
    }),
    every(RUN_RETENTION_SWEEP_MS, 'run retention sweep', () => services.runRetention.sweep()),
    every(CONSOLE_PRUNE_MS, 'console prune', () => services.consoleLines.prune()),
    every(ROSTER_SWEEP_MS, 'player sessions sweep', () => services.roster.sweep()),
    every(MODERATION_SWEEP_MS, 'moderation sweep', () => services.moderation.sweep()),
    every(NOTIFICATION_SWEEP_MS, 'notification sweep', () => services.notificationDelivery.sweep()),
  ];
  return () => stops.forEach((stop) => stop());
}

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
  const services = createServices(config, database, logger, platform, overrides);
  const stopSweeps = startSweeps(services, logger);
  services.restrictions.start();
  // Schedules are set up with the job queue at start-up, and again when Redis comes back empty.
  const startSchedules = () =>
    services.schedules
      .start()
      .then((count) => count && logger.info({ schedules: count }, 'schedules set up'))
      .catch((error: unknown) => logger.error({ err: error }, 'setting schedules up failed'));
  await startSchedules();
  platform.onRedisRestored(() => void startSchedules());
  let hub: ReturnType<typeof attachSocketHub> | undefined;

  const koa = new Koa<AppState>({ proxy: config.trustProxy });
  // Errors after the answer has started (a file stream cut off by the client) reach Koa, not our
  // error middleware. A visitor closing the page mid-download is normal and not worth a log line.
  koa.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'ERR_STREAM_PREMATURE_CLOSE' || error.code === 'ECONNRESET') return;
    logger.error({ err: error }, 'response failed');
  });
  const api = new Router<AppState>();
  mountAuthRoutes(
    api,
    services.rateLimits,
    services.accounts,
    services.registrations,
    services.signInAddresses.signedIn,
  );
  mountOidcRoutes(api, services.rateLimits, services.oidc, services.signInAddresses.signedIn);
  mountUserRoutes(api, services.rateLimits, services.users);
  const serverUrl = createServerUrl({ publicUrl: config.publicUrl, publicHosts: config.publicHosts });
  mountAccountSecurityRoutes(api, services.rateLimits, services.accountSecurity, serverUrl);
  mountTwoFactorRoutes(api, services.rateLimits, {
    twoFactor: services.twoFactor,
    sessions: services.sessions,
    passkeys: services.passkeys,
    accounts: services.accounts,
    users: services.users,
    serverUrl,
    onSignIn: services.signInAddresses.signedIn,
  });
  mountApiKeyRoutes(api, services.rateLimits, { db: database.db, apiKeys: services.apiKeys, audit: services.audit });
  mountExecutionRoutes(api, services.rateLimits, {
    idempotency: services.idempotency,
    executions: services.executions,
    apiKeys: services.apiKeys,
    sessions: services.sessions,
  });
  mountRunRoutes(api, services.rateLimits, services.runs);
  mountScriptRoutes(api, services.rateLimits, services.scripts);
  mountScheduleRoutes(api, services.rateLimits, services.schedules);
  mountModerationRoutes(api, services.rateLimits, { moderation: services.moderation, users: services.users });
  mountPlayerRoutes(api, services.rateLimits, services.players);
  mountLuaToolsRoutes(api, services.rateLimits, services.luaTools);
  const fastRoutes = mountGameRoutes(api, services.rateLimits, {
    idempotency: services.idempotency,
    gameLink: services.gameLink,
    apiKeys: services.apiKeys,
    luaTools: services.luaTools,
    profiles: services.profiles,
    serverUrl,
  });
  mountConsoleRoutes(api, services.rateLimits, services.consoleLines);
  mountSimulatorRoutes(api, services.rateLimits, services.simulator);
  mountCatalogueRoutes(api, services.rateLimits, services.catalogue);
  mountScriptLoaderRoutes(api, services.rateLimits, { loader: services.scriptLoader, serverUrl });
  mountAdminRoutes(api, services.rateLimits, {
    idempotency: services.idempotency,
    admin: services.admin,
    massExecution: services.massExecution,
    users: services.users,
  });
  mountOperationsRoutes(api, services.rateLimits, {
    db: database.db,
    platform,
    metrics: platform.metrics,
    metricsToken: config.metricsToken,
  });
  mountAnalyticsRoutes(api, services.rateLimits, services.analytics);
  mountNotificationRoutes(api, services.rateLimits, services.notifications);
  mountOpenCloudRoutes(api, services.rateLimits, {
    keys: services.openCloudKeys,
    bans: services.bans,
    restrictions: services.restrictions,
  });
  mountOpenApiRoute(api, services.rateLimits, config.rateLimit);

  koa.use(requestLog(logger));
  koa.use(requestMetrics(services.requestMetrics));
  const requestCounts = instrument(platform.metrics, {
    presence: services.presence,
    heldLongPolls: () => services.waits.pending,
  });
  koa.use(requestCounts.middleware);
  koa.use(securityHeaders({ catalogueSiteUrl: config.catalogue.siteUrl }));
  koa.use(errorHandler());
  koa.use(
    apiOnly(
      authenticate({
        ...services,
        requireTwoFactorForAdmins: config.requireTwoFactorForAdmins,
        sudoMethods: services.accountSecurity.sudoMethods,
      }),
    ),
  );
  koa.use(apiOnly(auditKeyChanges({ db: database.db, audit: services.audit })));
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
      services.simulator.serveFrom(server);
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
      // Simulated servers are told to stop first: their held pings, released next, are followed by
      // their last ping rather than another long-poll.
      void services.simulator.stopAll();
      services.waits.releaseAll();
      hub?.cutConnections();
    },
    // Sweeps and push first, then threads (in-flight requests have finished by now), the database last.
    close: async () => {
      await services.simulator.close();
      stopSweeps();
      // Requests to Roblox in flight are cut: their updates stay queued for the next start.
      await services.restrictions.stop();
      services.waits.releaseAll();
      await services.gameLink.flushSaves();
      // The broadcasts' last totals are told before the bus closes.
      await services.commands.flushBroadcastProgress().catch(() => undefined);
      services.commands.close();
      services.serverChanges.close();
      // Bursts gathered so far are raised and stored before the queue closes.
      services.notificationSources.flush();
      await services.notifier.close();
      await services.notificationDelivery.close();
      // The lines still queued are stored (the pings that brought them were answered).
      await services.consoleLines.close();
      services.admission.close();
      await services.jobs.close();
      await hub?.close();
      await services.bus.close();
      await services.presence.close();
      await services.stopThreads();
      await platform.close();
      // Counts of the last seconds, before the database closes.
      await services.requestMetrics.close();
      await database.close();
    },
  };
}
