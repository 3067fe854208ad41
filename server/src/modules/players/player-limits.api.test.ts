import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { ROSTER_MAX_PLAYERS } from '@moonrelay/contract/constants';
import type { ConsoleLine } from '@moonrelay/contract/console';
import type { OnlinePlayer, RosterPlayer, RosterReport } from '@moonrelay/contract/players';
import { describeEachEngine, type Engine } from '../../../test/engines.ts';
import { registerUser, startTestServer, type TestServer } from '../../../test/test-server.ts';

/**
 * The roster's limits over real HTTP (docs/protocol.md, "Roster"; decision 036, "Limits"): a game
 * server holds at most ROSTER_MAX_PLAYERS open sessions however its pings arrive, an owner at most
 * PLAYER_RECORDS_MAX player records (refused in words, a console marker now and then), and records
 * of players not seen for PLAYER_RECORDS_KEEP_DAYS are pruned unless moderation needs them.
 */

const RECORDS_MAX = 1_500;
const DAY_MS = 24 * 60 * 60 * 1000;
/** Pings sent at once, half to each instance, in the scale-out race. */
const LANES = Array.from({ length: 10 }, (_, lane) => lane);

const player = (userId: number): RosterPlayer => ({
  userId,
  name: `Player${userId}`,
  displayName: `Shown ${userId}`,
  accountAgeDays: userId % 1000,
});
/** `count` players with consecutive ids from `first`. */
const players = (first: number, count: number) => Array.from({ length: count }, (_, i) => player(first + i));

describeEachEngine('players: limits on sessions and records, and pruning', (engine) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(engine, {
      RATE_LIMIT_GAME_PING_PER_MINUTE: '100000',
      PLAYER_RECORDS_MAX: String(RECORDS_MAX),
      // Sessions outlive records here, so the pruning of records is seen taking their sessions too.
      PLAYER_SESSION_RETENTION_DAYS: '365',
    });
  }, 60_000);
  afterAll(async () => {
    await server?.close();
  });

  const ping = async (target: TestServer, key: string, serverId: string, roster: RosterReport) => {
    const res = await target.call('POST', '/api/game/ping', { body: { key, serverId, roster } });
    expect(res.status, res.text).toBe(200);
    return res;
  };
  const online = async (token: string, query = '') => {
    const res = await server.call('GET', `/api/players/online${query}`, { token });
    expect(res.status, res.text).toBe(200);
    return res.body as { players: OnlinePlayer[]; total: number };
  };
  const db = () => server.app.database.db;
  const rowsOf = async (table: 'players' | 'playerNames' | 'playerSessions', ownerId: string) =>
    Number(
      (
        await db()
          .selectFrom(table)
          .select((eb) => eb.fn.countAll<string | number>().as('n'))
          .where('userId', '=', ownerId)
          .executeTakeFirstOrThrow()
      ).n,
    );
  /** Moves every record of the owner `ms` into the past, as if its players were last seen then. */
  const ageRecords = async (ownerId: string, ms: number) => {
    const seen = await db().selectFrom('players').select('lastSeen').distinct().where('userId', '=', ownerId).execute();
    for (const { lastSeen } of seen) {
      await db()
        .updateTable('players')
        .set({ lastSeen: new Date(Date.parse(lastSeen) - ms).toISOString() })
        .where('userId', '=', ownerId)
        .where('lastSeen', '=', lastSeen)
        .execute();
    }
  };
  const openOn = async (ownerId: string, serverId: string) =>
    Number(
      (
        await db()
          .selectFrom('playerSessions')
          .select((eb) => eb.fn.countAll<string | number>().as('n'))
          .where('userId', '=', ownerId)
          .where('serverId', '=', serverId)
          .where('leftAt', 'is', null)
          .executeTakeFirstOrThrow()
      ).n,
    );
  const consoleOf = async (token: string, serverId: string) => {
    const res = await server.call('GET', `/api/game/console?serverId=${serverId}&limit=500`, { token });
    expect(res.status, res.text).toBe(200);
    return res.body.lines as ConsoleLine[];
  };
  const recordsMarkers = (lines: ConsoleLine[]) =>
    lines.filter((line) => line.text.includes('no longer being recorded') && line.text.includes('PLAYER_RECORDS_MAX'));

  it('a server holds at most 700 open sessions: joins past them are dropped, the first 700 stay', async () => {
    const { token, user } = await registerUser(server);
    await ping(server, user.apiKey, 'cap-a', { count: 700, players: players(100_000, 700) });
    for (const first of [200_000, 300_000, 400_000]) {
      await ping(server, user.apiKey, 'cap-a', { count: 700, joined: players(first, 700) });
    }
    expect((await online(token, '?serverId=cap-a')).total).toBe(ROSTER_MAX_PLAYERS);
    expect((await online(token)).total).toBe(ROSTER_MAX_PLAYERS);
    // The joins beyond the cap were dropped whole: no session, no record, no name.
    expect((await server.call('GET', '/api/players/100699', { token })).status).toBe(200);
    expect((await server.call('GET', '/api/players/200000', { token })).status).toBe(404);
    expect(await rowsOf('players', user.id)).toBe(700);
    expect(await rowsOf('playerNames', user.id)).toBe(700);
    // A leave makes room for a join in the same ping.
    await ping(server, user.apiKey, 'cap-a', { count: 700, left: [100_000], joined: [player(500_000)] });
    expect(await openOn(user.id, 'cap-a')).toBe(700);
    expect((await server.call('GET', '/api/players/500000', { token })).status).toBe(200);
    // The server's console says once that joins were dropped, and why.
    const dropped = (await consoleOf(token, 'cap-a')).filter((line) => line.text.includes('ROSTER_MAX_PLAYERS'));
    expect(dropped).toHaveLength(1);
    expect(dropped[0]!.text).toContain('700 players online');
  });

  it('pings of one server arriving together cannot pass 700 open sessions', async () => {
    const { token, user } = await registerUser(server);
    await ping(server, user.apiKey, 'cap-b', { count: 0, players: [] });
    await Promise.all(
      [0, 1, 2, 3].map((lane) =>
        ping(server, user.apiKey, 'cap-b', { count: 700, joined: players(600_000 + lane * 1_000, 700) }),
      ),
    );
    expect(await openOn(user.id, 'cap-b')).toBe(ROSTER_MAX_PLAYERS);
    expect((await online(token)).total).toBe(ROSTER_MAX_PLAYERS);
    expect(await rowsOf('players', user.id)).toBe(ROSTER_MAX_PLAYERS);
  });

  it('an owner keeps at most PLAYER_RECORDS_MAX records: new players are refused in words, once in the console', async () => {
    const { token, user } = await registerUser(server);
    await ping(server, user.apiKey, 'rec-1', { count: 700, players: players(1, 700) });
    await ping(server, user.apiKey, 'rec-2', { count: 700, players: players(701, 700) });
    await ping(server, user.apiKey, 'rec-3', { count: 700, players: players(1_401, 700) });
    expect(await rowsOf('players', user.id)).toBe(RECORDS_MAX);
    expect((await online(token)).total).toBe(RECORDS_MAX);
    // The first in the report's order were recorded; the rest have neither record nor session.
    expect((await online(token, '?serverId=rec-3')).total).toBe(100);
    expect((await server.call('GET', '/api/players/1500', { token })).status).toBe(200);
    expect((await server.call('GET', '/api/players/1501', { token })).status).toBe(404);
    expect(await rowsOf('playerNames', user.id)).toBe(RECORDS_MAX);

    // Players already recorded are still followed: player 1 joins a second server.
    await ping(server, user.apiKey, 'rec-3', { count: 2, joined: [player(1), player(5_000)] });
    expect((await online(token, '?serverId=rec-3')).total).toBe(101);
    const again = await server.call('GET', '/api/players/1', { token });
    expect(again.body.sessions).toBe(2);

    // The roster's result names the limit; the console got one marker, not one per ping.
    const outcome = await server.app.services.roster.apply(
      user.id,
      'rec-3',
      { count: 3, joined: [player(5_001)] },
      Date.now(),
    );
    expect(outcome).toMatchObject({ notRecorded: 1, dropped: 0 });
    expect(outcome.notices.join('\n')).toContain(`PLAYER_RECORDS_MAX (${RECORDS_MAX.toLocaleString('en-US')}`);
    const markers = recordsMarkers(await consoleOf(token, 'rec-3'));
    expect(markers).toHaveLength(1);
    expect(markers[0]).toMatchObject({ level: 'warning', own: true });
    expect(recordsMarkers(await consoleOf(token, 'rec-1'))).toHaveLength(0);

    // Past the marker's interval, the next refusal notes it again.
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(Date.now() + 11 * 60_000);
      await ping(server, user.apiKey, 'rec-3', { count: 4, joined: [player(5_002)] });
    } finally {
      vi.useRealTimers();
    }
    expect(recordsMarkers(await consoleOf(token, 'rec-3'))).toHaveLength(2);
    expect(await rowsOf('players', user.id)).toBe(RECORDS_MAX);
  });

  it('prunes records unseen for PLAYER_RECORDS_KEEP_DAYS with their names and sessions; keeps the moderated and the online', async () => {
    const { token, user } = await registerUser(server);
    // 1,400 players come and go (more than one pruning batch), one stays online, one gets a note.
    await ping(server, user.apiKey, 'old-a', { count: 700, players: players(20_000, 700) });
    await ping(server, user.apiKey, 'old-a', { count: 700, players: players(21_000, 700) });
    await ping(server, user.apiKey, 'old-a', { count: 1, players: [player(3)] });
    const note = await server.call('POST', '/api/players/20000/notes', { token, body: { text: 'keep an eye' } });
    expect(note.status, note.text).toBe(200);
    expect(await rowsOf('players', user.id)).toBe(1_401);

    // The records are made 91 days old (rather than the clock moved on): the server's own minutely
    // sweep may run at any moment of this test, and then finds what the test's sweep finds. With
    // the clock moved, one running before the ping below saw 'old-a' gone and ended player 3's
    // session.
    await ageRecords(user.id, 91 * DAY_MS);
    // The server still pings: player 3 is online, unchanged since day 0.
    await ping(server, user.apiKey, 'old-a', { count: 2, joined: [player(4)] });
    await server.app.services.roster.sweep();
    expect(await rowsOf('players', user.id)).toBe(3);
    expect((await server.call('GET', '/api/players/20001', { token })).status).toBe(404);
    expect((await server.call('GET', '/api/players/21699', { token })).status).toBe(404);
    const noted = await server.call('GET', '/api/players/20000', { token });
    expect(noted.status).toBe(200);
    const history = await server.call('GET', '/api/players/20000/moderation', { token });
    expect(history.body.actions).toHaveLength(1);
    expect((await server.call('GET', '/api/players/3', { token })).body.online).toBe(true);
    expect((await server.call('GET', '/api/players/4', { token })).status).toBe(200);
    // The pruned players' names and sessions went with them.
    expect(await rowsOf('playerNames', user.id)).toBe(3);
    const sessions = await db()
      .selectFrom('playerSessions')
      .select('robloxUserId')
      .where('userId', '=', user.id)
      .execute();
    expect(new Set(sessions.map((row) => row.robloxUserId))).toEqual(new Set(['20000', '3', '4']));
  });

  it('pruning makes room: a new player is recorded again once old records went', async () => {
    const { token, user } = await registerUser(server);
    await ping(server, user.apiKey, 'room-a', { count: 700, players: players(30_000, 700) });
    await ping(server, user.apiKey, 'room-b', { count: 700, players: players(31_000, 700) });
    await ping(server, user.apiKey, 'room-b', { count: 700, players: players(32_000, 700) });
    expect(await rowsOf('players', user.id)).toBe(RECORDS_MAX);
    await ping(server, user.apiKey, 'room-a', { count: 0, players: [] });
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(Date.now() + 91 * DAY_MS);
      await server.app.services.roster.sweep();
      // room-b's 700 were online (and their server went quiet): ended now, so seen now, and kept.
      await ping(server, user.apiKey, 'room-c', { count: 1, players: [player(33_000)] });
    } finally {
      vi.useRealTimers();
    }
    expect((await server.call('GET', '/api/players/33000', { token })).status).toBe(200);
    // room-a's 700 and room-b's first 700 went; room-b's last 100 and the newcomer stay.
    expect(await rowsOf('players', user.id)).toBe(101);
  });

  // The scale-out mode: two instances over one PostgreSQL database, each batching its own pings.
  if (engine.name === 'PostgreSQL') {
    it('pings racing on two instances keep one server to 700 sessions and an owner to PLAYER_RECORDS_MAX', async () => {
      const shared: Engine = {
        name: 'PostgreSQL',
        create: async () => ({ config: server.config.database, drop: async () => {} }),
      };
      const second = await startTestServer(shared, {
        RATE_LIMIT_GAME_PING_PER_MINUTE: '100000',
        PLAYER_RECORDS_MAX: String(RECORDS_MAX),
      });
      try {
        // Each owner has a record already (so a count row): the instances race on the counts, not on making one.
        const racer = await registerUser(server);
        await ping(server, racer.user.apiKey, 'warm', { count: 1, players: [player(1)] });
        await ping(server, racer.user.apiKey, 'race', { count: 0, players: [] });
        await Promise.all(
          LANES.map((lane) =>
            ping(lane % 2 ? second : server, racer.user.apiKey, 'race', {
              count: 700,
              joined: players(700_000 + lane * 1_000, 700),
            }),
          ),
        );
        expect(await openOn(racer.user.id, 'race')).toBe(ROSTER_MAX_PLAYERS);
        expect(await rowsOf('players', racer.user.id)).toBe(ROSTER_MAX_PLAYERS + 1);

        const fleet = await registerUser(server);
        await ping(second, fleet.user.apiKey, 'warm', { count: 1, players: [player(1)] });
        await Promise.all(
          LANES.map((lane) =>
            ping(lane % 2 ? second : server, fleet.user.apiKey, `fleet-${lane}`, {
              count: 700,
              players: players(800_000 + lane * 1_000, 700),
            }),
          ),
        );
        expect(await rowsOf('players', fleet.user.id)).toBe(RECORDS_MAX);
        expect((await online(fleet.token)).total).toBe(RECORDS_MAX);
      } finally {
        await second.close();
      }
    });
  }
});
