import argon2 from 'argon2';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { SESSION_IDLE_EXPIRY_MS } from '@moonrelay/contract/constants';
import { VALIDATION, ERRORS } from '@moonrelay/contract/messages';
import { describeOnSQLite } from '../../../test/engines.ts';
import { registerUser, startTestServer, type TestServer } from '../../../test/test-server.ts';

/** An argon2 hash's algorithm, version and cost parameters: `$argon2id$v=19$m=19456,p=1,t=2`. */
const HOUR_MS = 3_600_000;
const hashCost = (hash: string) => hash.split('$').slice(0, 4).join('$');

describeOnSQLite('accounts API', (engine) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(engine, { ADMIN_EMAILS: 'boss@example.com', LOGIN_MAX_FAILURES: '3' });
  });
  afterAll(() => server.close());

  const valid = { email: 'first@example.com', username: 'first_user', name: 'First', password: 'password123' };

  describe('register', () => {
    it('makes the first account admin and answers a token, the user and an API key', async () => {
      const res = await server.call('POST', '/api/auth/register', { body: valid });
      expect(res.status).toBe(200);
      expect(res.body.token).toMatch(/^mrs_/);
      expect(res.body.user).toMatchObject({
        email: valid.email,
        username: valid.username,
        name: 'First',
        isAdmin: true,
      });
      expect(res.body.user.apiKey).toMatch(/^mr_[0-9A-Za-z]{28}$/);
      expect(res.body.user.id).toMatch(/^[0-9a-f-]{36}$/);
      expect(new Date(res.body.user.createdAt).toISOString()).toBe(res.body.user.createdAt);
      expect(res.body.user).not.toHaveProperty('passwordHash');
    });

    it('does not make later accounts admin, unless ADMIN_EMAILS names them', async () => {
      const plain = await registerUser(server);
      expect(plain.user.isAdmin).toBe(false);
      const boss = await registerUser(server, { email: 'Boss@Example.com' });
      expect(boss.user.isAdmin).toBe(true);
      expect(boss.user.email).toBe('boss@example.com');
    });

    it.each([
      [{ email: 'not-an-email' }, VALIDATION.invalidEmail],
      [{ username: 'ab' }, VALIDATION.usernameTooShort],
      [{ username: 'a'.repeat(31) }, VALIDATION.usernameTooLong],
      [{ username: 'bad name!' }, VALIDATION.usernameCharacters],
      [{ name: '   ' }, VALIDATION.nameRequired],
      [{ password: 'short' }, VALIDATION.passwordTooShort],
      [{ password: 'x'.repeat(257) }, VALIDATION.passwordTooLong],
      [{ email: undefined }, 'Email is required'],
      [{ name: 42 }, 'Name must be text'],
    ])('refuses %j with "%s"', async (change, message) => {
      const res = await server.call('POST', '/api/auth/register', {
        body: { ...valid, email: 'other@example.com', username: 'other_user', ...change },
      });
      expect(res.status).toBe(400);
      expect(res.body.error).toBe(message);
    });

    it('lists every problem of a bad form', async () => {
      const res = await server.call('POST', '/api/auth/register', {
        body: { email: 'x', username: 'a', name: '', password: '1' },
      });
      expect(res.status).toBe(400);
      expect(res.body.issues.map((issue: { message: string }) => issue.message)).toEqual([
        VALIDATION.invalidEmail,
        VALIDATION.usernameTooShort,
        VALIDATION.nameRequired,
        VALIDATION.passwordTooShort,
      ]);
    });

    it('refuses a taken email or username (any case) with 409', async () => {
      const email = await server.call('POST', '/api/auth/register', { body: { ...valid, username: 'someone_else' } });
      expect(email.status).toBe(409);
      expect(email.body.error).toBe(ERRORS.emailTaken);
      const username = await server.call('POST', '/api/auth/register', {
        body: { ...valid, email: 'new@example.com', username: 'FIRST_USER' },
      });
      expect(username.status).toBe(409);
      expect(username.body.error).toBe(ERRORS.usernameTaken);
    });
  });

  describe('login', () => {
    it('accepts the email or the username, in any case, and issues a new session', async () => {
      const { user, password, input } = await registerUser(server);
      for (const identifier of [input.email, input.username, input.username.toUpperCase(), ` ${input.email} `]) {
        const res = await server.call('POST', '/api/auth/login', { body: { emailOrUsername: identifier, password } });
        expect(res.status).toBe(200);
        expect(res.body.user.id).toBe(user.id);
        expect(res.body.user.apiKey).toBe(user.apiKey);
        const me = await server.call('GET', '/api/user', { token: res.body.token });
        expect(me.body.id).toBe(user.id);
      }
    });

    it('gives one answer for an unknown account and a wrong password', async () => {
      const { input } = await registerUser(server);
      const wrong = await server.call('POST', '/api/auth/login', {
        body: { emailOrUsername: input.username, password: 'wrong password' },
      });
      const unknown = await server.call('POST', '/api/auth/login', {
        body: { emailOrUsername: 'nobody_here', password: 'wrong password' },
      });
      expect(wrong.status).toBe(401);
      expect(unknown.status).toBe(401);
      expect(wrong.body).toEqual(unknown.body);
      expect(wrong.body.error).toBe(ERRORS.invalidCredentials);
    });

    // The same work, not the same stopwatch reading: both answers run one argon2 verification with the
    // parameters every stored hash has (no argon2 run at all would make unknown accounts ~100x faster).
    it('spends one password check of the same cost on an unknown account as on a wrong password', async () => {
      const { input } = await registerUser(server);
      const verify = vi.spyOn(argon2, 'verify');
      try {
        const checksFor = async (emailOrUsername: string) => {
          verify.mockClear();
          await server.call('POST', '/api/auth/login', { body: { emailOrUsername, password: 'not it at all' } });
          return verify.mock.calls.map(([hash, password]) => ({ cost: hashCost(hash), password }));
        };
        const known = await checksFor(input.username);
        expect(known).toEqual([
          { cost: expect.stringMatching(/^\$argon2id\$v=19\$m=\d+,p=\d+,t=\d+$/), password: 'not it at all' },
        ]);
        expect(await checksFor('unknown_account')).toEqual(known);
      } finally {
        verify.mockRestore();
      }
    });

    it('throttles an identifier after repeated failures', async () => {
      const { input, password } = await registerUser(server);
      for (let i = 0; i < 3; i++) {
        const res = await server.call('POST', '/api/auth/login', {
          body: { emailOrUsername: input.email, password: 'nope nope' },
        });
        expect(res.status).toBe(401);
      }
      const blocked = await server.call('POST', '/api/auth/login', {
        body: { emailOrUsername: input.email.toUpperCase(), password },
      });
      expect(blocked.status).toBe(429);
      expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(blocked.body.error).toBe(ERRORS.tooManyLoginAttempts(Number(blocked.headers.get('retry-after'))));
    });

    it('a good sign-in clears the failure count', async () => {
      const { input, password } = await registerUser(server);
      const login = (secret: string) =>
        server.call('POST', '/api/auth/login', { body: { emailOrUsername: input.username, password: secret } });
      for (let round = 0; round < 3; round++) {
        // Two failures of the three allowed, then the right password: the count starts again.
        expect((await login('wrong wrong')).status).toBe(401);
        expect((await login('wrong wrong')).status).toBe(401);
        expect((await login(password)).status).toBe(200);
      }
    });

    it('lets a locked account in again once the lockout minutes have passed, not before', async () => {
      const { input, password } = await registerUser(server);
      const login = (secret: string) =>
        server.call('POST', '/api/auth/login', { body: { emailOrUsername: input.username, password: secret } });
      vi.useFakeTimers({ toFake: ['Date'] });
      try {
        vi.setSystemTime(Date.now());
        for (let i = 0; i < 3; i++) expect((await login('wrong wrong')).status).toBe(401);
        const locked = await login(password);
        expect(locked.status).toBe(429);
        // 15 minutes by default (LOGIN_LOCKOUT_MINUTES).
        expect(Number(locked.headers.get('retry-after'))).toBe(15 * 60);
        vi.setSystemTime(Date.now() + 14 * 60_000);
        expect((await login(password)).status).toBe(429);
        vi.setSystemTime(Date.now() + 60_000 + 1_000);
        expect((await login(password)).status).toBe(200);
      } finally {
        vi.useRealTimers();
      }
    });

    it('throttles guesses at unknown accounts the same way', async () => {
      for (let i = 0; i < 3; i++) {
        await server.call('POST', '/api/auth/login', { body: { emailOrUsername: 'ghost', password: 'guess guess' } });
      }
      const res = await server.call('POST', '/api/auth/login', {
        body: { emailOrUsername: 'ghost', password: 'guess guess' },
      });
      expect(res.status).toBe(429);
    });

    it('requires both fields, with the spec messages', async () => {
      const res = await server.call('POST', '/api/auth/login', { body: { emailOrUsername: '  ', password: '' } });
      expect(res.status).toBe(400);
      expect(res.body.issues.map((issue: { message: string }) => issue.message)).toEqual([
        VALIDATION.emailOrUsernameRequired,
        VALIDATION.passwordRequired,
      ]);
      const missing = await server.call('POST', '/api/auth/login', { body: {} });
      expect(missing.body.error).toBe(VALIDATION.emailOrUsernameRequired);
    });

    it('promotes an ADMIN_EMAILS account at login', async () => {
      const listed = await registerUser(server, { email: 'later-boss@example.com' });
      expect(listed.user.isAdmin).toBe(false);
      const restarted = await startTestServerSharingData();
      try {
        const res = await restarted.call('POST', '/api/auth/login', {
          body: { emailOrUsername: listed.input.email, password: listed.password },
        });
        expect(res.body.user.isAdmin).toBe(true);
      } finally {
        await restarted.close();
      }
    });
  });

  /** A second app over a copy of the same config but with another admin list. */
  async function startTestServerSharingData(): Promise<TestServer> {
    const { buildApp } = await import('../../app.ts');
    const { createLogger } = await import('../../logger.ts');
    const http = await import('node:http');
    const config = { ...server.config, adminEmails: ['later-boss@example.com'] };
    const app = await buildApp(config, createLogger('silent'));
    const httpServer = http.createServer(app.koa.callback());
    await new Promise<void>((resolve) => httpServer.listen(0, '127.0.0.1', resolve));
    const address = httpServer.address() as { port: number };
    const url = `http://127.0.0.1:${address.port}`;
    return {
      ...server,
      url,
      app,
      async call(method, path, options = {}) {
        const response = await fetch(url + path, {
          method,
          headers: { 'content-type': 'application/json' },
          body: options.body === undefined ? undefined : JSON.stringify(options.body),
        });
        const text = await response.text();
        return { status: response.status, headers: response.headers, body: JSON.parse(text), text };
      },
      async close() {
        httpServer.closeAllConnections();
        await new Promise<void>((resolve) => httpServer.close(() => resolve()));
        await app.close();
      },
    };
  }

  describe('sessions', () => {
    it('expire after 30 days without use, and each use slides the window forward', async () => {
      const { token } = await registerUser(server);
      const user = () => server.call('GET', '/api/user', { token });
      vi.useFakeTimers({ toFake: ['Date'] });
      try {
        const signedInAt = Date.now();
        vi.setSystemTime(signedInAt + 2 * HOUR_MS);
        expect((await user()).status).toBe(200); // used: now valid until 30 days from here
        vi.setSystemTime(signedInAt + SESSION_IDLE_EXPIRY_MS + HOUR_MS);
        expect((await user()).status).toBe(200); // past the first window, within the slid one
        vi.setSystemTime(signedInAt + 2 * SESSION_IDLE_EXPIRY_MS + 2 * HOUR_MS);
        const expired = await user();
        expect(expired.status).toBe(401);
        expect(expired.body.error).toBe(ERRORS.authenticationFailed);
      } finally {
        vi.useRealTimers();
      }
    });

    it('refuses requests without a token, with a malformed one, or with a forged one', async () => {
      for (const authorization of [
        undefined,
        'Bearer',
        'Bearer nonsense',
        `Bearer mrs_${'A'.repeat(43)}`,
        'Basic abc',
      ]) {
        const res = await server.call('GET', '/api/user', { headers: authorization ? { authorization } : {} });
        expect(res.status).toBe(401);
        expect(res.body).toEqual({ error: ERRORS.authenticationFailed });
        expect(res.headers.get('www-authenticate')).toBe('Bearer');
      }
    });

    it('revokes the token on logout, and only that token', async () => {
      const { token, input, password } = await registerUser(server);
      const second = await server.call('POST', '/api/auth/login', { body: { emailOrUsername: input.email, password } });
      const out = await server.call('POST', '/api/auth/logout', { token });
      expect(out.status).toBe(200);
      expect(out.body.success).toBe(true);
      expect((await server.call('GET', '/api/user', { token })).status).toBe(401);
      expect((await server.call('POST', '/api/auth/logout', { token })).status).toBe(401);
      expect((await server.call('GET', '/api/user', { token: second.body.token })).status).toBe(200);
    });

    it('expires a session after 30 days without use', async () => {
      const { token } = await registerUser(server);
      const { sha256Hex } = await import('../../security/digest.ts');
      await server.app.database.db
        .updateTable('sessions')
        .set({ expiresAt: new Date(Date.now() - 1000).toISOString() })
        .where('tokenHash', '=', sha256Hex(token))
        .execute();
      expect((await server.call('GET', '/api/user', { token })).status).toBe(401);
      const left = await server.app.database.db
        .selectFrom('sessions')
        .select('id')
        .where('tokenHash', '=', sha256Hex(token))
        .execute();
      expect(left).toEqual([]);
    });

    it('stores only a hash of the token', async () => {
      const { token } = await registerUser(server);
      const rows = await server.app.database.db.selectFrom('sessions').select('tokenHash').execute();
      expect(rows.some((row) => row.tokenHash === token)).toBe(false);
      expect(rows.every((row) => /^[0-9a-f]{64}$/.test(row.tokenHash))).toBe(true);
    });

    it('does not accept the API key where a session is required', async () => {
      const { user } = await registerUser(server);
      const res = await server.call('GET', '/api/user', { token: user.apiKey });
      expect(res.status).toBe(403);
      expect(res.body.error).toBe(ERRORS.sessionRequired);
      expect((await server.call('DELETE', '/api/user/account', { token: user.apiKey })).status).toBe(403);
    });
  });
});
