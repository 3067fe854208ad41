import { afterAll, beforeAll, expect, it } from 'vitest';
import type { ModerationHistory } from '@moonrelay/contract/moderation';
import { describeEachEngine } from '../../../test/engines.ts';
import { SimulatedGame } from '../../../test/simulated-game.ts';
import { playersSeenBefore, registerUser, startTestServer, type TestServer } from '../../../test/test-server.ts';

/**
 * Bans survive Moonrelay going down: stopped with bans waiting (the database kept, as a deployed
 * server restarting), started again, every ban reaches the game and is applied exactly once.
 */
describeEachEngine('moderation across a restart', (engine) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(engine);
  }, 60_000);
  afterAll(async () => {
    await server?.close();
  });

  const ban = { durationSeconds: -1, displayReason: 'Exploiting' };
  const ids = Array.from({ length: 70 }, (_, index) => 5000 + index);

  const states = async (token: string) =>
    Promise.all(
      ids.map(async (id) => {
        const res = await server.call('GET', `/api/players/${id}/moderation`, { token });
        return (res.body as ModerationHistory).actions.map((action) => action.state);
      }),
    );

  it('bans pending when Moonrelay stops are each applied once after it starts again', async () => {
    const { token, user } = await registerUser(server);
    // Players seen before, in a game no server of which is live now.
    await playersSeenBefore(server, user.id, ids, (id) => `P${id}`);
    for (const part of [ids.slice(0, 50), ids.slice(50)]) {
      const res = await server.call('POST', '/api/players/bans', { token, body: { ...ban, userIds: part } });
      expect(res.status, res.text).toBe(200);
    }
    expect((await states(token)).flat().every((state) => state === 'pending')).toBe(true);

    await server.stop();
    await server.start();

    const game = new SimulatedGame({ url: server.url, key: user.apiKey, serverId: 'after-restart' });
    // A ping on a connection the stopped server closed fails, as a real game's would; the game pings again.
    const ping = () => game.ping().catch(() => undefined);
    // The first ping connects the server, which sends the waiting bans; the sweep (here twice at
    // once, as on two instances) finds them already sent. The pings after take them and report.
    await expect.poll(async () => (await ping())?.status, { timeout: 20_000, interval: 50 }).toBe(200);
    const { moderation } = server.app.services;
    await Promise.all([moderation.sweep(), moderation.sweep()]);
    await expect
      .poll(
        async () => {
          await ping();
          return (await states(token)).flat().filter((state) => state === 'applied').length;
        },
        { timeout: 20_000, interval: 50 },
      )
      .toBe(ids.length);
    const banned = game.banCalls.flat();
    expect(banned.sort((a, b) => a - b)).toEqual(ids);
    expect(game.banCalls.map((call) => call.length).sort((a, b) => a - b)).toEqual([20, 50]);

    // The game sends its results again (an answer lost) and Moonrelay restarts once more: still once.
    await server.stop();
    await server.start();
    for (const command of game.received) await game.run(command);
    await ping();
    await ping();
    await server.app.services.moderation.sweep();
    await ping();
    expect(game.banCalls.flat()).toHaveLength(ids.length);
    expect((await states(token)).map((actions) => actions.join())).toEqual(ids.map(() => 'applied'));
    const outcomes = await server.app.database.db
      .selectFrom('auditLog')
      .select('id')
      .where('action', '=', 'moderation.outcome')
      .where('details', 'like', `%${user.id}%`)
      .execute();
    expect(outcomes).toHaveLength(ids.length);
  });
});
