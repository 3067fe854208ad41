import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import type { ModerationAction, ModerationHistory } from '@moonrelay/contract/moderation';
import { describeOnSQLite } from '../../../test/engines.ts';
import {
  startEmulatedGame,
  type EmulatedGame,
  type EmulatedGameOptions,
  type EmulatedPlayer,
} from '../../../test/roblox-emulation/emulated-game.ts';
import { registerUser, startTestServer, type TestServer } from '../../../test/test-server.ts';

/**
 * Moderation end to end: the integration script a user's game gets from `GET /api/game/loader` runs
 * in the emulated Roblox server against the real Moonrelay over real HTTP, and carries out kicks,
 * warnings, bans and unbans with Roblox's Player:Kick and Ban API (Players:BanAsync, UnbanAsync),
 * reporting each player's outcome back into the moderation rows.
 */

const TIME_SCALE = 0.1;
const player = (userId: number): EmulatedPlayer => ({
  name: `Player${userId}`,
  userId,
  position: { x: 0, y: 5, z: 0 },
});
const ban = { durationSeconds: 600, displayReason: 'Exploiting', privateReason: 'Flew out of the map' };

describeOnSQLite('moderation through the served game script in an emulated game', (engine) => {
  let host: TestServer;
  let game: EmulatedGame | undefined;

  beforeAll(async () => {
    host = await startTestServer(engine, { RATE_LIMIT_GAME_PING_PER_MINUTE: '100000' });
  });
  afterEach(async () => {
    await game?.stop();
    game = undefined;
  });
  afterAll(async () => {
    await host?.close();
  });

  async function owner() {
    const { token, user } = await registerUser(host);
    return { token, apiKey: user.apiKey as string, userId: user.id as string };
  }

  async function startGame(apiKey: string, options: EmulatedGameOptions) {
    const served = await host.call('GET', `/api/game/loader?key=${encodeURIComponent(apiKey)}`);
    expect(served.status).toBe(200);
    game = await startEmulatedGame({ timeScale: TIME_SCALE, ...options });
    game.run(served.text, 'ServerScriptService.Moonrelay');
    await game.waitForOutput(/^\[Moonrelay\] Connected$/, 10_000);
    return game;
  }

  /** Waits until the players are online in Moonrelay (the game's roster reached it). */
  const online = (token: string, count: number) =>
    game!.waitFor(
      async () => {
        const res = await host.call('GET', '/api/players/online', { token });
        return res.body.total === count ? true : undefined;
      },
      `${count} players online`,
      10_000,
    );

  /** The player's latest action once it is no longer pending. */
  const settled = (token: string, userId: number, kind: ModerationAction['kind']) =>
    game!.waitFor(
      async () => {
        const res = await host.call('GET', `/api/players/${userId}/moderation`, { token });
        const action = (res.body as ModerationHistory).actions.find((a) => a.kind === kind);
        return action && action.state !== 'pending' ? action : undefined;
      },
      `the ${kind} of ${userId} to settle`,
      10_000,
    );

  it('kicks a player with the message, and shows a warning on a player’s screen', async () => {
    const me = await owner();
    const live = await startGame(me.apiKey, { jobId: 'job-kick', players: [player(11), player(12)] });
    await online(me.token, 2);
    const warned = await host.call('POST', '/api/players/12/warnings', {
      token: me.token,
      body: { message: 'No spam' },
    });
    expect(warned.status, warned.text).toBe(200);
    expect(await settled(me.token, 12, 'warning')).toMatchObject({ state: 'applied', serverId: 'job-kick' });
    expect(live.moderation().screens.Player12).toEqual(['Warning: No spam']);
    const kicked = await host.call('POST', '/api/players/11/kick', { token: me.token, body: { message: 'Bye now' } });
    expect(kicked.status, kicked.text).toBe(200);
    expect(await settled(me.token, 11, 'kick')).toMatchObject({ state: 'applied' });
    expect(live.moderation().kicks).toEqual([{ userId: 11, message: 'Bye now' }]);
    // The kicked player leaves the roster, so a second kick is refused: they are not online.
    await online(me.token, 1);
    const again = await host.call('POST', '/api/players/11/kick', { token: me.token, body: { message: 'x' } });
    expect(again.status).toBe(409);
  });

  it('bans players in one BanAsync call; a player Roblox refuses fails with Roblox’s own text', async () => {
    const me = await owner();
    const live = await startGame(me.apiKey, {
      jobId: 'job-ban',
      players: [player(21), player(22)],
      banFailures: { '22': 'HTTP 403 (Forbidden)' },
    });
    await online(me.token, 2);
    const res = await host.call('POST', '/api/players/bans', { token: me.token, body: { ...ban, userIds: [21, 22] } });
    expect(res.status, res.text).toBe(200);
    expect(await settled(me.token, 21, 'ban')).toMatchObject({ state: 'applied', error: null });
    expect(await settled(me.token, 22, 'ban')).toMatchObject({
      state: 'failed',
      error: 'UserId 22: HTTP 403 (Forbidden)',
    });
    const { bans, kicks } = live.moderation();
    expect(
      bans.map((call) => [call.UserIds.slice().sort(), call.Duration, call.DisplayReason, call.PrivateReason]),
    ).toEqual([[[21, 22], 600, 'Exploiting', 'Flew out of the map']]);
    // Roblox removes a banned player who is in the server.
    expect(kicks.map((kick) => kick.userId)).toEqual([21]);
    const unban = await host.call('POST', '/api/players/21/unban', { token: me.token, body: {} });
    expect(unban.status, unban.text).toBe(200);
    expect(await settled(me.token, 21, 'unban')).toMatchObject({ state: 'applied' });
    expect(live.moderation().unbans.map((call) => call.UserIds)).toEqual([[21]]);
  });

  it('with Players.BanningEnabled off, a ban fails at once and says how to turn it on', async () => {
    const me = await owner();
    const live = await startGame(me.apiKey, { jobId: 'job-off', players: [player(31)], banningEnabled: false });
    await online(me.token, 1);
    const res = await host.call('POST', '/api/players/31/ban', { token: me.token, body: ban });
    expect(res.status, res.text).toBe(200);
    const failed = await settled(me.token, 31, 'ban');
    expect(failed.state).toBe('failed');
    expect(failed.error).toMatch(/^Players\.BanningEnabled is off in this place/);
    expect(live.moderation().bans).toEqual([]);
  });

  it('a ban asked for while no server is live is applied once, when a server connects', async () => {
    const me = await owner();
    // The player was seen once, in a game that has since gone: no server of this user is live.
    const now = new Date().toISOString();
    await host.app.database.db
      .insertInto('players')
      .values({ userId: me.userId, robloxUserId: '41', name: 'Player41', firstSeen: now, lastSeen: now })
      .execute();
    const res = await host.call('POST', '/api/players/41/ban', {
      token: me.token,
      body: { ...ban, durationSeconds: -1 },
    });
    expect(res.status, res.text).toBe(200);
    const live = await startGame(me.apiKey, { jobId: 'job-later', players: [player(50)] });
    expect(await settled(me.token, 41, 'ban')).toMatchObject({ state: 'applied', durationSeconds: null });
    expect(live.moderation().bans.map((call) => [call.UserIds, call.Duration])).toEqual([[[41], -1]]);
  });
});
