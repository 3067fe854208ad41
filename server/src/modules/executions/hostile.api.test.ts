import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HOSTILE_CASES } from '@moonrelay/sandbox/sandbox/hostile-cases';
import { engines } from '../../../test/engines.ts';
import { registerUser, startTestServer, type TestServer } from '../../../test/test-server.ts';

/**
 * Hostile code through the real API: every case ends as hostile-cases.ts says (a limit or a clear
 * error), and the server keeps answering other requests while it runs.
 */

/**
 * Memory cases that reach the limit a step at a time, in a loop: on a loaded machine the soft
 * deadline can end them first (seen for the table bomb). One huge allocation always meets the limit.
 */
const GROWN_BY_A_LOOP = new Set(['string doubling', 'table bomb', 'coroutine bomb']);

type HostileCase = (typeof HOSTILE_CASES)[number];
const outcome = (hostile: HostileCase) =>
  hostile.stoppedBy === 'hard-deadline'
    ? 'stopped by the hard deadline'
    : hostile.expect.limit
      ? `${hostile.expect.limit} limit`
      : hostile.expect.error
        ? 'refused with an error'
        : 'values returned';

/**
 * The first case of each kind of ending (every limit, a refusal, values returned, a stop by the
 * hard deadline): the worker's own suite (sandbox/src/sandbox/hostile-cases.test.ts) runs every
 * case in the sandbox; here one of each proves the route, the pool and the thread carry that
 * ending to the caller. Memory cases grown by a loop are left to the worker, where no deadline
 * races them.
 */
const ONE_OF_EACH_OUTCOME = [
  ...HOSTILE_CASES.filter((hostile) => !GROWN_BY_A_LOOP.has(hostile.name))
    .reduce((first, hostile) => (first.has(outcome(hostile)) ? first : first.set(outcome(hostile), hostile)), new Map())
    .values(),
] as HostileCase[];

describe('hostile code through the execution API', () => {
  let server: TestServer;
  let token: string;
  beforeAll(async () => {
    server = await startTestServer(engines[0]!);
    ({ token } = await registerUser(server));
  });
  afterAll(() => server.close());

  it('knows the memory cases grown by a loop by their names', () => {
    const memoryCases = HOSTILE_CASES.filter((c) => c.expect.limit === 'memory').map((c) => c.name);
    expect(memoryCases).toEqual(expect.arrayContaining([...GROWN_BY_A_LOOP]));
  });

  it('runs one case of each kind of ending', () => {
    expect(new Set(ONE_OF_EACH_OUTCOME.map(outcome))).toEqual(new Set(HOSTILE_CASES.map(outcome)));
  });

  it.each(ONE_OF_EACH_OUTCOME.map((c) => [`${outcome(c)}: ${c.name}`, c] as const))(
    '%s is contained',
    async (_name, hostile) => {
      // The API answers output, not return values: a case that must return prints them instead.
      const code = hostile.expect.returns
        ? `local results = table.pack((function() ${hostile.code} end)())\nfor i = 1, results.n do print(tostring(results[i])) end`
        : hostile.code;
      const run = server.call('POST', '/api/scripts/execute', { token, body: { code, target: 'sandbox' } });
      // The server answers other requests while the hostile run is in flight.
      const other = await server.call('GET', '/api/user', { token });
      expect(other.status).toBe(200);
      const res = await run;
      // Each case ends as its own expectation says, through the API as in the sandbox itself.
      expect(res.status).toBe(200);
      const { limit, error, returns, output } = hostile.expect;
      if (hostile.stoppedBy === 'hard-deadline') {
        expect(res.body).toMatchObject({ success: false, limit: 'deadline' });
      } else if (limit === 'instructions' || GROWN_BY_A_LOOP.has(hostile.name)) {
        // On a loaded machine the 3 s soft deadline can come before a budget a loop runs into.
        expect(res.body.success).toBe(false);
        expect([limit, 'deadline']).toContain(res.body.limit);
      } else {
        expect(res.body.limit ?? null).toBe(limit);
        expect(res.body.success).toBe(error === null);
        if (error) expect(res.body.error).toMatch(error);
        else expect(res.body.error).toBeNull();
        if (returns) expect(res.body.output).toBe(returns.map((value) => `${value}\n`).join(''));
        if (output) expect(res.body.output).toMatch(output);
      }
      // The next run is clean and works.
      const next = await server.call('POST', '/api/scripts/execute', {
        token,
        body: { code: 'print(type(io), type(os.exit), string.rep("ab", 2))', target: 'sandbox' },
      });
      expect(next.body).toMatchObject({ success: true, output: 'nil nil abab\n' });
    },
  );

  it("answers another user's runs while one user's 10 endless loops are still being worked off", async () => {
    const hostile = await registerUser(server);
    const benign = await registerUser(server);
    let hostileAnswered = 0;
    const hostileRuns = Array.from({ length: 10 }, () =>
      server
        .call('POST', '/api/scripts/execute', {
          token: hostile.token,
          body: { code: 'while true do end', target: 'sandbox' },
        })
        .finally(() => (hostileAnswered += 1)),
    );
    // All ten are in the pool (running or waiting their turn) before the other user comes.
    await expect
      .poll(() => {
        const { running, waiting } = server.app.services.sandboxPool.stats();
        return running + waiting;
      })
      .toBe(10);
    for (let i = 0; i < 15; i++) {
      const res = await server.call('POST', '/api/scripts/execute', {
        token: benign.token,
        body: { code: `print(${i} * 2)`, target: 'sandbox' },
      });
      expect(res.body).toMatchObject({ success: true, output: `${i * 2}\n` });
      // Not queued behind the loops: each loop runs until a limit, one after another for that user.
      expect(hostileAnswered).toBeLessThan(10);
    }
    const results = await Promise.all(hostileRuns);
    expect(results.every((r) => r.body.limit === 'instructions' || r.body.limit === 'deadline')).toBe(true);
  }, 60_000);
});
