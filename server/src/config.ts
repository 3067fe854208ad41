import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { SCHEDULE_MIN_INTERVAL_SECONDS_DEFAULT } from '@moonrelay/contract/schedules';
import { PLAYER_SESSION_RETENTION_DAYS_DEFAULT } from '@moonrelay/contract/players';
import {
  CATALOGUE_CACHE_MS,
  CATALOGUE_MIN_INTERVAL_MS,
  CATALOGUE_SITE_URL,
  CATALOGUE_TIMEOUT_MS,
  GAME_EXECUTION_WAIT_MS,
  CONSOLE_KEEP_LINES_PER_SERVER,
  CONSOLE_USER_LINES_PER_MINUTE,
  RATE_LIMIT_EXECUTION_PER_MINUTE,
  RATE_LIMIT_GAME_PING_PER_MINUTE,
  RATE_LIMIT_GENERAL_PER_MINUTE,
} from '@moonrelay/contract/constants';

/**
 * The only reader of process.env. Every setting is listed in .env.example and docs/configuration.md.
 * Invalid settings stop the server at start with a message naming each one.
 */

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * Player records an owner may have (2.5 times the 100,000 online one owner's fleet is built for,
 * room for its turnover), and days a player may go unseen before their record is pruned
 * (decision 036, "Limits").
 */
const PLAYER_RECORDS_MAX_DEFAULT = 250_000;
const PLAYER_RECORDS_KEEP_DAYS_DEFAULT = 90;

/**
 * Where Discord serves webhooks (NOTIFY_DISCORD_ORIGINS); the operator can point it elsewhere
 * (tests: a local fake). A Discord destination's URL must start with one of these.
 */
const DISCORD_WEBHOOK_ORIGINS_DEFAULT = [
  'https://discord.com',
  'https://discordapp.com',
  'https://ptb.discord.com',
  'https://canary.discord.com',
];

const emailList = z
  .string()
  .default('')
  .transform((list) =>
    list
      .split(',')
      .map((email) => email.trim().toLowerCase())
      .filter(Boolean),
  );

/** An http(s) base URL, kept without its trailing slash. */
const httpUrl = z
  .string()
  .regex(/^https?:\/\/[^\s]+$/, 'must be an http:// or https:// URL')
  .transform((url) => url.replace(/\/+$/, ''));

/** Text whose empty value (`NAME=` in an env file) means unset. */
const optionalText = z
  .string()
  .optional()
  .transform((value) => value?.trim() || undefined);

/** Every setting, by its environment variable's name (settings-docs.test.ts holds the docs to it). */
export const EnvSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  HOST: z.string().default('0.0.0.0'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  DATA_DIR: z.string().default('./data'),
  DATABASE_URL: z
    .string()
    .regex(/^(postgres(ql)?:\/\/|sqlite:)/, 'must start with postgres://, postgresql:// or sqlite:')
    .optional(),
  APP_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  ADMIN_EMAILS: emailList,
  RATE_LIMIT_PER_MINUTE: z.coerce.number().int().positive().default(RATE_LIMIT_GENERAL_PER_MINUTE),
  RATE_LIMIT_EXECUTION_PER_MINUTE: z.coerce.number().int().positive().default(RATE_LIMIT_EXECUTION_PER_MINUTE),
  RATE_LIMIT_GAME_PING_PER_MINUTE: z.coerce.number().int().positive().default(RATE_LIMIT_GAME_PING_PER_MINUTE),
  PUBLIC_URL: httpUrl.optional(),
  PUBLIC_HOSTS: z
    .string()
    .default('localhost,127.0.0.1,[::1]')
    .transform((list) =>
      list
        .split(',')
        .map((host) => host.trim().toLowerCase())
        .filter(Boolean),
    ),
  REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\/\S+$/, 'must start with redis:// or rediss://')
    .optional(),
  // BullMQ's job lock and its stalled-job check (30 s each by default): a job of a worker that died
  // runs again on another within about twice this.
  JOB_STALLED_AFTER_SECONDS: z.coerce.number().int().min(5).max(600).default(30),
  METRICS_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
  ROBLOX_USERS_API_URL: httpUrl.default('https://users.roblox.com'),
  ROBLOX_THUMBNAILS_API_URL: httpUrl.default('https://thumbnails.roblox.com'),
  ROBLOX_OPEN_CLOUD_URL: httpUrl.default('https://apis.roblox.com'),
  OPEN_CLOUD_RETRY_BASE_MS: z.coerce.number().int().min(1).max(300_000).default(1_000),
  // At least 40 s: renewed every half lease before an update, it outlasts one call (15 s) plus the
  // wait a job sits out (2 s), so a live process never loses an owner's sending mid-call.
  OPEN_CLOUD_LEASE_MS: z.coerce.number().int().min(40_000).max(3_600_000).default(60_000),
  // Cloud runs (docs/decisions/050): how often a running task is read, how long past its timeout a
  // task may stay unfinished before it is given up on, and Roblox's documented limit of unfinished
  // tasks per place (a 429 lowers it where Roblox says less).
  CLOUD_RUN_POLL_MS: z.coerce.number().int().min(50).max(60_000).default(2_000),
  CLOUD_RUN_MARGIN_MS: z.coerce.number().int().min(0).max(3_600_000).default(120_000),
  OPEN_CLOUD_UNFINISHED_PER_PLACE: z.coerce.number().int().min(1).max(1_000).default(10),
  SCRIPTBLOX_API_URL: httpUrl.default('https://scriptblox.com/api'),
  SCRIPTBLOX_SITE_URL: httpUrl.default(CATALOGUE_SITE_URL),
  SCRIPTBLOX_TIMEOUT_MS: z.coerce.number().int().positive().max(60_000).default(CATALOGUE_TIMEOUT_MS),
  SCRIPTBLOX_CACHE_SECONDS: z.coerce
    .number()
    .int()
    .min(0)
    .default(CATALOGUE_CACHE_MS / 1000),
  SCRIPTBLOX_MIN_INTERVAL_MS: z.coerce.number().int().min(0).max(60_000).default(CATALOGUE_MIN_INTERVAL_MS),
  LOGIN_MAX_FAILURES: z.coerce.number().int().positive().default(5),
  LOGIN_LOCKOUT_MINUTES: z.coerce.number().positive().default(15),
  REGISTRATIONS_PER_IP_PER_HOUR: z.coerce.number().int().positive().default(20),
  TRUST_PROXY: z
    .enum(['true', 'false'])
    .default('false')
    .transform((value) => value === 'true'),
  REQUIRE_TWO_FACTOR_FOR_ADMINS: z
    .enum(['true', 'false'], 'must be true or false')
    .default('false')
    .transform((value) => value === 'true'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  WEB_DIST_DIR: z.string().default(path.join(repoRoot, 'web/dist')),
  SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().positive().default(10_000),
  SOCKET_RECHECK_MS: z.coerce.number().int().min(100).max(300_000).default(15_000),
  GAME_SHED_LAG_MS: z.coerce.number().int().min(0).max(60_000).default(500),
  GAME_MAX_SERVERS_PER_KEY: z.coerce.number().int().min(1).max(1_000_000).default(25_000),
  GAME_NEW_SERVERS_PER_KEY_PER_MINUTE: z.coerce.number().int().min(1).max(1_000_000).default(12_000),
  GAME_EXECUTION_WAIT_MS: z.coerce.number().int().min(0).max(30_000).default(GAME_EXECUTION_WAIT_MS),
  LOADER_TOKEN_DAYS: z.coerce.number().int().min(1).max(3650).default(30),
  SCHEDULE_MIN_INTERVAL_SECONDS: z.coerce
    .number()
    .int()
    .min(1)
    .max(SCHEDULE_MIN_INTERVAL_SECONDS_DEFAULT)
    .default(SCHEDULE_MIN_INTERVAL_SECONDS_DEFAULT),
  PLAYER_SESSION_RETENTION_DAYS: z.coerce
    .number()
    .int()
    .min(1)
    .max(3650)
    .default(PLAYER_SESSION_RETENTION_DAYS_DEFAULT),
  PLAYER_RECORDS_MAX: z.coerce.number().int().min(1).max(100_000_000).default(PLAYER_RECORDS_MAX_DEFAULT),
  PLAYER_RECORDS_KEEP_DAYS: z.coerce.number().int().min(1).max(36_500).default(PLAYER_RECORDS_KEEP_DAYS_DEFAULT),
  CONSOLE_LINES_PER_SERVER: z.coerce.number().int().min(100).max(1_000_000).default(CONSOLE_KEEP_LINES_PER_SERVER),
  CONSOLE_LINES_PER_USER_PER_MINUTE: z.coerce
    .number()
    .int()
    .min(1)
    .max(100_000_000)
    .default(CONSOLE_USER_LINES_PER_MINUTE),
  NOTIFY_ALLOWED_HOSTS: z
    .string()
    .default('')
    .transform((list) =>
      list
        .split(',')
        .map((host) =>
          host
            .trim()
            .toLowerCase()
            .replace(/^\[(.*)\]$/, '$1'),
        )
        .filter(Boolean),
    ),
  NOTIFY_DISCORD_ORIGINS: z
    .string()
    .default(DISCORD_WEBHOOK_ORIGINS_DEFAULT.join(','))
    .transform((list) =>
      list
        .split(',')
        .map((origin) => origin.trim().replace(/\/+$/, ''))
        .filter(Boolean),
    ),
  NOTIFY_RETRY_BASE_MS: z.coerce.number().int().min(1).max(3_600_000).default(10_000),
  // At least 30 s: longer than one attempt (10 s) plus the wait a job sits out (10 s), so a live
  // process never loses its destination mid-attempt.
  NOTIFY_LEASE_MS: z.coerce.number().int().min(30_000).max(3_600_000).default(60_000),
  SANDBOX_THREADS: z.coerce.number().int().positive().max(64).optional(),
  SANDBOX_MAX_QUEUE: z.coerce.number().int().positive().optional(),
  OIDC_ISSUER_URL: httpUrl.default('https://accounts.google.com'),
  OIDC_CLIENT_ID: optionalText,
  OIDC_CLIENT_SECRET: optionalText,
  OIDC_PROVIDER_NAME: z.string().trim().min(1).max(40, 'must be at most 40 characters').default('Google'),
});

export type DatabaseConfig = { kind: 'sqlite'; file: string } | { kind: 'postgres'; url: string };

export interface Config {
  env: 'development' | 'production' | 'test';
  host: string;
  port: number;
  dataDir: string;
  database: DatabaseConfig;
  /** Undefined means: read or create `<dataDir>/secret.key`. */
  appSecret: string | undefined;
  adminEmails: string[];
  rateLimit: { generalPerMinute: number; executionPerMinute: number; gamePingPerMinute: number };
  /** Set: the scale-out mode (presence, events, rate limits, jobs and socket fan-out in Redis). */
  redisUrl: string | undefined;
  /** How long a worker's job stays locked without the worker renewing it before it counts as stalled. */
  jobStalledAfterSeconds: number;
  /** Bearer token for GET /metrics; without it the metrics are not served. */
  metricsToken: string | undefined;
  /** The address games and people reach this server at; undefined: the address of each request. */
  publicUrl: string | undefined;
  /** Without PUBLIC_URL: the host names a request may name to have its address written into scripts. */
  publicHosts: string[];
  /** Roblox web APIs for player profiles (configurable so tests can answer locally). */
  roblox: { usersApiUrl: string; thumbnailsApiUrl: string };
  /**
   * The script catalogue (ScriptBlox): its API, the site whose host prefixes `/images/...` paths,
   * the upstream timeout, how long answers are cached, and the least time between two upstream calls.
   */
  catalogue: { apiUrl: string; siteUrl: string; timeoutMs: number; cacheMs: number; minIntervalMs: number };
  loginThrottle: { maxFailures: number; lockoutSeconds: number };
  /** Accounts one IP address may register an hour. */
  registrationsPerIpPerHour: number;
  trustProxy: boolean;
  /** Admins without a second factor are refused the admin routes until they set one up. */
  requireTwoFactorForAdmins: boolean;
  logLevel: string;
  webDistDir: string;
  shutdownTimeoutMs: number;
  /** How often open sockets are checked against their sessions and roles. */
  socketRecheckMs: number;
  /** Event-loop delay past which new game servers are refused with 503 + Retry-After (0: never). */
  gameShedLagMs: number;
  /** Game servers one API key may have known at once (live, or gone within the last 10 minutes). */
  gameMaxServersPerKey: number;
  /** Game servers one API key may connect for the first time in a minute. */
  gameNewServersPerKeyPerMinute: number;
  /**
   * How long an execute call on the game target waits for the game's result before answering it
   * queued (the result then arrives as an `execution:result` event and in the history).
   */
  gameExecutionWaitMs: number;
  /**
   * The shortest interval a schedule may have, in seconds (60; less only for trying schedules out,
   * as the real-time test does).
   */
  scheduleMinIntervalSeconds: number;
  /** Days a long script's loader URL works after it is issued. */
  loaderTokenDays: number;
  /**
   * The live game console: lines kept per game server (older ones are pruned in the background),
   * and lines one account may store a minute on this instance (past it they are dropped and counted).
   */
  console: { linesPerServer: number; userLinesPerMinute: number };
  /** Days a player's finished sessions are kept (their record and totals stay). */
  playerSessionRetentionDays: number;
  /** Player records an owner may have; new players past it are not recorded (docs/protocol.md, "Roster"). */
  playerRecordsMax: number;
  /** Days a player may go unseen before their record is pruned (moderated players stay). */
  playerRecordsKeepDays: number;
  /** Lua sandbox threads (default: one per core, at least 2) and how many runs may wait for one. */
  sandbox: { threads: number | undefined; maxQueue: number | undefined };
  /**
   * Sign-in with an OpenID Connect identity provider (Google by default), found through discovery
   * at `issuerUrl`. Without a client the sign-in screen's button stays disabled.
   */
  oidc: { issuerUrl: string; providerName: string; client: { id: string; secret: string } | undefined };
  /**
   * Notifications: hosts a webhook may reach even on a private address (and over http), the
   * origins a Discord webhook URL may have, the first retry's wait, and how long a delivering
   * process holds a destination (another takes it over after that when the first died).
   */
  notifications: { allowedHosts: string[]; discordOrigins: string[]; retryBaseMs: number; leaseMs: number };
  /** Roblox Open Cloud (bans with no game server running): its base URL and the first retry's wait. */
  openCloud: { baseUrl: string; retryBaseMs: number; leaseMs: number };
  /** Cloud runs: reads of a running task, the margin past its timeout, Roblox's unfinished tasks per place. */
  cloudRuns: { pollMs: number; marginMs: number; unfinishedPerPlace: number };
}

export class ConfigError extends Error {}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  if (Boolean(e.OIDC_CLIENT_ID) !== Boolean(e.OIDC_CLIENT_SECRET)) {
    const missing = e.OIDC_CLIENT_ID ? 'OIDC_CLIENT_SECRET' : 'OIDC_CLIENT_ID';
    throw new ConfigError(`Invalid configuration:\n  ${missing}: required when the other OIDC client setting is set`);
  }
  const dataDir = path.resolve(e.DATA_DIR);
  let database: DatabaseConfig;
  if (e.DATABASE_URL?.startsWith('postgres')) database = { kind: 'postgres', url: e.DATABASE_URL };
  else if (e.DATABASE_URL) database = { kind: 'sqlite', file: path.resolve(e.DATABASE_URL.slice('sqlite:'.length)) };
  else database = { kind: 'sqlite', file: path.join(dataDir, 'moonrelay.db') };

  return {
    env: e.NODE_ENV,
    host: e.HOST,
    port: e.PORT,
    dataDir,
    database,
    appSecret: e.APP_SECRET,
    adminEmails: e.ADMIN_EMAILS,
    rateLimit: {
      generalPerMinute: e.RATE_LIMIT_PER_MINUTE,
      executionPerMinute: e.RATE_LIMIT_EXECUTION_PER_MINUTE,
      gamePingPerMinute: e.RATE_LIMIT_GAME_PING_PER_MINUTE,
    },
    publicUrl: e.PUBLIC_URL,
    publicHosts: e.PUBLIC_HOSTS,
    redisUrl: e.REDIS_URL,
    jobStalledAfterSeconds: e.JOB_STALLED_AFTER_SECONDS,
    metricsToken: e.METRICS_TOKEN,
    roblox: { usersApiUrl: e.ROBLOX_USERS_API_URL, thumbnailsApiUrl: e.ROBLOX_THUMBNAILS_API_URL },
    catalogue: {
      apiUrl: e.SCRIPTBLOX_API_URL,
      siteUrl: e.SCRIPTBLOX_SITE_URL,
      timeoutMs: e.SCRIPTBLOX_TIMEOUT_MS,
      cacheMs: e.SCRIPTBLOX_CACHE_SECONDS * 1000,
      minIntervalMs: e.SCRIPTBLOX_MIN_INTERVAL_MS,
    },
    loginThrottle: { maxFailures: e.LOGIN_MAX_FAILURES, lockoutSeconds: Math.round(e.LOGIN_LOCKOUT_MINUTES * 60) },
    registrationsPerIpPerHour: e.REGISTRATIONS_PER_IP_PER_HOUR,
    trustProxy: e.TRUST_PROXY,
    requireTwoFactorForAdmins: e.REQUIRE_TWO_FACTOR_FOR_ADMINS,
    logLevel: e.LOG_LEVEL,
    webDistDir: path.resolve(e.WEB_DIST_DIR),
    shutdownTimeoutMs: e.SHUTDOWN_TIMEOUT_MS,
    socketRecheckMs: e.SOCKET_RECHECK_MS,
    gameShedLagMs: e.GAME_SHED_LAG_MS,
    gameMaxServersPerKey: e.GAME_MAX_SERVERS_PER_KEY,
    gameNewServersPerKeyPerMinute: e.GAME_NEW_SERVERS_PER_KEY_PER_MINUTE,
    gameExecutionWaitMs: e.GAME_EXECUTION_WAIT_MS,
    scheduleMinIntervalSeconds: e.SCHEDULE_MIN_INTERVAL_SECONDS,
    loaderTokenDays: e.LOADER_TOKEN_DAYS,
    console: { linesPerServer: e.CONSOLE_LINES_PER_SERVER, userLinesPerMinute: e.CONSOLE_LINES_PER_USER_PER_MINUTE },
    playerSessionRetentionDays: e.PLAYER_SESSION_RETENTION_DAYS,
    playerRecordsMax: e.PLAYER_RECORDS_MAX,
    playerRecordsKeepDays: e.PLAYER_RECORDS_KEEP_DAYS,
    sandbox: { threads: e.SANDBOX_THREADS, maxQueue: e.SANDBOX_MAX_QUEUE },
    openCloud: {
      baseUrl: e.ROBLOX_OPEN_CLOUD_URL,
      retryBaseMs: e.OPEN_CLOUD_RETRY_BASE_MS,
      leaseMs: e.OPEN_CLOUD_LEASE_MS,
    },
    cloudRuns: {
      pollMs: e.CLOUD_RUN_POLL_MS,
      marginMs: e.CLOUD_RUN_MARGIN_MS,
      unfinishedPerPlace: e.OPEN_CLOUD_UNFINISHED_PER_PLACE,
    },
    notifications: {
      allowedHosts: e.NOTIFY_ALLOWED_HOSTS,
      discordOrigins: e.NOTIFY_DISCORD_ORIGINS,
      retryBaseMs: e.NOTIFY_RETRY_BASE_MS,
      leaseMs: e.NOTIFY_LEASE_MS,
    },
    oidc: {
      issuerUrl: e.OIDC_ISSUER_URL,
      providerName: e.OIDC_PROVIDER_NAME,
      client:
        e.OIDC_CLIENT_ID && e.OIDC_CLIENT_SECRET ? { id: e.OIDC_CLIENT_ID, secret: e.OIDC_CLIENT_SECRET } : undefined,
    },
  };
}
