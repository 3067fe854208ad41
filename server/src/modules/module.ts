import type http from 'node:http';
import type Router from '@koa/router';
import type { Middleware } from 'koa';
import type { Config } from '../config.ts';
import type { DatabaseHandle, Db } from '../db/database.ts';
import type { AppState } from '../http/context.ts';
import type { FastRoute } from '../http/fast-routes.ts';
import type { Idempotency } from '../http/idempotency.ts';
import type { RateLimits } from '../http/rate-limit.ts';
import type { ServerUrl } from '../http/server-url.ts';
import type { Logger } from '../logger.ts';
import type { EventBus } from '../platform/event-bus.ts';
import type { JobQueue } from '../platform/job-queue.ts';
import type { Platform } from '../platform/platform.ts';
import type { Presence } from '../platform/presence.ts';
import type { WindowCounter } from '../platform/rate-limits.ts';
import type { Reactions } from '../platform/reactions.ts';
import type { SecretBox } from '../security/secret-box.ts';
import type { OutboundNetwork } from './notifications/outbound-http.ts';

/** Parts a test replaces: what notification deliveries resolve and dial. */
export interface AppOverrides {
  notificationNetwork?: OutboundNetwork;
}

/**
 * What every module may use: the process's settings, database and platform (bus, presence, jobs,
 * counters), the in-process reactions, and the HTTP pieces its routes share.
 */
export interface ModuleContext {
  config: Config;
  database: DatabaseHandle;
  db: Db;
  logger: Logger;
  platform: Platform;
  bus: EventBus;
  presence: Presence;
  jobs: JobQueue;
  reactions: Reactions;
  rateLimits: RateLimits;
  /**
   * Failed sign-ins and second-factor proofs per account (LOGIN_MAX_FAILURES in
   * LOGIN_LOCKOUT_MINUTES): one count, spent by the password, the code and the passkey alike.
   */
  loginAttempts: WindowCounter;
  idempotency: Idempotency;
  serverUrl: ServerUrl;
  /** A counter shared by every module that names it (the same name answers the same counter). */
  counter(name: string, limit: number, windowSeconds: number): WindowCounter;
  /** The server's secret (APP_SECRET, or the one generated under the data folder). */
  serverSecret: string;
  /** Encrypts and decrypts one kind of stored secret with the server's secret. */
  secretBox(purpose: string): SecretBox;
  overrides: AppOverrides;
}

/** Background work a module repeats while the server runs (never in a worker process). */
export interface Sweep {
  name: string;
  everyMs: number;
  run(): Promise<unknown>;
}

/**
 * What a module gives the process. Each part is optional; the composition root (app.ts) and the
 * worker (worker-main.ts) take the parts they run.
 */
export interface ModuleEntry<Services extends object, RouteNeeds = unknown> {
  /** What other modules, the HTTP stack and the tests use. */
  services: Services;
  /**
   * Mounts the module's API routes once every module is built; answers the fast routes (served
   * before Koa) if it has any. `services` holds every module's services, for the few routes that
   * call a module built after this one (the second-factor sign-in calls auth's accounts).
   */
  routes?: (api: Router<AppState>, services: RouteNeeds) => FastRoute[] | void;
  /** Middleware for /api requests, after authentication. */
  apiMiddleware?: Middleware<AppState>[];
  sweeps?: Sweep[];
  /** Runs once every module is built, before the server listens (a server instance only). */
  start?(): Promise<void>;
  /** Runs once the HTTP server exists (a server instance only): for a module that needs its address. */
  attach?(server: http.Server): void;
  /**
   * Answers what it holds open (long-polls, held calls) so the HTTP server can close promptly;
   * modules drain in the reverse of their order.
   */
  drain?(): void;
  /** Releases what it holds, after the HTTP server closed; modules close in the reverse of their order. */
  close?(): Promise<void>;
  /** Stops its threads, once the job queue has closed (no job runs on them any more). */
  release?(): Promise<void>;
}

/** Makes a module entry with its services typed as given (a helper for inference only). */
export const moduleEntry = <Services extends object, RouteNeeds = unknown>(
  entry: ModuleEntry<Services, RouteNeeds>,
): ModuleEntry<Services, RouteNeeds> => entry;
