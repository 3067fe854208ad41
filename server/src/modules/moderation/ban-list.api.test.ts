import { afterAll, beforeAll, expect, it } from 'vitest';
import { MODERATION_ERRORS, type BanList } from '@moonrelay/contract/moderation';
import { TEAM_HEADER } from '@moonrelay/contract/teams';
import { describeEachEngine } from '../../../test/engines.ts';
import { playersSeenBefore, registerUser, startTestServer, type TestServer } from '../../../test/test-server.ts';
import { nowIso } from '../../db/time.ts';
import { missingPermission } from '../../security/team-permissions.ts';
import { moderationRepo } from './moderation.repo.ts';

const ban = { durationSeconds: -1, displayReason: 'Exploiting' };

/**
 * GET /api/players/bans a page at a time, on both engines (the page, its count and the end of a
 * timed ban are SQL of their own): the cursor, the total, the bans left out, whose bans a caller
 * reaches, and the 400s.
 */
describeEachEngine('the ban list a page at a time (GET /api/players/bans)', (engine) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(engine);
  }, 60_000);
  afterAll(async () => {
    await server?.close();
  });

  /** A user whose game has seen these players, every one of them banned (pending: no server is live). */
  const ownerWithBans = async (ids: number[]) => {
    const person = await registerUser(server);
    await playersSeenBefore(server, person.user.id, ids);
    const res = await server.call('POST', '/api/players/bans', { token: person.token, body: { ...ban, userIds: ids } });
    expect(res.status, res.text).toBe(200);
    return { token: person.token as string, userId: person.user.id as string };
  };
  const list = async (token: string, query = '', headers: Record<string, string> = {}) =>
    server.call('GET', `/api/players/bans${query}`, { token, headers });
  const players = (body: BanList) => body.bans.map((row) => row.userId);

  it('pages by cursor, newest first, without repeating or skipping a ban, the total on every page', async () => {
    const ids = Array.from({ length: 7 }, (_, i) => 1001 + i);
    const me = await ownerWithBans(ids);
    const whole = await list(me.token);
    expect(whole.status, whole.text).toBe(200);
    expect(whole.body).toMatchObject({ total: 7, nextCursor: null, elsewhere: [] });
    expect([...players(whole.body)].sort()).toEqual(ids);
    expect(whole.body.bans[0]).toMatchObject({ kind: 'ban', state: 'pending', name: expect.stringMatching(/^Player/) });

    const seen: number[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res = await list(me.token, `?limit=3${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      expect(res.status, res.text).toBe(200);
      expect(res.body.total).toBe(7);
      expect(res.body.bans.length).toBeLessThanOrEqual(3);
      seen.push(...players(res.body));
      cursor = res.body.nextCursor;
      pages += 1;
    } while (cursor);
    expect(pages).toBe(3);
    expect(seen).toEqual(players(whole.body));
  });

  it('leaves out bans lifted, failed or run out, from the page and from the total', async () => {
    const me = await ownerWithBans([2001, 2002, 2003, 2004]);
    const lifted = await server.call('POST', '/api/players/2001/unban', { token: me.token, body: {} });
    expect(lifted.status, lifted.text).toBe(200);
    const db = server.app.database.db;
    const rowOf = async (id: string) =>
      db
        .selectFrom('moderationActions')
        .selectAll()
        .where('userId', '=', me.userId)
        .where('robloxUserId', '=', id)
        .where('kind', '=', 'ban')
        .executeTakeFirstOrThrow();
    await moderationRepo.complete(db, (await rowOf('2002')).id, { state: 'failed', error: 'No' }, nowIso());
    // A ban of an hour applied two hours ago has run out.
    const twoHoursAgo = new Date(Date.now() - 2 * 3600_000).toISOString();
    await moderationRepo.insert(db, [
      {
        ...(await rowOf('2003')),
        id: 'timed-out',
        robloxUserId: '2005',
        durationSeconds: 3600,
        createdAt: twoHoursAgo,
      },
    ]);
    expect((await rowOf('2005')).endsAt).toBe(new Date(Date.parse(twoHoursAgo) + 3600_000).toISOString());
    const res = await list(me.token);
    expect(res.status, res.text).toBe(200);
    expect([...players(res.body)].sort()).toEqual([2003, 2004]);
    expect(res.body.total).toBe(2);
  });

  it('runs a timed ban from when it took effect', async () => {
    const person = await registerUser(server);
    const me = { token: person.token, userId: person.user.id as string };
    await playersSeenBefore(server, me.userId, [2101]);
    const made = await server.call('POST', '/api/players/2101/ban', {
      token: me.token,
      body: { ...ban, durationSeconds: 600 },
    });
    expect(made.status, made.text).toBe(200);
    const db = server.app.database.db;
    const pending = await moderationRepo.find(db, made.body.id);
    expect(pending!.endsAt).toBe(new Date(Date.parse(pending!.createdAt) + 600_000).toISOString());
    const appliedAt = new Date(Date.now() + 60_000).toISOString();
    await moderationRepo.complete(db, made.body.id, { state: 'applied', error: null }, appliedAt);
    expect((await moderationRepo.find(db, made.body.id))!.endsAt).toBe(
      new Date(Date.parse(appliedAt) + 600_000).toISOString(),
    );
  });

  it("never gives another account's bans, by cursor or by ownerId", async () => {
    const me = await ownerWithBans([3001, 3002, 3003]);
    const first = await list(me.token, '?limit=1');
    expect(first.body.nextCursor).toEqual(expect.any(String));
    const stranger = await registerUser(server);
    const theirs = await list(stranger.token, `?cursor=${encodeURIComponent(first.body.nextCursor)}`);
    expect(theirs.status, theirs.text).toBe(200);
    expect(theirs.body).toEqual({ bans: [], nextCursor: null, total: 0, elsewhere: [] });
    expect((await list(stranger.token)).body).toEqual({ bans: [], nextCursor: null, total: 0, elsewhere: [] });
    const other = await list(stranger.token, `?ownerId=${me.userId}`);
    expect(other.status).toBe(403);
  });

  it('lists a team’s bans to a member with players.read, and refuses one without it', async () => {
    const owner = await registerUser(server);
    const teamId = (await server.call('POST', '/api/teams', { token: owner.token, body: { name: 'Bans team' } })).body
      .id as string;
    await playersSeenBefore(server, teamId, [4001]);
    const made = await server.call('POST', '/api/players/bans', {
      token: owner.token,
      headers: { [TEAM_HEADER]: teamId },
      body: { ...ban, userIds: [4001] },
    });
    expect(made.status, made.text).toBe(200);
    const join = async (body: Record<string, unknown>) => {
      const person = await registerUser(server);
      const link = await server.call('POST', `/api/teams/${teamId}/invitations`, { token: owner.token, body });
      const joined = await server.call('POST', '/api/teams/join', {
        token: person.token,
        body: { token: link.body.token },
      });
      expect(joined.status, joined.text).toBe(200);
      return person.token as string;
    };
    const viewer = await list(await join({ role: 'viewer' }), '', { [TEAM_HEADER]: teamId });
    expect(viewer.status, viewer.text).toBe(200);
    expect(players(viewer.body)).toEqual([4001]);
    const refused = await list(await join({ permissions: ['scripts.read'] }), '', { [TEAM_HEADER]: teamId });
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ error: missingPermission('players.read') });
  });

  it.each([
    ['?limit=500', 'limit: Too big: expected number to be <=100'],
    ['?limit=0', 'limit: Too small: expected number to be >=1'],
    ['?limit=ten', 'limit: Invalid input: expected number, received NaN'],
    ['?cursor=not-a-cursor', MODERATION_ERRORS.invalidCursor],
    [
      `?cursor=${Buffer.from(JSON.stringify(['yesterday', 'x'])).toString('base64url')}`,
      MODERATION_ERRORS.invalidCursor,
    ],
  ])('answers 400 naming what is wrong for %s', async (query, error) => {
    const me = await registerUser(server);
    const res = await list(me.token, query);
    expect(res.status).toBe(400);
    expect(res.body.error).toBe(error);
  });
});
