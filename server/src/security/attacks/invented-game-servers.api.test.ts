import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { describeEachEngine } from '../../../test/engines.ts';
import { registerUser, startTestServer, type TestServer } from '../../../test/test-server.ts';
import { TOO_MANY_NEW_GAME_SERVERS } from '../../modules/game/game-link.service.ts';

/**
 * One API key inventing game server ids: each new id spends the key's budget of new servers a
 * minute, the live servers of a key have a ceiling, and past either the owner is told on the dashboard.
 */
describeEachEngine('attack: one key, any number of invented game servers', (engine) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(engine, {
      GAME_NEW_SERVERS_PER_KEY_PER_MINUTE: '10',
      RATE_LIMIT_GAME_PING_PER_MINUTE: '100000',
    });
  });
  afterAll(() => server.close());

  const ping = (key: string, serverId: string) => server.call('POST', '/api/game/ping', { body: { key, serverId } });

  it('accepts only the budget of new server ids a minute, sent at once, and warns the owner', async () => {
    const owner = await registerUser(server);
    const answers = await Promise.all(Array.from({ length: 40 }, (_, i) => ping(owner.user.apiKey, `invented-${i}`)));
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(10);
    const refused = answers.filter((answer) => answer.status === 429);
    expect(refused).toHaveLength(30);
    expect(refused[0]!.body).toEqual({ error: TOO_MANY_NEW_GAME_SERVERS });
    expect(Number(refused[0]!.headers.get('retry-after'))).toBeGreaterThan(0);

    // The servers it has go on pinging; another key is not touched.
    const accepted = answers.findIndex((answer) => answer.status === 200);
    expect((await ping(owner.user.apiKey, `invented-${accepted}`)).status).toBe(200);
    const other = await registerUser(server);
    expect((await ping(other.user.apiKey, 'invented-0')).status).toBe(200);

    const status = await vi.waitFor(async () => {
      const answer = await server.call('GET', '/api/game/status', { token: owner.token });
      expect(answer.body.serverBudget).toBeTruthy();
      return answer.body;
    });
    expect(status.servers).toHaveLength(10);
    expect(status.serverBudget.reason).toContain(TOO_MANY_NEW_GAME_SERVERS);
    expect(status.refusedPings).toEqual([]);
  });
});
