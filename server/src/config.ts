import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { RATE_LIMIT_EXECUTION_PER_MINUTE, RATE_LIMIT_GENERAL_PER_MINUTE } from '@moonrelay/contract/constants';

/**
 * The only reader of process.env. Every setting is listed in .env.example and the README.
 * Invalid settings stop the server at start with a message naming each one.
 */

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

const emailList = z
  .string()
  .default('')
  .transform((list) =>
    list
      .split(',')
      .map((email) => email.trim().toLowerCase())
      .filter(Boolean),
  );

const EnvSchema = z.object({
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
  LOGIN_MAX_FAILURES: z.coerce.number().int().positive().default(5),
  LOGIN_LOCKOUT_MINUTES: z.coerce.number().positive().default(15),
  TRUST_PROXY: z
    .enum(['true', 'false'])
    .default('false')
    .transform((value) => value === 'true'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  WEB_DIST_DIR: z.string().default(path.join(repoRoot, 'web/dist')),
  SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().positive().default(10_000),
  SANDBOX_THREADS: z.coerce.number().int().positive().max(64).optional(),
  SANDBOX_MAX_QUEUE: z.coerce.number().int().positive().optional(),
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
  rateLimit: { generalPerMinute: number; executionPerMinute: number };
  loginThrottle: { maxFailures: number; lockoutSeconds: number };
  trustProxy: boolean;
  logLevel: string;
  webDistDir: string;
  shutdownTimeoutMs: number;
  /** Lua sandbox threads (default: one per core, at least 2) and how many runs may wait for one. */
  sandbox: { threads: number | undefined; maxQueue: number | undefined };
}

export class ConfigError extends Error {}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
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
    rateLimit: { generalPerMinute: e.RATE_LIMIT_PER_MINUTE, executionPerMinute: e.RATE_LIMIT_EXECUTION_PER_MINUTE },
    loginThrottle: { maxFailures: e.LOGIN_MAX_FAILURES, lockoutSeconds: Math.round(e.LOGIN_LOCKOUT_MINUTES * 60) },
    trustProxy: e.TRUST_PROXY,
    logLevel: e.LOG_LEVEL,
    webDistDir: path.resolve(e.WEB_DIST_DIR),
    shutdownTimeoutMs: e.SHUTDOWN_TIMEOUT_MS,
    sandbox: { threads: e.SANDBOX_THREADS, maxQueue: e.SANDBOX_MAX_QUEUE },
  };
}
