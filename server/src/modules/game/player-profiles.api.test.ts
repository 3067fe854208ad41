import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines } from '../../../test/engines.ts';
import { fakeRoblox } from '../../../test/fake-roblox.ts';
import { registerUser, startTestServer, type TestServer } from '../../../test/test-server.ts';

describe('player profile', () => {
  const roblox = fakeRoblox();
  let server: TestServer;
  let token: string;
  beforeAll(async () => {
    const base = await roblox.start();
    server = await startTestServer(engines[0]!, { ROBLOX_USERS_API_URL: base, ROBLOX_THUMBNAILS_API_URL: `${base}/` });
    token = (await registerUser(server)).token;
  });
  afterAll(async () => {
    await server.close();
    await roblox.stop();
  });
  const profile = (userId: string) => server.call('GET', `/api/game/profile?userId=${userId}`, { token });

  it('answers the profile from the users and thumbnails APIs', async () => {
    const res = await profile('156');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: 156,
      name: 'builderman',
      displayName: 'Builder',
      description: 'Hi',
      avatarUrl: 'https://tr.rbxcdn.com/156.png',
      hasVerifiedBadge: true,
      created: '2006-02-27T21:06:40.3Z',
    });
  });

  it('keeps a profile for ten minutes: a second request does not reach Roblox', async () => {
    await profile('157');
    const before = roblox.hits.length;
    expect((await profile('157')).status).toBe(200);
    expect(roblox.hits.length).toBe(before);
  });

  it('answers without an avatar while the headshot is pending', async () => {
    expect((await profile('2')).body.avatarUrl).toBeNull();
  });

  it('answers 404 for an unknown player, 502 when Roblox fails, 400 for a bad id', async () => {
    expect((await profile('404')).status).toBe(404);
    const garbled = await profile('777');
    expect(garbled.status).toBe(502);
    expect(garbled.body).toEqual({ error: 'Player profile unavailable' });
    roblox.setDown(true);
    try {
      expect((await profile('158')).body).toEqual({ error: 'Player profile unavailable' });
      // A cached profile is still served.
      expect((await profile('156')).status).toBe(200);
    } finally {
      roblox.setDown(false);
    }
    for (const bad of ['abc', '', '1e5', '-1']) expect((await profile(bad)).status, bad).toBe(400);
    expect((await server.call('GET', '/api/game/profile?userId=1')).status).toBe(401);
  });
});
