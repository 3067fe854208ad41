import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeOnSQLite } from '../../../test/engines.ts';
import { registerUser, startTestServer, type TestServer } from '../../../test/test-server.ts';

/**
 * A lockout says when it ends in its message, and a fresh instance says it has no account yet, so
 * its sign-in screen can open on Register. The words are written out here, as the user reads them.
 */
describeOnSQLite('lockouts that say when they end, and the first run', (engine) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(engine, {
      LOGIN_MAX_FAILURES: '5',
      LOGIN_LOCKOUT_MINUTES: '15',
    });
  });
  afterAll(() => server.close());

  // First: the instance must have no account when it runs.
  it('says a fresh instance has no account yet, and stops saying so once one is made', async () => {
    const fresh = await server.call('GET', '/api/auth/providers');
    expect(fresh.status).toBe(200);
    expect(fresh.body.firstAccount).toBe(true);
    // Whether an account exists, and nothing about how many.
    expect(Object.values(fresh.body).filter((value) => typeof value === 'number')).toEqual([]);

    const first = await registerUser(server);
    expect(first.user.isAdmin).toBe(true);
    const after = await server.call('GET', '/api/auth/providers');
    expect(after.body.firstAccount).toBe(false);
  });

  it('six wrong passwords: the sixth answer says to try again in 15 minutes', async () => {
    const { input, password } = await registerUser(server);
    const login = (secret: string) =>
      server.call('POST', '/api/auth/login', { body: { emailOrUsername: input.username, password: secret } });
    for (let i = 0; i < 5; i++) expect((await login(`wrong ${i}`)).status).toBe(401);
    const locked = await login('wrong 5');
    expect(locked.status).toBe(429);
    expect(locked.body).toEqual({ error: 'Too many failed login attempts. Try again in 15 minutes.' });
    expect(Number(locked.headers.get('retry-after'))).toBeGreaterThan(14 * 60);
    // The right password too, while the lockout lasts, and it says the same.
    const right = await login(password);
    expect(right.status).toBe(429);
    expect(right.body.error).toBe('Too many failed login attempts. Try again in 15 minutes.');
  });

  it('the registrations of one address past their budget say when the next one is possible', async () => {
    const budgeted = await startTestServer(engine, { REGISTRATIONS_PER_IP_PER_HOUR: '1' });
    try {
      await registerUser(budgeted);
      const refused = await budgeted.call('POST', '/api/auth/register', {
        body: { email: 'late@example.com', username: 'late_user', name: 'Late', password: 'password123' },
      });
      expect(refused.status).toBe(429);
      expect(refused.body).toEqual({
        error: 'Too many accounts were created from this address. Try again in 60 minutes.',
      });
    } finally {
      await budgeted.close();
    }
  });
});
