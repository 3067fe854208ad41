import { Redis } from 'ioredis';
import type { Logger } from '../../logger.ts';

/**
 * A Redis connection that reconnects by itself (ioredis retries with backoff) and says so in the
 * log once per state change, not once per retry.
 */
export function connectRedis(url: string, name: string, logger: Logger, options: { forBullMq?: boolean } = {}): Redis {
  const redis = new Redis(url, {
    connectionName: `moonrelay-${name}`,
    // BullMQ requires blocking connections to retry forever; plain commands give up after a few tries
    // so a request during an outage fails fast (503) instead of hanging.
    maxRetriesPerRequest: options.forBullMq ? null : 2,
    enableReadyCheck: true,
    retryStrategy: (times) => Math.min(100 * 2 ** Math.min(times, 6), 5_000),
  });
  let down = false;
  redis.on('ready', () => {
    if (down) logger.info({ redis: name }, 'redis connection restored');
    down = false;
  });
  redis.on('error', (error: Error) => {
    if (!down) logger.warn({ redis: name, err: error.message }, 'redis connection lost; reconnecting');
    down = true;
  });
  return redis;
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
