import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ERRORS } from '@moonrelay/contract/messages';
import { describeOnSQLite } from '../../../test/engines.ts';
import { SimulatedGame } from '../../../test/simulated-game.ts';
import { registerUser, startTestServer, type TestServer } from '../../../test/test-server.ts';

describeOnSQLite('user API', (engine) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(engine);
  });
  afterAll(() => server.close());

  it('answers the current user with their readable API key', async () => {
    const { token, user } = await registerUser(server);
    const res = await server.call('GET', '/api/user', { token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual(user);
    expect(Object.keys(res.body).sort()).toEqual(
      ['apiKey', 'createdAt', 'email', 'googleId', 'id', 'isAdmin', 'name', 'username'].sort(),
    );
  });

  it('stores the API key only as a hash and a sealed copy', async () => {
    const { user } = await registerUser(server);
    const row = await server.app.database.db
      .selectFrom('apiKeys')
      .selectAll()
      .where('userId', '=', user.id)
      .executeTakeFirstOrThrow();
    expect(JSON.stringify(row)).not.toContain(user.apiKey);
    expect(row.keyHash).toMatch(/^[0-9a-f]{64}$/);
  });

  describe('regenerate key', () => {
    it('issues a new key, and the old one stops working at once', async () => {
      const { token, user } = await registerUser(server);
      await server.call('POST', '/api/scripts', { token, body: { name: 'a', code: 'print(1)' } });
      expect((await server.call('GET', '/api/scripts', { token: user.apiKey })).status).toBe(200);

      const res = await server.call('POST', '/api/user/regenerate-key', { token });
      expect(res.status).toBe(200);
      expect(res.body.apiKey).toMatch(/^mr_/);
      expect(res.body.apiKey).not.toBe(user.apiKey);
      expect(res.body.user.apiKey).toBe(res.body.apiKey);

      const old = await server.call('GET', '/api/scripts', { token: user.apiKey });
      expect(old.status).toBe(401);
      expect(old.body).toEqual({ error: ERRORS.invalidApiKey });
      const fresh = await server.call('GET', '/api/scripts', { token: res.body.apiKey });
      expect(fresh.status).toBe(200);
      expect(fresh.body).toHaveLength(1);
      expect((await server.call('GET', '/api/user', { token })).body.apiKey).toBe(res.body.apiKey);
    });

    it('refuses a mistyped key by its checksum', async () => {
      const { user } = await registerUser(server);
      const key: string = user.apiKey;
      const last = key.at(-8) === 'a' ? 'b' : 'a';
      const typo = key.slice(0, -8) + last + key.slice(-7);
      const res = await server.call('GET', '/api/scripts', { token: typo });
      expect(res.status).toBe(401);
      expect(res.body.error).toBe(ERRORS.invalidApiKey);
    });
  });

  describe('delete account', () => {
    it('removes the account and everything that belongs to it', async () => {
      const { token, user, input, password } = await registerUser(server);
      const other = await registerUser(server);
      await server.call('POST', '/api/scripts', { token, body: { name: 'mine', code: 'print(1)' } });
      await server.call('POST', '/api/scripts', { token: other.token, body: { name: 'theirs', code: 'print(2)' } });
      // A run, a connected game and a command for it.
      const run = await server.call('POST', '/api/scripts/execute', {
        token,
        body: { code: 'return 1', target: 'sandbox' },
      });
      expect(run.status).toBe(200);
      const game = new SimulatedGame({ url: server.url, key: user.apiKey!, serverId: 'doomed' });
      expect((await game.ping()).status).toBe(200);
      expect((await server.call('POST', '/api/game/command', { token, body: { type: 'heal' } })).status).toBe(200);
      expect(await server.app.services.presence.list(user.id)).toHaveLength(1);

      const res = await server.call('DELETE', '/api/user/account', { token });
      expect(res.status).toBe(200);
      expect(res.body.success).toBe(true);

      expect((await server.call('GET', '/api/user', { token })).status).toBe(401);
      const byKey = await server.call('GET', '/api/scripts', { token: user.apiKey });
      expect(byKey.status).toBe(401);
      expect(byKey.body.error).toBe(ERRORS.invalidApiKey);
      const login = await server.call('POST', '/api/auth/login', { body: { emailOrUsername: input.email, password } });
      expect(login.status).toBe(401);

      const db = server.app.database.db;
      for (const table of ['sessions', 'apiKeys', 'scripts', 'executions', 'gameCommands', 'gameServers'] as const) {
        const rows = await db.selectFrom(table).select('userId').where('userId', '=', user.id).execute();
        expect(rows, table).toEqual([]);
      }
      // The game that was connected goes quiet (its key is refused); when the sweep finds it gone,
      // nothing of the deleted account is written back.
      expect((await game.ping()).status).toBe(401);
      vi.useFakeTimers({ toFake: ['Date'] });
      try {
        vi.setSystemTime(Date.now() + 60_000);
        await server.app.services.gameLink.sweepDisconnected();
      } finally {
        vi.useRealTimers();
      }
      expect(await db.selectFrom('gameServers').select('serverId').where('userId', '=', user.id).execute()).toEqual([]);
      // Another user's data is untouched.
      expect((await server.call('GET', '/api/scripts', { token: other.token })).body).toHaveLength(1);
      // The email can be registered again.
      expect((await server.call('POST', '/api/auth/register', { body: input })).status).toBe(200);
    });
  });
});
