import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { GAME_CONNECTED_WINDOW_MS, ROSTER_MAX_PLAYERS } from '@moonrelay/contract/constants';
import type {
  OnlinePlayer,
  PlayerRecord,
  PlayerSummary,
  RosterPlayer,
  RosterReport,
} from '@moonrelay/contract/players';
import { describeEachEngine } from '../../../test/engines.ts';
import { registerUser, startTestServer, type TestServer } from '../../../test/test-server.ts';
import { createRoster } from './roster.ts';
import { PLAYER_NOT_FOUND, PLAYERS_OF_ANOTHER_USER } from './players.service.ts';

const player = (userId: number, name = `Player${userId}`): RosterPlayer => ({
  userId,
  name,
  displayName: `${name} Shown`,
  accountAgeDays: Math.abs(userId) % 1000,
});

describeEachEngine('players: rosters from the pings, records, sessions', (engine) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(engine);
  }, 60_000);
  afterAll(async () => {
    await server?.close();
  });

  const ping = (key: string, serverId: string, roster?: RosterReport) =>
    server.call('POST', '/api/game/ping', { body: { key, serverId, ...(roster ? { roster } : {}) } });
  const online = async (token: string, query = '') => {
    const res = await server.call('GET', `/api/players/online${query}`, { token });
    expect(res.status, res.text).toBe(200);
    return res.body as { players: OnlinePlayer[]; total: number; nextCursor: string | null };
  };
  const record = async (token: string, userId: number) => {
    const res = await server.call('GET', `/api/players/${userId}`, { token });
    expect(res.status, res.text).toBe(200);
    return res.body as PlayerRecord;
  };
  const onlineIds = async (token: string, query = '') =>
    (await online(token, query)).players.map((p) => p.userId).sort((a, b) => a - b);

  it('a whole roster puts its players online and gives each a record with one session', async () => {
    const { token, user } = await registerUser(server);
    const res = await ping(user.apiKey, 'srv-a', {
      count: 3,
      players: [player(101), player(102), player(-1, 'Player1')],
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body.rosterWanted).toBeUndefined();
    const page = await online(token);
    expect(page.total).toBe(3);
    expect(page.players.map((p) => p.userId).sort((a, b) => a - b)).toEqual([-1, 101, 102]);
    expect(page.players.find((p) => p.userId === 101)).toMatchObject({
      name: 'Player101',
      displayName: 'Player101 Shown',
      accountAgeDays: 101,
      serverId: 'srv-a',
    });
    expect(await record(token, 102)).toMatchObject({
      userId: 102,
      sessions: 1,
      online: true,
      namesSeen: [{ name: 'Player102', displayName: 'Player102 Shown' }],
      recentSessions: [{ serverId: 'srv-a', leftAt: null }],
    });
  });

  it('joins and leaves as deltas; a leave ends the session and adds the stay to the play time', async () => {
    const { token, user } = await registerUser(server);
    await ping(user.apiKey, 'srv-b', { count: 1, players: [player(201)] });
    await ping(user.apiKey, 'srv-b', { count: 2, joined: [player(202)] });
    expect(await onlineIds(token)).toEqual([201, 202]);
    // Nothing changed: the count alone, and nothing is written.
    await ping(user.apiKey, 'srv-b', { count: 2 });
    await ping(user.apiKey, 'srv-b', { count: 1, left: [201] });
    expect(await onlineIds(token)).toEqual([202]);
    const left = await record(token, 201);
    expect(left.online).toBe(false);
    expect(left.recentSessions).toHaveLength(1);
    expect(left.recentSessions[0]!.leftAt).not.toBeNull();
    const stay = (Date.parse(left.recentSessions[0]!.leftAt!) - Date.parse(left.recentSessions[0]!.joinedAt)) / 1000;
    expect(left.playSeconds).toBe(Math.round(stay));
    // Back again on another server: a second session, the first one's totals kept.
    await ping(user.apiKey, 'srv-c', { count: 1, players: [player(201, 'Renamed')] });
    const back = await record(token, 201);
    expect(back).toMatchObject({ sessions: 2, online: true, name: 'Renamed' });
    expect(back.namesSeen.map((n) => n.name)).toEqual(['Player201', 'Renamed']);
    expect(back.recentSessions.map((s) => s.serverId)).toEqual(['srv-c', 'srv-b']);
  });

  it('a whole roster ends the sessions of players no longer in it', async () => {
    const { token, user } = await registerUser(server);
    await ping(user.apiKey, 'srv-d', { count: 3, players: [player(301), player(302), player(303)] });
    await ping(user.apiKey, 'srv-d', { count: 1, players: [player(302)] });
    expect(await onlineIds(token)).toEqual([302]);
    expect((await record(token, 301)).online).toBe(false);
    expect((await record(token, 302)).sessions).toBe(1);
  });

  it('the same join sent by pings at the same moment opens one session', async () => {
    const { token, user } = await registerUser(server);
    await ping(user.apiKey, 'srv-e', { count: 0, players: [] });
    const join: RosterReport = { count: 2, joined: [player(401), player(402)] };
    const answers = await Promise.all(Array.from({ length: 6 }, () => ping(user.apiKey, 'srv-e', join)));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200, 200]);
    expect(await onlineIds(token)).toEqual([401, 402]);
    expect((await record(token, 401)).sessions).toBe(1);
    const rows = await server.app.database.db
      .selectFrom('playerSessions')
      .select('id')
      .where('userId', '=', user.id)
      .where('robloxUserId', '=', '401')
      .execute();
    expect(rows).toHaveLength(1);
  });

  it("reports that arrive together are written as one batch, each server's in the order they were sent", async () => {
    const { token, user } = await registerUser(server);
    const roster = createRoster({
      db: server.app.database.db,
      logger: { info: () => {}, warn: () => {} },
      sessionRetentionDays: 90,
      recordsMax: 100_000,
      recordsKeepDays: 90,
      isLive: async () => true,
    });
    const t0 = Date.parse('2026-01-01T00:00:00.000Z');
    await Promise.all([
      roster.apply(user.id, 'srv-q', { count: 2, players: [player(1101), player(1102)] }, t0),
      roster.apply(user.id, 'srv-q', { count: 1, left: [1101] }, t0 + 5_000),
      roster.apply(user.id, 'srv-r', { count: 1, players: [player(1103)] }, t0),
      roster.apply(user.id, 'srv-q', { count: 2, joined: [player(1101, 'Renamed')] }, t0 + 9_000),
    ]);
    expect(roster.stats()).toEqual({ batches: 1, reports: 4 });
    expect(await onlineIds(token)).toEqual([1101, 1102, 1103]);
    const back = await record(token, 1101);
    expect(back).toMatchObject({ name: 'Renamed', sessions: 2, playSeconds: 5, online: true });
    expect(back.recentSessions).toEqual([
      { serverId: 'srv-q', joinedAt: new Date(t0 + 9_000).toISOString(), leftAt: null },
      { serverId: 'srv-q', joinedAt: new Date(t0).toISOString(), leftAt: new Date(t0 + 5_000).toISOString() },
    ]);
    expect(back.namesSeen.map((n) => n.name)).toEqual(['Player1101', 'Renamed']);
  });

  it('a report that cannot be stored fails alone, stores nothing, and goes through when sent again', async () => {
    const { token, user } = await registerUser(server);
    const roster = createRoster({
      db: server.app.database.db,
      logger: { info: () => {}, warn: () => {} },
      sessionRetentionDays: 90,
      recordsMax: 100_000,
      recordsKeepDays: 90,
      isLive: async () => true,
    });
    const now = Date.now();
    // An owner deleted meanwhile: the batch fails, and each of its reports is tried on its own.
    const [gone, kept] = await Promise.allSettled([
      roster.apply('no-such-user', 'srv-s', { count: 1, players: [player(1201)] }, now),
      roster.apply(user.id, 'srv-s', { count: 1, players: [player(1202)] }, now),
    ]);
    expect(gone.status).toBe('rejected');
    expect(kept.status).toBe('fulfilled');
    const stray = await server.app.database.db
      .selectFrom('playerSessions')
      .select('id')
      .where('userId', '=', 'no-such-user')
      .execute();
    expect(stray).toEqual([]);
    expect(await onlineIds(token)).toEqual([1202]);
    // A ping that failed is sent again with its changes (the game keeps them): nothing is lost.
    await roster.apply(user.id, 'srv-s', { count: 2, joined: [player(1203)] }, now + 2_000);
    expect(await onlineIds(token)).toEqual([1202, 1203]);
    expect((await record(token, 1202)).sessions).toBe(1);
  });

  it('asks a roster-keeping server new to presence for its whole roster, and answers at once', async () => {
    const { user } = await registerUser(server);
    // First ping with changes only (the server restarted, the game did not): asked, without a hold.
    const asked = await server.call('POST', '/api/game/ping', {
      body: { key: user.apiKey, serverId: 'srv-f', wait: 20, roster: { count: 1, joined: [player(501)] } },
    });
    expect(asked.status).toBe(200);
    expect(asked.body.rosterWanted).toBe(true);
    expect((await ping(user.apiKey, 'srv-f', { count: 1, players: [player(501)] })).body.rosterWanted).toBeUndefined();
    expect((await ping(user.apiKey, 'srv-f', { count: 1 })).body.rosterWanted).toBeUndefined();
    // A script that keeps no roster is never asked.
    expect((await ping(user.apiKey, 'srv-g')).body).toEqual({ success: true, command: null, commands: [] });
  });

  it('refuses more than 700 players, names the limit, and stores nothing of that ping', async () => {
    const { token, user } = await registerUser(server);
    const many = Array.from({ length: ROSTER_MAX_PLAYERS + 1 }, (_, i) => player(10_000 + i));
    for (const roster of [
      { count: many.length, players: many },
      { count: 1, joined: many },
      { count: 1, left: many.map((p) => p.userId) },
    ]) {
      const res = await ping(user.apiKey, 'srv-h', roster);
      expect(res.status).toBe(400);
      expect(res.body.error).toContain('at most 700 players');
    }
    const bad = await ping(user.apiKey, 'srv-h', { count: 1, joined: [{ userId: 1.5, name: '' } as RosterPlayer] });
    expect(bad.status).toBe(400);
    expect((await online(token)).total).toBe(0);
    // 700 exactly is fine.
    const full = await ping(user.apiKey, 'srv-h', { count: 700, players: many.slice(0, 700) });
    expect(full.status, full.text).toBe(200);
    expect((await online(token)).total).toBe(700);
  });

  it('searches by name, display name or id, filters by server, and pages with a cursor', async () => {
    const { token, user } = await registerUser(server);
    await ping(user.apiKey, 'srv-i', {
      count: 3,
      players: [player(601, 'Alpha'), player(602, 'Beta'), player(603, 'alphabet')],
    });
    await ping(user.apiKey, 'srv-j', { count: 1, players: [player(604, 'Gamma')] });
    expect(await onlineIds(token, '?q=ALPHA')).toEqual([601, 603]);
    expect(await onlineIds(token, '?q=Gamma%20Shown')).toEqual([604]);
    expect(await onlineIds(token, '?q=602')).toEqual([602]);
    expect(await onlineIds(token, '?q=%25')).toEqual([]);
    expect(await onlineIds(token, '?serverId=srv-j')).toEqual([604]);
    const seen: number[] = [];
    let cursor = '';
    for (let pages = 0; pages < 10; pages++) {
      const page = await online(token, `?limit=1${cursor}`);
      expect(page.total).toBe(4);
      seen.push(...page.players.map((p) => p.userId));
      if (!page.nextCursor) break;
      cursor = `&cursor=${page.nextCursor}`;
    }
    expect(seen.sort((a, b) => a - b)).toEqual([601, 602, 603, 604]);
    // Everyone seen, with the same search.
    const everyone = await server.call('GET', '/api/players?q=alpha', { token });
    expect(everyone.status).toBe(200);
    expect((everyone.body.players as PlayerSummary[]).map((p) => p.name).sort()).toEqual(['Alpha', 'alphabet']);
    expect((everyone.body.players as PlayerSummary[]).every((p) => p.online)).toBe(true);
  });

  it('answers 404 for a player never seen, 400 for a bad id or cursor, and keeps each user to their own players', async () => {
    const owner = await registerUser(server);
    const other = await registerUser(server);
    await ping(owner.user.apiKey, 'srv-k', { count: 1, players: [player(701)] });
    expect(await server.call('GET', '/api/players/701', { token: other.token })).toMatchObject({
      status: 404,
      body: { error: PLAYER_NOT_FOUND },
    });
    expect((await online(other.token)).total).toBe(0);
    expect((await server.call('GET', '/api/players/abc', { token: owner.token })).status).toBe(400);
    expect((await server.call('GET', '/api/players/online?cursor=nope', { token: owner.token })).status).toBe(400);
    expect((await server.call('GET', '/api/players/online?limit=0', { token: owner.token })).status).toBe(400);
    // Another user's players: admins only.
    expect(
      await server.call('GET', `/api/players/online?ownerId=${owner.user.id}`, { token: other.token }),
    ).toMatchObject({ status: 403, body: { error: PLAYERS_OF_ANOTHER_USER } });
  });

  it("ends a server's sessions at its last ping once it stops pinging", async () => {
    const { token, user } = await registerUser(server);
    const answered = await ping(user.apiKey, 'srv-l', { count: 2, players: [player(801), player(802)] });
    expect(answered.status).toBe(200);
    const lastPing = (await server.call('GET', '/api/game/status', { token })).body.lastPing as string;
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(Date.now() + GAME_CONNECTED_WINDOW_MS + 1_000);
      await server.app.services.gameLink.sweepDisconnected();
    } finally {
      vi.useRealTimers();
    }
    expect((await online(token)).total).toBe(0);
    const gone = await record(token, 801);
    expect(gone.recentSessions[0]!.leftAt).toBe(lastPing);
  });

  it('after a restart, ends the sessions of servers that never came back, and prunes old sessions', async () => {
    const { token, user } = await registerUser(server);
    await ping(user.apiKey, 'srv-m', { count: 1, players: [player(901)] });
    await ping(user.apiKey, 'srv-n', { count: 1, players: [player(902)] });
    let clock = Date.now();
    const live = new Set(['srv-n']);
    const roster = createRoster({
      db: server.app.database.db,
      logger: { info: () => {}, warn: () => {} },
      sessionRetentionDays: 90,
      recordsMax: 100_000,
      // Records outlive the sessions here: this test is about the sessions' own retention.
      recordsKeepDays: 365,
      isLive: async (_userId, serverId) => live.has(serverId),
      now: () => clock,
    });
    // Within the start-up grace nothing is ended: servers are still pinging back.
    expect(await roster.sweep()).toMatchObject({ ended: 0 });
    clock += 61_000;
    expect((await roster.sweep()).ended).toBeGreaterThanOrEqual(1);
    expect(await onlineIds(token)).toEqual([902]);
    // 91 days on, the ended session is pruned; the record and its totals stay.
    clock += 91 * 24 * 3600_000;
    live.clear();
    await roster.sweep();
    expect(await roster.sweep()).toMatchObject({ ended: 0 });
    const old = await record(token, 901);
    expect(old.recentSessions).toEqual([]);
    expect(old.sessions).toBe(1);
  });
});
