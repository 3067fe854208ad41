import { afterEach, expect, it } from 'vitest';
import { describeEachEngine } from '../../../test/engines.ts';
import { startTestServer, type TestServer } from '../../../test/test-server.ts';

/** The first account of an instance is its admin: one, however many register at the same moment. */
describeEachEngine('attack: registering at once on a fresh instance', (engine) => {
  let server: TestServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it.each([1, 2, 3, 4, 5])('makes exactly one admin of 8 simultaneous registrations (trial %i)', async () => {
    server = await startTestServer(engine);
    const started = server;
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        started.call('POST', '/api/auth/register', {
          body: { email: `racer${i}@example.com`, username: `racer_${i}`, name: `Racer ${i}`, password: 'password123' },
        }),
      ),
    );
    expect(answers.map((answer) => answer.status)).toEqual(Array(8).fill(200));
    expect(answers.filter((answer) => answer.body.user.isAdmin)).toHaveLength(1);
  });
});
