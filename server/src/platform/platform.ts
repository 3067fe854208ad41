import type { Redis } from 'ioredis';
import { GAME_CONNECTED_WINDOW_MS } from '@moonrelay/contract/constants';
import type { Config } from '../config.ts';
import type { Logger } from '../logger.ts';
import { createMemoryEventBus, type EventBus } from './event-bus.ts';
import { createMemoryJobQueue, type JobQueue } from './job-queue.ts';
import { createMetrics, type Metrics } from './metrics.ts';
import { createMemoryPresence, type Presence } from './presence.ts';
import { memoryRateLimitBackend, redisRateLimitBackend, type RateLimitBackend } from './rate-limits.ts';
import { createBullJobQueue } from './redis/bull-job-queue.ts';
import { connectRedis, redisAnswers } from './redis/connection.ts';
import { createRedisEventBus } from './redis/redis-event-bus.ts';
import { createRedisPacer } from './redis/redis-pacer.ts';
import { createRedisPresence } from './redis/redis-presence.ts';
import type { SharedPacer } from './shared-pacer.ts';

/** Jobs one process runs at once (mass-execution parts wait up to 8 s for a game; sandbox runs are short). */
const JOB_CONCURRENCY = 16;
/** Notification deliveries one worker runs at once (each mostly waits on a webhook's answer). */
const NOTIFICATION_JOB_CONCURRENCY = 32;

/**
 * The swappable pieces, chosen once: the embedded mode keeps them in this process; with REDIS_URL
 * (the scale-out mode) they live in Redis so any number of instances and workers share them.
 * Features receive these interfaces and never ask which mode they are in.
 */
export interface Platform {
  mode: 'embedded' | 'scale-out';
  bus: EventBus;
  presence: Presence;
  rateLimitBackend: RateLimitBackend;
  jobs: JobQueue;
  /**
   * Notification deliveries (scale-out only): a queue of their own, so slow webhooks and Discord's
   * rate limits never take the worker slots sandbox runs wait for. The embedded mode delivers in a
   * lane of its own instead (notifications/delivery.ts).
   */
  notificationJobs?: JobQueue;
  metrics: Metrics;
  /** Sandbox runs go to worker processes through the job queue (scale-out) or run in this process. */
  sandboxInWorkers: boolean;
  /**
   * Pacing shared by every instance for calls to a third party (scale-out only), with where its
   * failures are reported (logged and counted; the caller then paces on its own).
   */
  sharedPacing?: (name: string) => { pacer: SharedPacer; onError(error: unknown): void };
  /** Redis clients for the Socket.IO adapter (scale-out only). */
  socketAdapterClients?: { pub: Redis; sub: Redis };
  /** 'disabled' in the embedded mode. */
  redisStatus(): Promise<'ok' | 'error' | 'disabled'>;
  /**
   * Runs `listener` each time Redis answers again after an outage (scale-out only). Redis keeps
   * nothing on disk here, so what lived in it (presence) may be gone and is put back from memory.
   */
  onRedisRestored(listener: () => void): void;
  close(): Promise<void>;
}

export function createPlatform(config: Config, logger: Logger, role: 'server' | 'worker' = 'server'): Platform {
  const metrics = createMetrics();
  const busErrors = metrics.counter('moonrelay_event_bus_errors_total', 'Event handlers or deliveries that failed');
  const storeErrors = metrics.counter(
    'moonrelay_rate_limit_store_errors_total',
    'Rate-limit store calls that failed (answered from instance memory instead)',
    'limit',
  );
  const pacerErrors = metrics.counter(
    'moonrelay_shared_pacer_errors_total',
    'Shared pacer calls that failed (the instance paced its own calls instead)',
    'pacer',
  );
  const jobErrors = metrics.counter('moonrelay_job_failures_total', 'Jobs that failed', 'job');
  const onBusError = (error: unknown, event?: { type: string }) => {
    busErrors.inc();
    logger.error({ err: error, event: event?.type }, 'event handler failed');
  };
  const onJobError = (error: unknown, name: string) => {
    jobErrors.inc(name);
    logger.error({ err: error, job: name }, 'job failed');
  };

  if (!config.redisUrl) {
    return {
      mode: 'embedded',
      bus: createMemoryEventBus(onBusError),
      presence: createMemoryPresence(GAME_CONNECTED_WINDOW_MS, config.gameMaxServersPerKey),
      rateLimitBackend: memoryRateLimitBackend,
      jobs: createMemoryJobQueue({ concurrency: JOB_CONCURRENCY, onError: onJobError }),
      metrics,
      sandboxInWorkers: false,
      redisStatus: async () => 'disabled',
      onRedisRestored: () => {},
      close: async () => {},
    };
  }

  const url = config.redisUrl;
  const restoredListeners: (() => void)[] = [];
  // Calls that fall back while Redis is away (rate limits, pacing) fail on every request: one line
  // per kind a minute says so (the counters count each), not one per request.
  const lastWarned = new Map<string, number>();
  const warnAtMostEveryMinute = (kind: string, fields: Record<string, unknown>, message: string) => {
    const now = Date.now();
    if (now - (lastWarned.get(kind) ?? -Infinity) < 60_000) return;
    lastWarned.set(kind, now);
    logger.warn(fields, `${message} (said once a minute; every failure is counted in the metrics)`);
  };
  restoredListeners.push(() => lastWarned.clear());
  const commands = connectRedis(url, 'commands', logger, {
    onRestored: () => restoredListeners.forEach((listener) => listener()),
  });
  const publisher = connectRedis(url, 'publisher', logger);
  const subscriber = connectRedis(url, 'subscriber', logger);
  const socketPub = connectRedis(url, 'socket-pub', logger);
  const socketSub = connectRedis(url, 'socket-sub', logger);
  const jobs = createBullJobQueue({
    connection: connectRedis(url, 'jobs', logger, { forBullMq: true }),
    consume: role === 'worker',
    concurrency: JOB_CONCURRENCY,
    stalledAfterMs: config.jobStalledAfterSeconds * 1000,
    onError: onJobError,
  });
  const notificationJobs = createBullJobQueue({
    connection: connectRedis(url, 'notification-jobs', logger, { forBullMq: true }),
    name: 'moonrelay-notifications',
    consume: role === 'worker',
    concurrency: NOTIFICATION_JOB_CONCURRENCY,
    stalledAfterMs: config.jobStalledAfterSeconds * 1000,
    onError: onJobError,
  });
  return {
    mode: 'scale-out',
    bus: createRedisEventBus({ publisher, subscriber, onError: onBusError }),
    presence: createRedisPresence(commands, GAME_CONNECTED_WINDOW_MS, config.gameMaxServersPerKey),
    rateLimitBackend: redisRateLimitBackend(commands, (error, name) => {
      storeErrors.inc(name);
      warnAtMostEveryMinute(
        `limit:${name}`,
        { err: error instanceof Error ? error.message : error, limit: name },
        'rate-limit store failed',
      );
    }),
    jobs,
    notificationJobs,
    metrics,
    sandboxInWorkers: true,
    sharedPacing: (name) => ({
      pacer: createRedisPacer(commands, name),
      onError: (error) => {
        pacerErrors.inc(name);
        warnAtMostEveryMinute(
          `pacer:${name}`,
          { err: error instanceof Error ? error.message : error, pacer: name },
          'shared pacer failed',
        );
      },
    }),
    socketAdapterClients: { pub: socketPub, sub: socketSub },
    redisStatus: async () => ((await redisAnswers(commands)) ? 'ok' : 'error'),
    onRedisRestored: (listener) => restoredListeners.push(listener),
    close: async () => {
      await jobs.close();
      await notificationJobs.close();
      for (const client of [commands, publisher, subscriber, socketPub, socketSub]) client.disconnect();
    },
  };
}
