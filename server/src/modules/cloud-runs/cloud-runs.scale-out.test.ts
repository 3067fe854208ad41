import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLOUD_RUN_ERRORS, LUAU_EXECUTION_WRITE } from '@moonrelay/contract/cloud-runs';
import { engines } from '../../../test/engines.ts';
import { fakeOpenCloud } from '../../../test/fake-open-cloud.ts';
import { callInstance, startInstance, startRedis, type Instance } from '../../../test/instances.ts';

const postgres = engines.find((engine) => engine.name === 'PostgreSQL');
const UNIVERSE = '4600000001';
const PLACE = '4600000002';
const KEY = 'rbx-scale-out-cloud-key-1234567890abcdefgh';
const LEASE_MS = 40_000;

/**
 * Cloud runs in the scale-out mode for real: two server instances and a worker over one PostgreSQL
 * database and a private Redis, Roblox's Luau Execution API played by a local fake. The instances
 * record the runs and hand the owner out (their sweep); the worker's rounds create and follow the
 * tasks under the owner's lease. A worker killed in the middle of a round holds the lease until it
 * passes; the next worker then takes the owner over and ends every run once. Redis restarted empty
 * loses the jobs, not the runs: the sweep hands the owner out again from the database.
 */
describe.skipIf(!postgres)('cloud runs in the scale-out mode: two instances and a worker', () => {
  const roblox = fakeOpenCloud({
    luau: { limits: { createsPerMinute: 100 }, timing: { queuedMs: 20, processingMs: 100 } },
  });
  let redis: Awaited<ReturnType<typeof startRedis>>;
  let database: { config: { kind: string; url?: string }; drop(): Promise<void> };
  let a: Instance;
  let b: Instance;
  let worker: Instance | undefined;
  let env: Record<string, string>;
  let token = '';
  let ownerId = '';

  beforeAll(async () => {
    const base = await roblox.start();
    roblox.addKey(KEY, UNIVERSE, [LUAU_EXECUTION_WRITE]);
    roblox.luau.addPlace(UNIVERSE, PLACE);
    redis = await startRedis();
    database = await postgres!.create('');
    env = {
      DATABASE_URL: (database.config as { url: string }).url,
      REDIS_URL: redis.url,
      APP_SECRET: 'cloud-runs-scale-out-secret-0123456789',
      RATE_LIMIT_PER_MINUTE: '100000',
      RATE_LIMIT_EXECUTION_PER_MINUTE: '100000',
      ROBLOX_OPEN_CLOUD_URL: base,
      OPEN_CLOUD_RETRY_BASE_MS: '50',
      // The shortest lease there is: a worker killed mid-round holds the owner this long.
      OPEN_CLOUD_LEASE_MS: String(LEASE_MS),
      CLOUD_RUN_POLL_MS: '50',
      LOG_LEVEL: 'info',
    };
    [a, b, worker] = await Promise.all([
      startInstance('server', env),
      startInstance('server', env),
      startInstance('worker', env),
    ]);
    const stamp = Date.now() % 1_000_000;
    const registered = await callInstance(a, 'POST', '/api/auth/register', undefined, {
      email: `cloudso${stamp}@example.com`,
      username: `cloudso${stamp}`,
      name: 'Scaled Cloud Runner',
      password: 'correct horse battery',
    });
    expect(registered.status).toBe(200);
    token = registered.body.token as string;
    ownerId = registered.body.user.id as string;
    const saved = await callInstance(a, 'PUT', '/api/open-cloud/key', token, {
      universeId: UNIVERSE,
      apiKey: KEY,
      placeId: PLACE,
    });
    expect(saved.status).toBe(200);
  }, 120_000);

  afterAll(async () => {
    for (const instance of [a, b, worker]) await instance?.crash().catch(() => undefined);
    await database?.drop();
    await redis?.stop();
    await roblox.stop();
  }, 30_000);

  const logsOf = () => `${worker?.output().slice(-3000)}\n${a.output().slice(-2000)}`;

  async function queue(instance: Instance, code: string): Promise<string> {
    const answer = await callInstance(instance, 'POST', '/api/scripts/execute', token, {
      target: 'cloud',
      code,
      timeoutSeconds: 120,
    });
    expect(answer.status, answer.text).toBe(200);
    return answer.body.executionId as string;
  }

  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the run's detail as the API answers it
  const detailOf = async (instance: Instance, id: string): Promise<any> =>
    (await callInstance(instance, 'GET', `/api/executions/${id}`, token)).body;

  /** The run's detail once its cloud state is one of `states`, read on `instance` until it is. */
  async function reaches(instance: Instance, id: string, states: string[], timeout = 30_000) {
    try {
      await expect
        .poll(async () => (await detailOf(instance, id)).cloud?.state, { timeout, interval: 200 })
        .toBeOneOf(states);
    } catch (error) {
      throw new Error(`${(error as Error).message}\n${logsOf()}`, { cause: error });
    }
    return detailOf(instance, id);
  }

  const tasksOf = (script: string) => roblox.luau.tasks().filter((task) => task.script === script);
  const messagesOf = (detail: { cloud: { logs: { message: string }[] } }) =>
    detail.cloud.logs.map((line) => line.message);

  it('follows a run posted on B to its end on the worker, once, as either instance tells it', async () => {
    const code = 'print("scaled out")\nwarn("once")\nreturn 1';
    const id = await queue(b, code);
    const detail = await reaches(a, id, ['succeeded', 'failed', 'timed_out']);
    expect(detail).toMatchObject({
      status: 'succeeded',
      output: 'scaled out\nWarning: once',
      cloud: { state: 'succeeded', returnValues: [1] },
    });
    expect(messagesOf(detail)).toEqual(['scaled out', 'once']);
    expect(await detailOf(b, id)).toMatchObject({ status: 'succeeded' });
    expect(tasksOf(code)).toHaveLength(1);
  }, 60_000);

  it(
    'a worker killed mid-round: after its lease the next worker ends the held task once and the unanswered create as unknown',
    async () => {
      // Roblox holds a task (it runs until released) ...
      const heldCode = '--@fake:hold\nprint("held while the worker dies")\nreturn "finished"';
      const heldRun = await queue(a, heldCode);
      await reaches(a, heldRun, ['running']);
      // ... and takes the next one without its answer reaching the worker, whose round waits for it.
      const createHeld = roblox.luau.holdCreates();
      const cutCode = 'print("created as the worker died")';
      const cutRun = await queue(b, cutCode);
      await createHeld;

      await worker!.crash();
      worker = undefined;
      // The dead worker's round held the owner's lease: nobody follows the owner until it passes.
      const db = new pg.Client({ connectionString: env.DATABASE_URL });
      await db.connect();
      try {
        const { rows } = await db.query<{ following_until: string | null }>(
          'SELECT following_until FROM open_cloud_keys WHERE user_id = $1',
          [ownerId],
        );
        expect(rows[0]?.following_until).not.toBeNull();
      } finally {
        await db.end();
      }
      expect(roblox.luau.dropCreates()).toBe(1);
      // Roblox finishes the held task meanwhile.
      roblox.luau.release();
      worker = await startInstance('worker', env);

      const cut = await reaches(b, cutRun, ['failed', 'succeeded'], LEASE_MS + 30_000);
      expect(cut).toMatchObject({
        status: 'failed',
        cloud: { state: 'failed', errorCode: 'UNKNOWN', errorMessage: CLOUD_RUN_ERRORS.createUnknown },
      });
      const held = await reaches(a, heldRun, ['succeeded', 'failed', 'timed_out'], 30_000);
      expect(held).toMatchObject({ status: 'succeeded', cloud: { state: 'succeeded', returnValues: ['finished'] } });
      expect(messagesOf(held)).toEqual(['held while the worker dies']);
      // Each was sent once: the cut create was never sent again.
      expect(tasksOf(heldCode)).toHaveLength(1);
      expect(tasksOf(cutCode)).toHaveLength(1);
    },
    LEASE_MS + 90_000,
  );

  it('completes a run once though Redis restarts empty while Roblox holds its task', async () => {
    const code = '--@fake:hold\nprint("through the Redis restart")\nreturn 3';
    const id = await queue(a, code);
    await reaches(b, id, ['running']);

    // Redis goes and comes back empty: the follow jobs are gone; the run's row is not. The
    // instances' sweep hands the owner out again from the database, and the worker reads the task
    // again (rounds one after another, each from a job made after the restart).
    await redis.stop();
    redis = await startRedis(redis.port);
    const readsBefore = roblox.luau.stats().reads;
    await expect
      .poll(() => roblox.luau.stats().reads, { timeout: 30_000, interval: 100 })
      .toBeGreaterThan(readsBefore + 2);
    roblox.luau.release();

    const detail = await reaches(b, id, ['succeeded', 'failed', 'timed_out'], 45_000);
    expect(detail).toMatchObject({ status: 'succeeded', cloud: { state: 'succeeded', returnValues: [3] } });
    expect(messagesOf(detail)).toEqual(['through the Redis restart']);
    expect(tasksOf(code)).toHaveLength(1);
  }, 60_000);
});
