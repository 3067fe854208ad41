import { Redis } from 'ioredis';
import type { Logger } from '../../logger.ts';

/**
 * A Redis connection that reconnects by itself (ioredis retries with backoff) and says so in the
 * log once per state change, not once per retry.
 */
export function connectRedis(
  url: string,
  name: string,
  logger: Logger,
  options: { forBullMq?: boolean; onRestored?: () => void } = {},
): Redis {
  const redis = new Redis(url, {
    connectionName: `moonrelay-${name}`,
    // BullMQ requires blocking connections to retry forever; plain commands give up after a few tries
    // so a request during an outage fails fast (503) instead of hanging.
    maxRetriesPerRequest: options.forBullMq ? null : 2,
    enableReadyCheck: true,
    retryStrategy: (times) => Math.min(100 * 2 ** Math.min(times, 6), 5_000),
  });
  let down = false;
  // While Redis is away (after having answered once), a plain command fails at once instead of
  // waiting in ioredis's offline queue through the retries: the request it belongs to is answered
  // 503 with Retry-After right away (redisUnavailable). Before the first connection, commands wait
  // as usual, so start-up does not race the connection. BullMQ's blocking connections keep their
  // queue: they must survive an outage on their own.
  const failFastWhileDown = (failFast: boolean) => {
    if (!options.forBullMq) redis.options.enableOfflineQueue = !failFast;
  };
  redis.on('ready', () => {
    if (down) {
      logger.info({ redis: name }, 'redis connection restored');
      options.onRestored?.();
    }
    down = false;
    failFastWhileDown(false);
  });
  const lost = (reason: string) => {
    if (!down) logger.warn({ redis: name, err: reason }, 'redis connection lost; reconnecting');
    down = true;
    failFastWhileDown(true);
  };
  redis.on('error', (error: Error) => lost(error.message));
  redis.on('close', () => {
    if (redis.status !== 'end') lost('connection closed');
  });
  return redis;
}

/** ioredis's messages for a command that could not reach Redis (an outage, a restart). */
const REDIS_UNREACHABLE =
  /^(Stream isn't writeable|Connection is closed|Reached the max retries per request limit|Command timed out)/;

/**
 * Whether a failed call failed because Redis could not be reached: the request is then answered
 * 503 with Retry-After (see http/error-handler.ts), not 500.
 */
export function redisUnavailable(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { name, message } = error as { name?: unknown; message?: unknown };
  return name === 'MaxRetriesPerRequestError' || (typeof message === 'string' && REDIS_UNREACHABLE.test(message));
}

/** Whether Redis answers right now (the health check). */
export async function redisAnswers(redis: Redis, timeoutMs = 1_000): Promise<boolean> {
  try {
    const pong = await Promise.race([
      redis.ping(),
      new Promise<never>((_, reject) => setTimeout(() => reject(new Error('timeout')), timeoutMs).unref()),
    ]);
    return pong === 'PONG';
  } catch {
    return false;
  }
}
