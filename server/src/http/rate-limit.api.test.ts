import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERRORS } from '@moonrelay/contract/messages';
import { engines } from '../../test/engines.ts';
import { registerUser, startTestServer, type TestServer } from '../../test/test-server.ts';

describe('rate limits (spec section 9: 100 requests a minute per principal)', () => {
  let server: TestServer;
  beforeAll(async () => {
    // The real default budget.
    server = await startTestServer(engines[0]!, { RATE_LIMIT_PER_MINUTE: '100' });
  });
  afterAll(() => server.close());

  it('answers the 101st request of a minute with 429, Retry-After and RateLimit headers', async () => {
    const { token } = await registerUser(server);
    for (let i = 1; i <= 100; i++) {
      const res = await server.call('GET', '/api/scripts', { token });
      expect(res.status, `request ${i}`).toBe(200);
      expect(res.headers.get('ratelimit-remaining')).toBe(String(100 - i));
    }
    const limited = await server.call('GET', '/api/scripts', { token });
    expect(limited.status).toBe(429);
    expect(limited.body).toEqual({ error: ERRORS.tooManyRequests });
    const retryAfter = Number(limited.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(limited.headers.get('ratelimit-limit')).toBe('100');
    expect(limited.headers.get('ratelimit-remaining')).toBe('0');
  });

  it('counts each principal on its own: another user, and the same user’s API key, are unaffected', async () => {
    const busy = await registerUser(server);
    for (let i = 0; i < 101; i++) await server.call('GET', '/api/user', { token: busy.token });
    expect((await server.call('GET', '/api/user', { token: busy.token })).status).toBe(429);
    const other = await registerUser(server);
    expect((await server.call('GET', '/api/user', { token: other.token })).status).toBe(200);
    expect((await server.call('GET', '/api/scripts', { token: busy.user.apiKey })).status).toBe(200);
  });

  it('lets a game client that syncs scripts every 2 s stay well inside the budget', async () => {
    const { user } = await registerUser(server);
    // 30 calls a minute is the ping cadence; the game's script sync is a fifth of that.
    for (let i = 0; i < 36; i++)
      expect((await server.call('GET', '/api/scripts', { token: user.apiKey })).status).toBe(200);
  });
});

describe('rate limits for anonymous callers', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(engines[0]!, { RATE_LIMIT_PER_MINUTE: '5' });
  });
  afterAll(() => server.close());

  it('counts anonymous requests by IP address', async () => {
    for (let i = 0; i < 5; i++) expect((await server.call('GET', '/api/openapi.json')).status).toBe(200);
    const res = await server.call('POST', '/api/auth/login', { body: { emailOrUsername: 'a', password: 'b' } });
    expect(res.status).toBe(429);
  });
});
