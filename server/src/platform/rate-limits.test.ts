import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRedis } from '../../test/instances.ts';
import { createLogger } from '../logger.ts';
import { redisRateLimitBackend } from './rate-limits.ts';
import { connectRedis } from './redis/connection.ts';

/**
 * The scale-out mode's limits against a private redis-server: one count for every instance while
 * Redis answers; while it is down, no request is refused for it (each instance counts alone) and
 * every failure is reported.
 */
describe('rate limits in Redis', () => {
  let redis: Awaited<ReturnType<typeof startRedis>>;
  beforeAll(async () => {
    redis = await startRedis();
  });
  afterAll(() => redis.stop());

  const backend = () => {
    const errors: string[] = [];
    const client = connectRedis(redis.url, 'rate-limits-test', createLogger('silent'));
    const limits = redisRateLimitBackend(client, (_error, name) => errors.push(name));
    return { errors, client, counter: limits.counter('test-limit', 3, 60) };
  };

  it('counts one budget for every instance while Redis answers', async () => {
    const a = backend();
    const b = backend();
    try {
      // Both connected first: until a connection is ready its instance counts alone (and says so).
      await Promise.all([a.client.ping(), b.client.ping()]);
      const states = [];
      for (const instance of [a, b, a, b]) states.push(await instance.counter.hit('shared-key'));
      expect(states.map((state) => state.allowed)).toEqual([true, true, true, false]);
      expect((await b.counter.peek('shared-key')).allowed).toBe(false);
      expect([...a.errors, ...b.errors]).toEqual([]);
    } finally {
      a.client.disconnect();
      b.client.disconnect();
    }
  });

  it('refuses nothing because Redis is down, reports each failure, and counts in Redis again once it is back', async () => {
    const instance = backend();
    try {
      await instance.client.ping();
      await redis.stop();
      const down = [];
      for (let i = 0; i < 3; i++) down.push(await instance.counter.hit('outage-key'));
      expect(down.map((state) => state.allowed)).toEqual([true, true, true]);
      expect((await instance.counter.peek('fresh-key')).allowed).toBe(true);
      expect(instance.errors).toEqual(['test-limit', 'test-limit', 'test-limit', 'test-limit']);

      redis = await startRedis(redis.port);
      if (instance.client.status !== 'ready') {
        await new Promise<void>((resolve) => instance.client.once('ready', () => resolve()));
      }
      const before = instance.errors.length;
      expect((await instance.counter.hit('after-key')).remaining).toBe(2);
      expect(instance.errors.length).toBe(before);
    } finally {
      instance.client.disconnect();
    }
  });
});
