import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachEngine } from '../../../test/engines.ts';
import { fakeOpenCloud } from '../../../test/fake-open-cloud.ts';
import { registerUser, startTestServer, type TestServer } from '../../../test/test-server.ts';
import { createLogger } from '../../logger.ts';
import { createMemoryJobQueue, type JobQueue } from '../../platform/job-queue.ts';
import { createSecretBox } from '../../security/secret-box.ts';
import { loadServerSecret } from '../../security/server-secret.ts';
import type { Clock } from './clock.ts';
import { createRestrictions, type RestrictionOutcome, type Restrictions } from './restrictions.ts';

/**
 * Roblox's limits kept by Moonrelay's own pacing, on a clock the test moves: 2 updates a minute for
 * one user and 10 a second per universe, without a single 429. The queue runs as in the scale-out
 * mode (the owner's lease in the database), over the real database of a test server.
 */

/** A clock that stands still until the test moves it; a sleeper wakes when its time comes. */
function manualClock(startMs: number) {
  let now = startMs;
  const sleepers: { at: number; wake: () => void }[] = [];
  let onSleep: (() => void) | undefined;
  const clock: Clock = {
    now: () => now,
    sleep: (ms, signal) =>
      new Promise((resolve) => {
        if (signal?.aborted) return resolve();
        sleepers.push({ at: now + ms, wake: resolve });
        signal?.addEventListener('abort', () => resolve(), { once: true });
        onSleep?.();
      }),
  };
  return {
    clock,
    advance(ms: number) {
      now += ms;
      for (const sleeper of sleepers.filter((s) => s.at <= now)) {
        sleepers.splice(sleepers.indexOf(sleeper), 1);
        sleeper.wake();
      }
    },
    /** Resolves when something next sleeps on this clock. */
    nextSleep: () => new Promise<void>((resolve) => (onSleep = resolve)),
  };
}

/** The in-process queue, with a way to wait until no job is waiting or running. */
function countedJobs(): JobQueue & { idle(): Promise<void> } {
  const inner = createMemoryJobQueue({ concurrency: 4, onError: (error) => console.error(error) });
  let open = 0;
  const waiters: (() => void)[] = [];
  const settle = () => {
    if (open > 0) return;
    for (const wake of waiters.splice(0)) wake();
  };
  return {
    ...inner,
    register(name, handler) {
      inner.register(name, async (payload) => {
        try {
          return await handler(payload as never);
        } finally {
          open -= 1;
          setImmediate(settle);
        }
      });
    },
    async enqueue(name, payload) {
      open += 1;
      await inner.enqueue(name, payload);
    },
    idle: () => (open === 0 ? Promise.resolve() : new Promise<void>((resolve) => waiters.push(resolve))),
  };
}

describeEachEngine('Open Cloud update pacing', (engine) => {
  // Far ahead of the test server's own clock, so its own sweep leaves these updates alone.
  const time = manualClock(Date.now() + 10 * 24 * 3600_000);
  const roblox = fakeOpenCloud({ now: time.clock.now });
  const universe = '4242424242';
  const apiKey = 'rbx-pacing-key-abcdefghijklmnopqrstuv';
  let server: TestServer;
  let restrictions: Restrictions;
  let jobs: ReturnType<typeof countedJobs>;
  let ownerId: string;
  const outcomes = new Map<string, RestrictionOutcome>();

  beforeAll(async () => {
    const base = await roblox.start();
    roblox.addKey(apiKey, universe);
    server = await startTestServer(engine, { ROBLOX_OPEN_CLOUD_URL: base });
    const user = await registerUser(server);
    ownerId = user.user.id as string;
    const saved = await server.call('PUT', '/api/open-cloud/key', {
      token: user.token,
      body: { universeId: universe, apiKey },
    });
    expect(saved.status).toBe(200);
    jobs = countedJobs();
    restrictions = createRestrictions({
      db: server.app.database.db,
      jobs,
      box: createSecretBox(loadServerSecret(server.config.appSecret, server.config.dataDir), 'open-cloud-keys'),
      clock: time.clock,
      config: { baseUrl: base, retryBaseMs: 50, leaseMs: 60_000 },
      logger: createLogger('silent'),
      onOutcome: (id, outcome) => void outcomes.set(id, outcome),
      onlyProcess: false,
    });
  });
  afterAll(async () => {
    await restrictions?.stop();
    await jobs?.close();
    await server?.close();
    await roblox.stop();
  });

  const ban = (actionId: string, robloxUserId: number, active = true) => ({
    actionId,
    ownerId,
    robloxUserId,
    active,
    durationSeconds: active ? 3600 : null,
    displayReason: 'Exploiting',
    privateReason: '',
    excludeAltAccounts: false,
  });
  const patchesOf = (userId: number) =>
    roblox.requests.filter((r) => r.method === 'PATCH' && r.path.endsWith(`/user-restrictions/${userId}`));

  it('sends at most 2 updates a minute for one user, in order, and the third once the minute is over', async () => {
    const user = 31337;
    await restrictions.enqueue(ban('pace-1', user));
    await restrictions.enqueue(ban('pace-2', user, false));
    await restrictions.enqueue(ban('pace-3', user));
    await jobs.idle();
    expect(patchesOf(user)).toHaveLength(2);
    expect(outcomes.get('pace-1')).toEqual({ state: 'applied' });
    expect(outcomes.get('pace-2')).toEqual({ state: 'applied' });
    const third = await restrictions.find('pace-3');
    expect(third).toMatchObject({ state: 'pending', attempts: 0 });
    expect(Date.parse(third!.nextAttemptAt)).toBe(time.clock.now() + 60_000);

    time.advance(59_999);
    await restrictions.sweep();
    await jobs.idle();
    expect(patchesOf(user)).toHaveLength(2);

    time.advance(1);
    await restrictions.sweep();
    await jobs.idle();
    expect(outcomes.get('pace-3')).toEqual({ state: 'applied' });
    // In the order asked for (ban, lift, ban again), and Roblox never had to say 429.
    expect(
      patchesOf(user).map((r) => (r.body as { gameJoinRestriction: { active: boolean } }).gameJoinRestriction.active),
    ).toEqual([true, false, true]);
    expect(roblox.applied.filter((a) => a.userId === String(user))).toHaveLength(3);
  });

  it('sends at most 10 updates a second per universe', async () => {
    const users = Array.from({ length: 12 }, (_, i) => 50_000 + i);
    // The universe's last second holds nothing of the test before.
    time.advance(1_000);
    const sleeping = time.nextSleep();
    for (const user of users) await restrictions.enqueue(ban(`universe-${user}`, user));
    // The eleventh waits for the universe's second, in the job.
    await sleeping;
    expect(users.filter((user) => patchesOf(user).length === 1)).toHaveLength(10);
    time.advance(1_000);
    await jobs.idle();
    expect(users.map((user) => patchesOf(user).length)).toEqual(users.map(() => 1));
    expect(users.map((user) => outcomes.get(`universe-${user}`))).toEqual(users.map(() => ({ state: 'applied' })));
  });
});
