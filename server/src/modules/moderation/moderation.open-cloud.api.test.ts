import { afterAll, beforeAll, expect, it } from 'vitest';
import type { ModerationAction, ModerationHistory } from '@moonrelay/contract/moderation';
import { describeOnSQLite } from '../../../test/engines.ts';
import { fakeOpenCloud } from '../../../test/fake-open-cloud.ts';
import { playersSeenBefore, registerUser, startTestServer, type TestServer } from '../../../test/test-server.ts';

const UNIVERSE = '4483381587';
const KEY = 'rbx-moderation-key-1234567890abcdefghij';

/**
 * Bans of an owner who saved an Open Cloud key go through Roblox's user-restrictions API (the fake
 * here), with no game server running, and end applied or failed in the same moderation rows.
 */
describeOnSQLite('moderation through Open Cloud', (engine) => {
  const roblox = fakeOpenCloud({ retryAfterSeconds: 1 });
  let server: TestServer;
  beforeAll(async () => {
    const base = await roblox.start();
    roblox.addKey(KEY, UNIVERSE);
    server = await startTestServer(engine, { ROBLOX_OPEN_CLOUD_URL: base, OPEN_CLOUD_RETRY_BASE_MS: '50' });
  }, 60_000);
  afterAll(async () => {
    await server?.close();
    await roblox.stop();
  });

  /** A user with a saved Open Cloud key whose game saw `ids` before; none of its servers is live. */
  async function owner(ids: number[]) {
    const { token, user } = await registerUser(server);
    const saved = await server.call('PUT', '/api/open-cloud/key', {
      token,
      body: { universeId: UNIVERSE, apiKey: KEY },
    });
    expect(saved.status, saved.text).toBe(200);
    await playersSeenBefore(server, user.id, ids);
    return { token };
  }

  /** The action as stored once it is no longer pending. */
  async function settled(token: string, userId: number, actionId: string): Promise<ModerationAction> {
    for (;;) {
      const res = await server.call('GET', `/api/players/${userId}/moderation`, { token });
      expect(res.status, res.text).toBe(200);
      const action = (res.body as ModerationHistory).actions.find((a) => a.id === actionId);
      if (action && action.state !== 'pending') return action;
      await new Promise((resolve) => setImmediate(resolve));
    }
  }

  it('bans and unbans with no game server live, as Roblox applies them', async () => {
    const { token } = await owner([7001]);
    const patched = roblox.nextRequest((request) => request.method === 'PATCH' && request.path.endsWith('/7001'));
    const banned = await server.call('POST', '/api/players/7001/ban', {
      token,
      body: {
        durationSeconds: 86400,
        displayReason: 'Exploiting',
        privateReason: 'Speed hack',
        excludeAltAccounts: true,
      },
    });
    expect(banned.status, banned.text).toBe(200);
    expect(banned.body).toMatchObject({ kind: 'ban', path: 'open_cloud', state: 'pending' });
    const request = await patched;
    expect(request.apiKey).toBe(KEY);
    expect(request.body).toEqual({
      gameJoinRestriction: {
        active: true,
        duration: '86400s',
        displayReason: 'Exploiting',
        privateReason: 'Speed hack',
        excludeAltAccounts: true,
      },
    });
    expect(await settled(token, 7001, banned.body.id)).toMatchObject({ state: 'applied', path: 'open_cloud' });
    expect(roblox.restriction(UNIVERSE, '7001')).toMatchObject({ gameJoinRestriction: { active: true } });

    const unbanned = await server.call('POST', '/api/players/7001/unban', {
      token,
      body: { reason: 'Appeal accepted' },
    });
    expect(unbanned.status, unbanned.text).toBe(200);
    expect(unbanned.body).toMatchObject({ kind: 'unban', path: 'open_cloud' });
    expect(await settled(token, 7001, unbanned.body.id)).toMatchObject({ state: 'applied' });
    expect(roblox.restriction(UNIVERSE, '7001')).toMatchObject({ gameJoinRestriction: { active: false } });
  });

  it('lists the bans in force made elsewhere (Creator Hub, other tools) beside its own', async () => {
    const { token } = await owner([7003, 7004]);
    const ours = await server.call('POST', '/api/players/7003/ban', {
      token,
      body: { durationSeconds: -1, displayReason: 'Exploiting' },
    });
    expect(ours.status, ours.text).toBe(200);
    expect(await settled(token, 7003, ours.body.id)).toMatchObject({ state: 'applied' });
    roblox.addLog(UNIVERSE, {
      user: 'users/7004',
      moderator: { robloxUser: 'users/261' },
      createTime: '2026-11-27T12:00:00.000Z',
      active: true,
      startTime: '2026-11-27T12:00:00.000Z',
      privateReason: 'Banned from Creator Hub',
      displayReason: 'Cheating',
      excludeAltAccounts: false,
    });
    expect((await server.call('POST', '/api/bans/import', { token })).status).toBe(200);
    const listed = await server.call('GET', '/api/players/bans', { token });
    expect(listed.status, listed.text).toBe(200);
    expect(listed.body.bans.map((ban: { userId: number }) => ban.userId)).toEqual([7003]);
    // Moonrelay's own ban reached Roblox too, but it is listed once, as Moonrelay's.
    expect(listed.body.elsewhere).toEqual([
      expect.objectContaining({ userId: 7004, name: 'Player7004', displayReason: 'Cheating', durationSeconds: null }),
    ]);
  });

  it('lifts a ban made elsewhere through Open Cloud, once, however many unbans come at once', async () => {
    const { token } = await owner([7005]);
    roblox.addLog(UNIVERSE, {
      user: 'users/7005',
      moderator: { robloxUser: 'users/261' },
      createTime: '2026-11-27T12:30:00.000Z',
      active: true,
      startTime: '2026-11-27T12:30:00.000Z',
      privateReason: 'Banned from Creator Hub',
      displayReason: 'Griefing',
      excludeAltAccounts: false,
    });
    expect((await server.call('POST', '/api/bans/import', { token })).status).toBe(200);
    const before = await server.call('GET', '/api/players/7005/moderation', { token });
    expect(before.body).toMatchObject({ ban: null, elsewhere: { userId: 7005, displayReason: 'Griefing' } });

    const patches = () => roblox.requests.filter((r) => r.method === 'PATCH' && r.path.endsWith('/7005')).length;
    const answers = await Promise.all(
      Array.from({ length: 5 }, () =>
        server.call('POST', '/api/players/7005/unban', { token, body: { reason: 'Appeal accepted' } }),
      ),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409, 409, 409, 409]);
    const lifted = answers.find((a) => a.status === 200)!;
    expect(lifted.body).toMatchObject({ kind: 'unban', path: 'open_cloud' });
    for (const refused of answers.filter((a) => a.status === 409))
      expect(refused.body).toEqual({ error: 'The player is not banned' });
    // Off the list at once, though Roblox has not answered yet.
    expect((await server.call('GET', '/api/players/bans', { token })).body.elsewhere).not.toContainEqual(
      expect.objectContaining({ userId: 7005 }),
    );

    expect(await settled(token, 7005, lifted.body.id)).toMatchObject({ state: 'applied' });
    expect(roblox.restriction(UNIVERSE, '7005')).toMatchObject({ gameJoinRestriction: { active: false } });
    expect(patches()).toBe(1);
    // Roblox's list agrees on the next import: the player stays unbanned, and a second unban is refused.
    expect((await server.call('POST', '/api/bans/import', { token })).status).toBe(200);
    const after = await server.call('GET', '/api/players/7005/moderation', { token });
    expect(after.body).toMatchObject({ ban: null, elsewhere: null });
    expect((await server.call('POST', '/api/players/7005/unban', { token, body: {} })).status).toBe(409);
    expect(patches()).toBe(1);
  });

  it("records Roblox's refusal as the ban's failure, in Roblox's words", async () => {
    const { token } = await owner([7002]);
    // The key stops being accepted after it was saved (revoked in Creator Hub).
    roblox.addKey(KEY, '0');
    try {
      const banned = await server.call('POST', '/api/players/7002/ban', {
        token,
        body: { durationSeconds: -1, displayReason: 'Exploiting' },
      });
      expect(banned.status, banned.text).toBe(200);
      const action = await settled(token, 7002, banned.body.id);
      expect(action.state).toBe('failed');
      expect(action.error).toEqual(expect.any(String));
      expect(action.error!.length).toBeGreaterThan(0);
    } finally {
      roblox.addKey(KEY, UNIVERSE);
    }
  });
});
