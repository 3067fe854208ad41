import { pino } from 'pino';
import { afterAll, expect, it, vi } from 'vitest';
import { startRedis } from '../../../test/instances.ts';
import { createBullJobQueue } from './bull-job-queue.ts';
import { connectRedis } from './connection.ts';

type Part = 'queue' | 'events' | 'worker';

/**
 * A Redis outage as an operator reads it: one line when the connection is lost and one when it is
 * back, no raw ECONNREFUSED stacks from BullMQ's own connections on stderr, no "job failed" lines.
 */
it('a Redis restart under the job queue: one line lost, one restored, no stacks on stderr', async () => {
  let redis = await startRedis();
  const lines: { msg: string; [field: string]: unknown }[] = [];
  const waiters: { msg: string; resolve: () => void }[] = [];
  const logger = pino(
    { level: 'info' },
    {
      write: (text: string) => {
        const line = JSON.parse(text) as { msg: string };
        lines.push(line);
        for (const waiter of waiters.splice(0)) {
          if (waiter.msg === line.msg) waiter.resolve();
          else waiters.push(waiter);
        }
      },
    },
  );
  const logged = (msg: string) => new Promise<void>((resolve) => waiters.push({ msg, resolve }));
  const unreachableParts = new Set<Part>();
  let allUnreachable!: () => void;
  const everyPartUnreachable = new Promise<void>((resolve) => (allUnreachable = resolve));
  const jobErrors: unknown[] = [];
  const consoleError = vi.spyOn(console, 'error');
  const stderr = vi.spyOn(process.stderr, 'write');

  const connection = connectRedis(redis.url, 'jobs', logger, { forBullMq: true });
  const jobs = createBullJobQueue({
    connection,
    consume: true,
    concurrency: 1,
    stalledAfterMs: 30_000,
    onError: (error) => jobErrors.push(error),
    onUnreachable: (part) => {
      unreachableParts.add(part);
      if (unreachableParts.size === 3) allUnreachable();
    },
  });
  afterAll(async () => {
    consoleError.mockRestore();
    stderr.mockRestore();
    await jobs.close();
    connection.disconnect();
    await redis.stop();
  });
  jobs.register('double', async (n: unknown) => Number(n) * 2);
  expect(await jobs.request('double', 21, 10_000)).toBe(42);

  const lost = logged('redis connection lost; reconnecting');
  await redis.stop();
  await lost;
  // The queue, its events and the worker each fail to reconnect, heard and not printed.
  await everyPartUnreachable;

  const restored = logged('redis connection restored');
  redis = await startRedis(redis.port);
  await restored;
  expect(await jobs.request('double', 4, 10_000)).toBe(8);

  const messages = lines.map((line) => line.msg);
  expect(messages.filter((msg) => msg === 'redis connection lost; reconnecting')).toHaveLength(1);
  expect(messages.filter((msg) => msg === 'redis connection restored')).toHaveLength(1);
  expect(jobErrors).toEqual([]);
  expect(consoleError).not.toHaveBeenCalled();
  expect(stderr.mock.calls.map((call) => String(call[0])).filter((text) => /ECONNREFUSED|\n\s+at /.test(text))).toEqual(
    [],
  );
});
