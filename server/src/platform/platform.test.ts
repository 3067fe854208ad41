import { Writable } from 'node:stream';
import pino from 'pino';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startRedis } from '../../test/instances.ts';
import { loadConfig } from '../config.ts';
import { createPlatform } from './platform.ts';

/** The scale-out platform's log while Redis is away: what an operator reads must stay readable. */
let redis: Awaited<ReturnType<typeof startRedis>>;
beforeAll(async () => {
  redis = await startRedis();
});
afterAll(() => redis.stop());

it('says once, not once per request, that the rate-limit store failed while Redis is away', async () => {
  const lines: { msg: string; limit?: string }[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  const platform = createPlatform(loadConfig({ REDIS_URL: redis.url }), pino({ level: 'info' }, sink));
  try {
    expect(await platform.redisStatus()).toBe('ok');
    const counter = platform.rateLimitBackend.counter('rl:test', 100, 60);
    await redis.stop();
    const answers = [];
    for (let request = 0; request < 5; request++) answers.push((await counter.hit('caller')).allowed);
    // Never refused for Redis's sake, and said once.
    expect(answers).toEqual([true, true, true, true, true]);
    const failures = lines.filter((line) => line.msg.startsWith('rate-limit store failed'));
    expect(failures).toHaveLength(1);
    expect(failures[0]!.limit).toBe('rl:test');
  } finally {
    redis = await startRedis(redis.port);
    await platform.close();
  }
});
