import { afterAll, beforeAll, expect, it } from 'vitest';
import type { DeliveredCommand } from '@moonrelay/contract/game';
import {
  BAN_DISPLAY_REASON_MAX_CHARS,
  BAN_PRIVATE_REASON_MAX_CHARS,
  MODERATION_ERRORS,
  type ModerationAction,
  type ModerationHistory,
} from '@moonrelay/contract/moderation';
import type { RosterPlayer } from '@moonrelay/contract/players';
import { describeEachEngine } from '../../../test/engines.ts';
import { playersSeenBefore, registerUser, startTestServer, type TestServer } from '../../../test/test-server.ts';
import { PLAYER_NOT_FOUND, PLAYERS_OF_ANOTHER_USER } from '../players/players.service.ts';
import { NOT_REPORTED } from './game-report.ts';

const player = (userId: number): RosterPlayer => ({ userId, name: `Player${userId}`, displayName: `P${userId}` });
const ban = { durationSeconds: 3600, displayReason: 'Exploiting', privateReason: 'Flew out of the map' };

describeEachEngine('moderation: notes, warnings, kicks, bans through the game', (engine) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(engine, { ADMIN_EMAILS: 'moderation-admin@example.com' });
  }, 60_000);
  afterAll(async () => {
    await server?.close();
  });

  /**
   * A user whose game has seen the given players. With `serverId` they are online on it (a live
   * server); with null they were seen before and no server of this user is live.
   */
  const owner = async (ids: number[], serverId: string | null = 'srv-1') => {
    const { token, user } = await registerUser(server);
    if (serverId === null) {
      await playersSeenBefore(server, user.id, ids);
    } else {
      const res = await server.call('POST', '/api/game/ping', {
        body: { key: user.apiKey, serverId, roster: { count: ids.length, players: ids.map(player) } },
      });
      expect(res.status, res.text).toBe(200);
    }
    return { token, key: user.apiKey as string, userId: user.id as string, username: user.username as string };
  };
  const ping = async (key: string, serverId: string, results: unknown[] = []) => {
    const res = await server.call('POST', '/api/game/ping', { body: { key, serverId, results } });
    expect(res.status, res.text).toBe(200);
    return res.body.commands as DeliveredCommand[];
  };
  const history = async (token: string, userId: number, query = '') => {
    const res = await server.call('GET', `/api/players/${userId}/moderation${query}`, { token });
    expect(res.status, res.text).toBe(200);
    return res.body as ModerationHistory;
  };
  const auditOf = async (actionId: string) =>
    (await server.app.database.db.selectFrom('auditLog').selectAll().execute()).filter((row) =>
      row.details.includes(actionId),
    );

  it('a note is kept privately with who wrote it, and audited', async () => {
    const me = await owner([101]);
    const res = await server.call('POST', '/api/players/101/notes', { token: me.token, body: { text: 'Spams chat' } });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ kind: 'note', message: 'Spams chat', state: 'applied', actorName: me.username });
    expect((await history(me.token, 101)).actions.map((a) => a.kind)).toEqual(['note']);
    const entries = await auditOf(res.body.id);
    expect(entries.map((e) => [e.action, e.actorName, e.targetType, e.targetId])).toEqual([
      ['moderation.note', me.username, 'player', '101'],
    ]);
  });

  it('kick and warning go to the server the player is on; the game result applies them once', async () => {
    const me = await owner([201, 202]);
    const kick = await server.call('POST', '/api/players/201/kick', { token: me.token, body: { message: 'Bye' } });
    expect(kick.status, kick.text).toBe(200);
    expect(kick.body).toMatchObject({ kind: 'kick', state: 'pending', path: 'game', serverId: 'srv-1' });
    const warn = await server.call('POST', '/api/players/202/warnings', { token: me.token, body: { message: 'Stop' } });
    expect(warn.status, warn.text).toBe(200);
    const commands = await ping(me.key, 'srv-1');
    expect(commands.map((c) => [c.type, c.data])).toEqual([
      ['kick', { userId: 201, message: 'Bye' }],
      ['warn', { userId: 202, message: 'Stop' }],
    ]);
    const results = commands.map((c) => ({ id: c.id, success: true, output: '' }));
    await ping(me.key, 'srv-1', results);
    // Sent again (the answer was lost): nothing changes.
    await ping(me.key, 'srv-1', results);
    expect((await history(me.token, 201)).actions[0]).toMatchObject({ kind: 'kick', state: 'applied' });
    expect((await history(me.token, 202)).actions[0]).toMatchObject({ kind: 'warning', state: 'applied' });
    const outcomes = (await auditOf(kick.body.id)).map((e) => e.action).sort();
    expect(outcomes).toEqual(['moderation.kick', 'moderation.outcome']);
  });

  it('bad input answers 4xx naming the limit, and stores nothing', async () => {
    const me = await owner([301]);
    const tries: [string, string, unknown, number, string][] = [
      ['POST', '/api/players/999/ban', ban, 404, PLAYER_NOT_FOUND],
      [
        'POST',
        '/api/players/301/ban',
        { ...ban, displayReason: 'x'.repeat(BAN_DISPLAY_REASON_MAX_CHARS + 1) },
        400,
        MODERATION_ERRORS.displayReason,
      ],
      [
        'POST',
        '/api/players/301/ban',
        { ...ban, privateReason: 'x'.repeat(BAN_PRIVATE_REASON_MAX_CHARS + 1) },
        400,
        MODERATION_ERRORS.privateReason,
      ],
      ['POST', '/api/players/301/ban', { ...ban, durationSeconds: 0 }, 400, MODERATION_ERRORS.duration],
      ['POST', '/api/players/301/ban', { ...ban, durationSeconds: -5 }, 400, MODERATION_ERRORS.duration],
      [
        'POST',
        '/api/players/bans',
        { ...ban, userIds: Array.from({ length: 51 }, (_, i) => i + 1) },
        400,
        MODERATION_ERRORS.tooManyPlayers,
      ],
      ['POST', '/api/players/bans', { ...ban, userIds: [301, 998] }, 404, `${PLAYER_NOT_FOUND}: 998`],
      ['POST', '/api/players/301/unban', {}, 409, MODERATION_ERRORS.notBanned],
      ['PUT', '/api/players/301/ban', ban, 409, MODERATION_ERRORS.notBanned],
      ['POST', '/api/players/999/notes', { text: 'x' }, 404, PLAYER_NOT_FOUND],
    ];
    for (const [method, path, body, status, error] of tries) {
      const res = await server.call(method, path, { token: me.token, body });
      expect([path, res.status, res.body.error]).toEqual([path, status, error]);
    }
    expect((await history(me.token, 301)).actions).toEqual([]);
  });

  it('a kick or warning of a player who is not online is refused with 409', async () => {
    const me = await owner([401], null);
    for (const path of ['/api/players/401/kick', '/api/players/401/warnings']) {
      const res = await server.call('POST', path, { token: me.token, body: { message: 'hi' } });
      expect([res.status, res.body.error]).toEqual([409, MODERATION_ERRORS.notOnline]);
    }
    expect((await history(me.token, 401)).actions).toEqual([]);
  });

  it('a ban asked for with no server live waits, then goes to the next server that connects', async () => {
    const me = await owner([501, 502], null);
    const res = await server.call('POST', '/api/players/501/ban', {
      token: me.token,
      body: { ...ban, durationSeconds: -1 },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ state: 'pending', path: 'game', serverId: null, durationSeconds: null });
    expect((await server.call('GET', '/api/players/bans', { token: me.token })).body.bans).toMatchObject([
      { userId: 501, name: 'Player501', state: 'pending' },
    ]);
    // A server connects: its first ping queues the ban, its next ping takes it.
    await ping(me.key, 'srv-late');
    await expect.poll(async () => (await ping(me.key, 'srv-late')).length).toBeGreaterThan(0);
    const [command] = await server.app.database.db
      .selectFrom('gameCommands')
      .selectAll()
      .where('userId', '=', me.userId)
      .where('type', '=', 'ban')
      .execute();
    expect(JSON.parse(command!.data)).toEqual({
      userIds: [501],
      durationSeconds: -1,
      displayReason: 'Exploiting',
      privateReason: 'Flew out of the map',
      excludeAltAccounts: false,
    });
    const result = { id: command!.id, success: true, output: JSON.stringify({ applied: [501], failed: {} }) };
    await ping(me.key, 'srv-late', [result]);
    await ping(me.key, 'srv-late', [result]);
    const seen = await history(me.token, 501);
    expect(seen.ban).toMatchObject({ state: 'applied', serverId: 'srv-late' });
    expect((await auditOf(res.body.id)).filter((e) => e.action === 'moderation.outcome')).toHaveLength(1);
    // Banned already: a second ban is refused; the edit replaces it and keeps the first in the history.
    const again = await server.call('POST', '/api/players/501/ban', { token: me.token, body: ban });
    expect([again.status, again.body.error]).toEqual([409, MODERATION_ERRORS.alreadyBanned]);
    const edit = await server.call('PUT', '/api/players/501/ban', {
      token: me.token,
      body: { ...ban, displayReason: 'Changed' },
    });
    expect(edit.status, edit.text).toBe(200);
    expect(edit.body).toMatchObject({ replaces: res.body.id, message: 'Changed', durationSeconds: 3600 });
    const afterEdit = await history(me.token, 501);
    expect(afterEdit.actions.map((a) => [a.kind, a.message, a.endedBy])).toEqual([
      ['ban', 'Changed', null],
      ['ban', 'Exploiting', edit.body.id],
    ]);
    expect(afterEdit.ban?.id).toBe(edit.body.id);
    // Unbans sent at once: one lifts the ban, the rest are told it is not banned; one unban is kept.
    const unbans = await Promise.all(
      Array.from({ length: 4 }, () =>
        server.call('POST', '/api/players/501/unban', { token: me.token, body: { reason: 'Appeal' } }),
      ),
    );
    expect(unbans.map((u) => u.status).sort()).toEqual([200, 409, 409, 409]);
    const lifted = await history(me.token, 501);
    expect(lifted.ban).toBeNull();
    expect(lifted.actions.filter((a) => a.kind === 'unban')).toHaveLength(1);
    expect(lifted.actions.find((a) => a.kind === 'ban' && a.message === 'Changed')?.endedBy).toBe(
      unbans.find((u) => u.status === 200)!.body.id,
    );
    expect((await server.call('GET', '/api/players/bans', { token: me.token })).body.bans).toEqual([]);
  });

  it('bans alike go 50 to a command; each player gets the game’s own outcome', async () => {
    const ids = Array.from({ length: 60 }, (_, i) => 1000 + i);
    const me = await owner(ids, null);
    for (const part of [ids.slice(0, 30), ids.slice(30)]) {
      const res = await server.call('POST', '/api/players/bans', { token: me.token, body: { ...ban, userIds: part } });
      expect(res.status, res.text).toBe(200);
      expect(res.body.actions).toHaveLength(30);
    }
    // The connecting ping sends the waiting bans (behind its answer); the next ping takes them.
    await ping(me.key, 'srv-batch');
    const db = server.app.database.db;
    await expect
      .poll(
        async () => (await db.selectFrom('gameCommands').select('id').where('userId', '=', me.userId).execute()).length,
      )
      .toBe(2);
    // Both commands are made in one request, often in the same millisecond: which comes first is
    // not promised, only that every player is in one of them.
    const size = (command: (typeof commands)[number]) => (command.data.userIds as number[]).length;
    const commands = (await ping(me.key, 'srv-batch')).sort((a, b) => size(b) - size(a));
    expect(commands.map(size)).toEqual([50, 10]);
    const [big, small] = commands;
    const inBig = big!.data.userIds as number[];
    const inSmall = small!.data.userIds as number[];
    expect([...inBig, ...inSmall].sort()).toEqual(ids);
    await ping(me.key, 'srv-batch', [
      {
        id: big!.id,
        success: true,
        output: JSON.stringify({ applied: inBig.slice(1, 49), failed: { [inBig[0]!]: 'HTTP 403 (Forbidden)' } }),
      },
      { id: small!.id, success: false, output: '', error: 'Players.BanningEnabled is off in this place' },
    ]);
    const states = await Promise.all(
      [inBig[0]!, inBig[1]!, inBig[49]!, inSmall[0]!].map(async (id) => (await history(me.token, id)).actions[0]),
    );
    expect(states.map((a) => [a!.state, a!.error])).toEqual([
      ['failed', 'HTTP 403 (Forbidden)'],
      ['applied', null],
      ['failed', NOT_REPORTED],
      ['failed', 'Players.BanningEnabled is off in this place'],
    ]);
  });

  it('recordBanOutcome records once; a later outcome changes nothing', async () => {
    const me = await owner([601], null);
    const res = await server.call('POST', '/api/players/601/ban', { token: me.token, body: ban });
    const { moderation } = server.app.services;
    expect(await moderation.recordBanOutcome(res.body.id, { state: 'failed', error: '429 Too Many Requests' })).toBe(
      true,
    );
    expect(await moderation.recordBanOutcome(res.body.id, { state: 'applied' })).toBe(false);
    expect((await history(me.token, 601)).actions[0]).toMatchObject({
      state: 'failed',
      error: '429 Too Many Requests',
    });
  });

  it('only the owner (and admins, through ownerId) reach a player; keys need the moderation scope', async () => {
    const me = await owner([701]);
    const other = await registerUser(server);
    const foreign = await server.call('POST', `/api/players/701/ban?ownerId=${me.userId}`, {
      token: other.token,
      body: ban,
    });
    expect([foreign.status, foreign.body.error]).toEqual([403, PLAYERS_OF_ANOTHER_USER]);
    const own = await server.call('POST', '/api/players/701/notes', { token: other.token, body: { text: 'x' } });
    expect(own.status).toBe(404);
    const scoped = await server.call('POST', '/api/user/api-keys', {
      token: me.token,
      body: { name: 'scripts only', scopes: ['scripts:read'] },
    });
    expect(scoped.status, scoped.text).toBe(200);
    const refused = await server.call('POST', '/api/players/701/notes', {
      headers: { authorization: `Bearer ${scoped.body.key}` },
      body: { text: 'x' },
    });
    expect(refused.status).toBe(403);
    const admin = await registerUser(server, { email: 'moderation-admin@example.com' });
    const byAdmin = await server.call('POST', `/api/players/701/notes?ownerId=${me.userId}`, {
      token: admin.token,
      body: { text: 'Seen by staff' },
    });
    expect(byAdmin.status, byAdmin.text).toBe(200);
    expect((await history(me.token, 701)).actions[0]).toMatchObject({ actorName: admin.user.username });
  });
});

export type { ModerationAction };
