import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERRORS } from '@moonrelay/contract/messages';
import { engines } from '../../../test/engines.ts';
import { startTestServer, type TestServer } from '../../../test/test-server.ts';

/** Registration from one address has a budget, so accounts cannot be made by the thousand. */
describe('attack: scripted registration', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(engines[0]!, { REGISTRATIONS_PER_IP_PER_HOUR: '3' });
  });
  afterAll(() => server.close());

  it('refuses registrations from one address past its hourly budget, even sent at once', async () => {
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        server.call('POST', '/api/auth/register', {
          body: { email: `bot${i}@example.com`, username: `bot_${i}`, name: 'Bot', password: 'password123' },
        }),
      ),
    );
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(3);
    const refused = answers.filter((answer) => answer.status === 429);
    expect(refused).toHaveLength(7);
    expect(refused[0]!.body).toEqual({
      error: ERRORS.tooManyRegistrations(Number(refused[0]!.headers.get('retry-after'))),
    });
    expect(Number(refused[0]!.headers.get('retry-after'))).toBeGreaterThan(3000);
  });

  it('does not spend the budget on a form that is refused', async () => {
    const fresh = await startTestServer(engines[0]!, { REGISTRATIONS_PER_IP_PER_HOUR: '1' });
    try {
      const bad = await fresh.call('POST', '/api/auth/register', { body: { email: 'nope' } });
      expect(bad.status).toBe(400);
      const good = await fresh.call('POST', '/api/auth/register', {
        body: { email: 'real@example.com', username: 'real_user', name: 'Real', password: 'password123' },
      });
      expect(good.status).toBe(200);
    } finally {
      await fresh.close();
    }
  });
});
