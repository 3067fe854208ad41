import argon2 from 'argon2';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { ERRORS } from '@moonrelay/contract/messages';
import { describeEachEngine } from '../../../test/engines.ts';
import { registerUser, startTestServer, type TestServer } from '../../../test/test-server.ts';

/**
 * Guessing passwords in parallel: every attempt is counted before its password is checked, so a
 * burst of any size costs at most the limit's argon2 checks, the rest are answered 429 with
 * Retry-After, and one lockout writes one audit entry.
 */
const LIMIT = 5;

describeEachEngine('attack: a parallel burst of login attempts', (engine) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(engine, { LOGIN_MAX_FAILURES: String(LIMIT) });
  });
  afterAll(() => server.close());

  const login = (emailOrUsername: string, password: string) =>
    server.call('POST', '/api/auth/login', { body: { emailOrUsername, password } });

  const lockoutEntries = async (userId: string) =>
    server.app.database.db
      .selectFrom('auditLog')
      .select('id')
      .where('action', '=', 'security.login_locked')
      .where('targetId', '=', userId)
      .execute();

  it('checks at most the limit of 40 wrong passwords sent at once, and refuses the right one among them', async () => {
    const { input, password, user } = await registerUser(server);
    const verify = vi.spyOn(argon2, 'verify');
    try {
      const burst = Array.from({ length: 40 }, (_, i) => login(input.username, i === 39 ? password : `wrong ${i}`));
      const answers = await Promise.all(burst);
      expect(verify.mock.calls.length).toBeLessThanOrEqual(LIMIT);
      const statuses = answers.map((answer) => answer.status);
      expect(statuses.filter((status) => status === 401).length).toBeLessThanOrEqual(LIMIT);
      expect(statuses.filter((status) => status === 200)).toEqual([]);
      const refused = answers.filter((answer) => answer.status === 429);
      expect(refused.length).toBeGreaterThanOrEqual(40 - LIMIT);
      for (const answer of refused) {
        expect(Number(answer.headers.get('retry-after'))).toBeGreaterThan(0);
        expect(answer.body.error).toBe(ERRORS.tooManyLoginAttempts(Number(answer.headers.get('retry-after'))));
      }
    } finally {
      verify.mockRestore();
    }
    expect(await lockoutEntries(user.id)).toHaveLength(1);
  });

  it('locks an identifier without telling which other identifier belongs to the same account', async () => {
    const { input, password } = await registerUser(server);
    await Promise.all(Array.from({ length: LIMIT + 1 }, () => login(input.email, 'wrong wrong')));
    expect((await login(input.email, password)).status).toBe(429);
    // The username answers as any untouched name would: the lockout says nothing about the pair.
    expect((await login(input.username, 'wrong wrong')).status).toBe(401);
    expect((await login('someone_unrelated', 'wrong wrong')).status).toBe(401);
  });
});
