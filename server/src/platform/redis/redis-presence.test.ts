import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRedis } from '../../../test/instances.ts';
import { createRedisPresence } from './redis-presence.ts';

const WINDOW = 10_000;

/** Presence in a private redis-server (its own port, removed at the end). */
describe('Redis presence', () => {
  let redis: Awaited<ReturnType<typeof startRedis>>;
  let client: Redis;
  beforeAll(async () => {
    redis = await startRedis();
    client = new Redis(redis.url);
  });
  afterAll(async () => {
    client?.disconnect();
    await redis?.stop();
  });

  it('reports a connect on the first ping and after a gap of the window, not on steady pings', async () => {
    const presence = createRedisPresence(client, WINDOW);
    const t0 = Date.now();
    const first = await presence.touch('u1', 's', { playerName: 'A', health: 12.5 }, t0);
    expect(first).toMatchObject({ connected: true, presence: { connectedAtMs: t0, lastPingMs: t0 } });
    const steady = (await presence.touch('u1', 's', null, t0 + 2_000))!;
    expect(steady.connected).toBe(false);
    // Kept from the first ping: when it connected, and its player data (no ping data this time).
    expect(steady.presence).toMatchObject({ connectedAtMs: t0, gameData: { playerName: 'A', health: 12.5 } });
    const back = (await presence.touch('u1', 's', null, t0 + 2_000 + WINDOW))!;
    expect(back).toMatchObject({ connected: true, presence: { connectedAtMs: t0 + 2_000 + WINDOW } });
    expect(await presence.get('u1', 's')).toEqual({
      userId: 'u1',
      serverId: 's',
      lastPingMs: t0 + 2_000 + WINDOW,
      connectedAtMs: t0 + 2_000 + WINDOW,
      gameData: { playerName: 'A', health: 12.5 },
    });
  });

  it('replaces player data a ping carries, text with quotes, braces and unicode included', async () => {
    const presence = createRedisPresence(client, WINDOW);
    const t0 = Date.now();
    const tricky = { playerName: 'a "b" },"lastPingMs":1}', inventory: ['ü', '{'] };
    await presence.touch('u2', 's', { playerName: 'first' }, t0);
    await presence.touch('u2', 's', tricky, t0 + 1);
    const after = (await presence.touch('u2', 's', null, t0 + 2))!;
    expect(after.presence.gameData).toEqual(tricky);
    expect((await presence.list('u2'))[0]?.gameData).toEqual(tricky);
  });

  it('reads entries written in the earlier layout (player data first) and carries their data on', async () => {
    const presence = createRedisPresence(client, WINDOW);
    const t0 = Date.now();
    const earlier = { gameData: { playerName: 'old' }, lastPingMs: t0 - 1_000, connectedAtMs: t0 - 60_000 };
    await client.hset('mr:presence:user:u3', 's', JSON.stringify(earlier));
    const touched = (await presence.touch('u3', 's', null, t0))!;
    expect(touched).toMatchObject({ connected: false, presence: { connectedAtMs: t0 - 60_000 } });
    expect(touched.presence.gameData).toEqual({ playerName: 'old' });
    await presence.touch('u3', 'none', null, t0);
    expect((await presence.get('u3', 'none'))?.gameData).toBeNull();
  });

  it('refuses a new server past the limit and keeps taking known ones', async () => {
    const presence = createRedisPresence(client, WINDOW, 2);
    const t0 = Date.now();
    expect(await presence.touch('u', 'a', null, t0)).toBeDefined();
    expect(await presence.touch('u', 'b', null, t0)).toBeDefined();
    expect(await presence.touch('u', 'c', null, t0 + 1)).toBeUndefined();
    expect(await presence.touch('v', 'c', null, t0 + 1)).toBeDefined();
    expect(await presence.touch('u', 'a', null, t0 + 2)).toBeDefined();
    expect((await presence.list('u')).map((p) => p.serverId).sort()).toEqual(['a', 'b']);
  });
});
