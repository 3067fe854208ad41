import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ModerationAction, ModerationHistory } from '@moonrelay/contract/moderation';
import { engines } from '../../../test/engines.ts';
import { fakeOpenCloud } from '../../../test/fake-open-cloud.ts';
import { callInstance, startInstance, startRedis, type Instance } from '../../../test/instances.ts';

const postgres = engines.find((engine) => engine.name === 'PostgreSQL');
const UNIVERSE = '6204381590';
const KEY = 'rbxoc_scaleOutKey_1234567890abcdefghij';

/**
 * Open Cloud bans in the scale-out mode for real: two server instances and a worker over one
 * PostgreSQL database and a private Redis, Roblox's Open Cloud played by a local fake. A ban posted
 * on one instance is sent by the worker; a worker killed mid-call, with Redis restarted empty, costs
 * nothing: the next worker sends the update again under its idempotency key and Roblox applies it
 * once.
 */
describe.skipIf(!postgres)('Open Cloud bans in the scale-out mode: two instances and a worker', () => {
  const roblox = fakeOpenCloud({ retryAfterSeconds: 1 });
  let redis: Awaited<ReturnType<typeof startRedis>>;
  let database: { config: { kind: string; url?: string }; drop(): Promise<void> };
  let a: Instance;
  let b: Instance;
  let worker: Instance | undefined;
  let env: Record<string, string>;

  beforeAll(async () => {
    const base = await roblox.start();
    roblox.addKey(KEY, UNIVERSE);
    redis = await startRedis();
    database = await postgres!.create('');
    env = {
      DATABASE_URL: (database.config as { url: string }).url,
      REDIS_URL: redis.url,
      APP_SECRET: 'open-cloud-scale-out-secret-0123456789',
      RATE_LIMIT_PER_MINUTE: '100000',
      ROBLOX_OPEN_CLOUD_URL: base,
      OPEN_CLOUD_RETRY_BASE_MS: '50',
      // A worker killed mid-call holds the owner's sending this long; the next one takes over after.
      OPEN_CLOUD_LEASE_MS: '40000',
      LOG_LEVEL: 'info',
    };
    [a, b, worker] = await Promise.all([
      startInstance('server', env),
      startInstance('server', env),
      startInstance('worker', env),
    ]);
  }, 120_000);

  afterAll(async () => {
    for (const instance of [a, b, worker]) await instance?.crash().catch(() => undefined);
    await database?.drop();
    await redis?.stop();
    await roblox.stop();
  }, 30_000);

  /** The action as stored once it is no longer pending, read on `instance`. */
  async function settled(instance: Instance, token: string, userId: number, id: string): Promise<ModerationAction> {
    for (;;) {
      const res = await callInstance(instance, 'GET', `/api/players/${userId}/moderation`, token);
      expect(res.status).toBe(200);
      const action = (res.body as ModerationHistory).actions.find((entry) => entry.id === id);
      if (action && action.state !== 'pending') return action;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }

  const patchesOf = (userId: number) =>
    roblox.requests.filter((request) => request.method === 'PATCH' && request.path.endsWith(`/${userId}`));
  const appliedTo = (userId: number) => roblox.applied.filter((update) => update.userId === String(userId));

  it('a ban posted on B is sent by the worker; killed mid-call with Redis restarted empty, it is applied once', async () => {
    const stamp = Date.now() % 1_000_000;
    const registered = await callInstance(a, 'POST', '/api/auth/register', undefined, {
      email: `ocso${stamp}@example.com`,
      username: `ocso${stamp}`,
      name: 'Scaled Moderator',
      password: 'correct horse battery',
    });
    expect(registered.status).toBe(200);
    const token = registered.body.token as string;
    const saved = await callInstance(a, 'PUT', '/api/open-cloud/key', token, { universeId: UNIVERSE, apiKey: KEY });
    expect(saved.status).toBe(200);
    const seen = await callInstance(a, 'POST', '/api/game/ping', undefined, {
      key: registered.body.user.apiKey,
      serverId: 'srv-scale',
      roster: {
        count: 2,
        players: [
          { userId: 8101, name: 'first', displayName: 'First' },
          { userId: 8102, name: 'second', displayName: 'Second' },
        ],
      },
    });
    expect(seen.status).toBe(200);
    // With an Open Cloud key the bans go through it, though a game server is live.

    const first = await callInstance(b, 'POST', '/api/players/8101/ban', token, {
      durationSeconds: -1,
      displayReason: 'Exploiting',
    });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ path: 'open_cloud' });
    expect(await settled(a, token, 8101, first.body.id)).toMatchObject({ state: 'applied' });
    expect(appliedTo(8101)).toHaveLength(1);

    // Roblox applies the next update, but its answer never reaches the worker, which dies meanwhile.
    const held = roblox.holdNextAnswers();
    const second = await callInstance(b, 'POST', '/api/players/8102/ban', token, {
      durationSeconds: 3600,
      displayReason: 'Griefing',
    });
    expect(second.status).toBe(200);
    await held;
    await worker!.crash();
    worker = undefined;
    roblox.dropHeld();
    // Redis goes too and comes back empty: the send job is gone; the update's row is not.
    await redis.stop();
    redis = await startRedis(redis.port);
    worker = await startInstance('worker', env);

    expect(await settled(b, token, 8102, second.body.id)).toMatchObject({ state: 'applied', path: 'open_cloud' });
    // Sent at least twice, always under one idempotency key; applied by Roblox once.
    const keys = patchesOf(8102).map((request) => request.query.get('idempotencyKey.key'));
    expect(keys.length).toBeGreaterThanOrEqual(2);
    expect(new Set(keys).size).toBe(1);
    expect(appliedTo(8102)).toHaveLength(1);
    expect(roblox.restriction(UNIVERSE, '8102')).toMatchObject({ gameJoinRestriction: { active: true } });
    // One ban in the history, recorded once, on either instance.
    const history = await callInstance(a, 'GET', '/api/players/8102/moderation', token);
    expect((history.body as ModerationHistory).actions.map((action) => [action.kind, action.state])).toEqual([
      ['ban', 'applied'],
    ]);
  }, 180_000);
});
