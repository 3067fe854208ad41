import { Queue } from 'bullmq';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines } from '../../../test/engines.ts';
import { callInstance, startInstance, startRedis, type Instance } from '../../../test/instances.ts';
import { derivedId } from '../admin/mass-progress.ts';

const postgres = engines.find((engine) => engine.name === 'PostgreSQL');

/**
 * Schedules in the scale-out mode for real: two server instances and a worker over one PostgreSQL
 * database and a private Redis. Both instances set the schedule's BullMQ job scheduler up (one at
 * its creation, both at start-up and on changes); every due time must become exactly one run.
 */
describe.skipIf(!postgres)('schedules in the scale-out mode: two instances and a worker', () => {
  let redis: Awaited<ReturnType<typeof startRedis>>;
  let database: { config: { kind: string; url?: string }; drop(): Promise<void> };
  let a: Instance;
  let b: Instance;
  let worker: Instance;

  beforeAll(async () => {
    redis = await startRedis();
    database = await postgres!.create('');
    const env = {
      DATABASE_URL: (database.config as { url: string }).url,
      REDIS_URL: redis.url,
      APP_SECRET: 'schedules-scale-out-secret-0123456789',
      RATE_LIMIT_PER_MINUTE: '100000',
      RATE_LIMIT_EXECUTION_PER_MINUTE: '100000',
      SCHEDULE_MIN_INTERVAL_SECONDS: '1',
      LOG_LEVEL: 'info',
    };
    a = await startInstance('server', env);
    [b, worker] = await Promise.all([startInstance('server', env), startInstance('worker', env)]);
  }, 120_000);

  afterAll(async () => {
    for (const instance of [a, b, worker]) await instance?.crash().catch(() => undefined);
    await database?.drop();
    await redis?.stop();
  }, 30_000);

  const eventually = async (check: () => Promise<boolean>, timeoutMs: number, what: string) => {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      if (await check()) return;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(
      `${what} did not happen within ${timeoutMs} ms\n${worker.output().slice(-3000)}\n${a.output().slice(-2000)}`,
    );
  };

  it('runs each due time of a one-second schedule exactly once, on the worker, however many instances set it up', async () => {
    const registered = await callInstance(a, 'POST', '/api/auth/register', undefined, {
      email: `sched${Date.now()}@example.com`,
      username: `sched${Date.now() % 100000}`,
      name: 'Scheduler',
      password: 'correct horse battery',
    });
    const token = registered.body.token as string;
    const script = await callInstance(a, 'POST', '/api/scripts', token, { name: 'Tick', code: 'print("tick")' });
    const created = await callInstance(a, 'POST', `/api/scripts/${script.body.id}/schedules`, token, {
      kind: 'interval',
      intervalSeconds: 1,
      target: 'sandbox',
    });
    expect(created.status).toBe(200);
    const scheduleId = created.body.id as string;
    // Instance B sets the same job scheduler up again (a change made there), while it runs.
    const changed = await callInstance(b, 'PUT', `/api/schedules/${scheduleId}`, token, { target: 'sandbox' });
    expect(changed.status).toBe(200);

    const runs = async () =>
      (await callInstance(b, 'GET', `/api/executions?scriptId=${script.body.id}&limit=100`, token)).body.runs as {
        id: string;
        startedBy: string;
        status: string;
      }[];
    await eventually(async () => (await runs()).length >= 6, 15_000, 'six scheduled runs');
    expect((await callInstance(b, 'PUT', `/api/schedules/${scheduleId}`, token, { enabled: false })).status).toBe(200);

    const queue = new Queue('moonrelay-jobs', { connection: { host: '127.0.0.1', port: redis.port } });
    try {
      // One job scheduler for the schedule while it ran (removed once paused).
      expect(await queue.getJobSchedulers()).toEqual([]);
      const handedOut = (await queue.getJobs(['completed', 'failed', 'active'])).filter(
        (job) => job.repeatJobKey === `schedule:${scheduleId}`,
      );
      const dueTimes = handedOut.map((job) => Number(String(job.id).split(':').pop()));
      expect(new Set(dueTimes).size).toBe(dueTimes.length);

      const db = new pg.Client({ connectionString: (database.config as { url: string }).url });
      await db.connect();
      const { rows: recorded } = await db.query<{ id: string }>(
        "SELECT id FROM executions WHERE script_id = $1 AND initiator = 'schedule'",
        [script.body.id],
      );
      const { rows: schedules } = await db.query<{ skipped_count: number }>(
        'SELECT skipped_count FROM schedules WHERE id = $1',
        [scheduleId],
      );
      await db.end();
      // Every due time the queue handed out is one run, under the id derived from it, and nothing else ran.
      const expected = dueTimes.map((ms) => derivedId('schedule-run', scheduleId, new Date(ms).toISOString()));
      const recordedIds = recorded.map((row) => row.id).sort();
      const skipped = Number(schedules[0]!.skipped_count);
      expect(recordedIds.length + skipped).toBe(dueTimes.length);
      expect(expected).toEqual(expect.arrayContaining(recordedIds));
      expect(new Set(recordedIds).size).toBe(recordedIds.length);
      expect((await runs()).every((run) => run.startedBy === 'schedule' && run.status === 'succeeded')).toBe(true);
      console.log(
        `scale-out schedule: ${dueTimes.length} due times handed out, ${recordedIds.length} runs, ${skipped} skipped`,
      );
    } finally {
      await queue.close();
    }
    // The runs ran on the worker: the instances only set the scheduler up.
    expect(a.output() + b.output()).not.toContain('"job":"schedule-run"');
  }, 120_000);
});
