import { afterAll, beforeAll, expect, it } from 'vitest';
import { outcomeShares, UNSAVED_CODE_NAME, type ScriptAnalytics } from '@moonrelay/contract/analytics';
import type { RecentExecutionPage } from '@moonrelay/contract/admin';
import type { RunPage, RunSummary } from '@moonrelay/contract/runs';
import type { Script } from '@moonrelay/contract/scripts';
import { describeEachEngine } from '../../../test/engines.ts';
import { SimulatedGame } from '../../../test/simulated-game.ts';
import { registerUser, startTestServer, type TestServer } from '../../../test/test-server.ts';

/** A cron expression that is not due during a test (midnight on 1 January). */
const YEARLY = { kind: 'cron', cron: '0 0 1 1 *', timeZone: 'UTC' } as const;
const GREETER = 'print("hello from Greeter")';
const LOOPER = 'for i = 1, 3 do print(i) end';

/**
 * docs/decisions/046-one-count-of-runs.md: every screen that counts runs (the dashboard's Total
 * Executions, My Scripts' Executions column, Analytics, Runs and the admins' Recent Executions)
 * counts the same records by the same rules. A run counts as a saved script when it ran that
 * script's current code and said which script it was, whatever the target; any other run is
 * custom code.
 */
describeEachEngine('one count of runs', (engine) => {
  let server: TestServer;
  let admin: Awaited<ReturnType<typeof registerUser>>;
  beforeAll(async () => {
    // Game runs answer pending at once; the game's own pings complete them.
    server = await startTestServer(engine, { GAME_EXECUTION_WAIT_MS: '0' });
    admin = await registerUser(server); // the first account is an admin
    expect(admin.user.isAdmin).toBe(true);
  }, 60_000);
  afterAll(async () => {
    await server?.close();
  });

  const ok = async (promise: ReturnType<TestServer['call']>) => {
    const res = await promise;
    expect(res.status, res.text).toBe(200);
    return res.body;
  };

  /** Every run of the user, every page of GET /api/executions. */
  async function allRuns(token: string): Promise<RunSummary[]> {
    const runs: RunSummary[] = [];
    let cursor: string | null = null;
    do {
      const page = (await ok(
        server.call('GET', `/api/executions?limit=2${cursor ? `&cursor=${cursor}` : ''}`, { token }),
      )) as RunPage;
      runs.push(...page.runs);
      cursor = page.nextCursor;
    } while (cursor);
    return runs;
  }

  /** Resolves once the run is recorded with a final status (a game run's result came back). */
  const finished = (runId: string) =>
    new Promise<void>((resolve) => {
      const check = async () => {
        const row = await server.app.database.db
          .selectFrom('executions')
          .select('status')
          .where('id', '=', runId)
          .executeTakeFirst();
        if (row && row.status !== 'queued') {
          stop();
          resolve();
        }
      };
      const stop = server.app.services.bus.subscribe((event) => {
        if (event.type === 'execution:updated' && event.run.id === runId) void check();
      });
      void check();
    });

  it('counts every kind of run on every target alike on the dashboard, My Scripts, Analytics, Runs and the admin panel', async () => {
    const { token, user } = await registerUser(server);
    const key = user.apiKey as string;
    const greeter = (await ok(
      server.call('POST', '/api/scripts', { token, body: { name: 'Greeter', code: GREETER } }),
    )) as Script;
    const looper = (await ok(
      server.call('POST', '/api/scripts', { token, body: { name: 'Looper', code: LOOPER } }),
    )) as Script;
    const runSaved = (id: string, body: object) =>
      ok(server.call('POST', `/api/scripts/${id}/execute`, { token, body }));
    const runCode = (body: object) => ok(server.call('POST', '/api/scripts/execute', { token, body }));

    // The saved script by its id: in the sandbox, as a dry run, and on the game with none connected.
    await runSaved(greeter.id, { target: 'sandbox' });
    await runSaved(greeter.id, { target: 'dry-run' });
    expect(await runSaved(greeter.id, {})).toMatchObject({ gameConnected: false });
    // The editor's sandbox and dry run of the saved script, unchanged: its code, naming the script.
    await runCode({ code: GREETER, scriptId: greeter.id, target: 'sandbox' });
    await runCode({ code: GREETER, scriptId: greeter.id, target: 'dry-run' });
    // Custom code: an edit not saved yet, code that names no script, and code of no script at all.
    await runCode({ code: `${GREETER}\nprint("edited")`, scriptId: greeter.id, target: 'sandbox' });
    await runCode({ code: GREETER, target: 'sandbox' });
    expect(await runCode({ code: 'error("boom")', target: 'dry-run' })).toMatchObject({ success: false });
    // A script id that is not the caller's names nothing: custom code, and nothing of the owner's counts.
    const stranger = await registerUser(server);
    await ok(
      server.call('POST', '/api/scripts/execute', {
        token: stranger.token,
        body: { code: GREETER, scriptId: greeter.id, target: 'sandbox' },
      }),
    );

    // A schedule of the other script, in the sandbox.
    const sandboxSchedule = await ok(
      server.call('POST', `/api/scripts/${looper.id}/schedules`, { token, body: { ...YEARLY, target: 'sandbox' } }),
    );
    await server.app.services.scheduleRuns.runDue({
      scheduleId: sandboxSchedule.id,
      dueMs: Date.parse('2030-01-01T00:00:00Z'),
    });

    // A connected game: the script run there, a schedule's run there, the game fetching it by name,
    // and an admin running code on it.
    const game = new SimulatedGame({ url: server.url, key, serverId: 'counts-server' });
    await game.ping();
    const onGame = await runSaved(looper.id, { target: 'game' });
    expect(onGame).toMatchObject({ pending: true });
    const gameSchedule = await ok(
      server.call('POST', `/api/scripts/${looper.id}/schedules`, { token, body: { ...YEARLY, target: 'all-servers' } }),
    );
    await server.app.services.scheduleRuns.runDue({
      scheduleId: gameSchedule.id,
      dueMs: Date.parse('2030-01-01T00:00:00Z'),
    });
    await ok(server.call('POST', '/api/scripts/execute', { body: { key, script: 'Looper' } }));
    const byAdmin = await ok(
      server.call('POST', `/api/admin/users/${user.id}/execute-script`, {
        token: admin.token,
        body: { script: 'print("from the admin")' },
      }),
    );
    const results = Promise.all([finished(onGame.executionId), finished(byAdmin.executionId)]);
    await game.ping();
    await game.ping();
    await results;

    const scripts = (await ok(server.call('GET', '/api/scripts', { token }))) as Script[];
    const runs = await allRuns(token);
    const stats = (await ok(server.call('GET', '/api/analytics/scripts?period=24h', { token }))) as ScriptAnalytics;
    const recent = (await ok(
      server.call('GET', '/api/admin/recent-executions?pageSize=100', { token: admin.token }),
    )) as RecentExecutionPage;

    const countOf = (id: string) => scripts.find((script) => script.id === id)!.executionCount;
    const runsOf = (id: string | null) => runs.filter((run) => run.scriptId === id);
    const analyticsOf = (id: string | null) =>
      stats.executionsByScript.find((row) => row.scriptId === id)?.executions ?? 0;

    // What each run counted as: 5 of Greeter (three targets, two of them also by the editor's
    // unchanged code), 4 of Looper (game, sandbox schedule, game schedule, the game's fetch), and
    // 4 of custom code (the edit, code naming no script, the failing code, the admin's run).
    expect(runsOf(greeter.id)).toHaveLength(5);
    expect(new Set(runsOf(greeter.id).map((run) => run.target))).toEqual(new Set(['sandbox', 'dry-run', 'game']));
    expect(runsOf(greeter.id).every((run) => run.scriptVersion === 1)).toBe(true);
    expect(runsOf(looper.id)).toHaveLength(4);
    expect(runsOf(null)).toHaveLength(4);
    expect(runs).toHaveLength(13);

    // My Scripts' column, the Runs page filtered by the script, and the Analytics bar agree per script.
    for (const script of [greeter, looper]) {
      const filtered = (await ok(server.call('GET', `/api/executions?scriptId=${script.id}&limit=100`, { token })))
        .runs as RunSummary[];
      expect({ script: script.name, count: countOf(script.id) }).toEqual({
        script: script.name,
        count: runsOf(script.id).length,
      });
      expect(filtered).toHaveLength(runsOf(script.id).length);
      expect(analyticsOf(script.id)).toBe(runsOf(script.id).length);
    }
    // The dashboard's Total Executions: the sum of the scripts' counts, every run of a saved script.
    const dashboardTotal = scripts.reduce((sum, script) => sum + script.executionCount, 0);
    expect(dashboardTotal).toBe(runs.filter((run) => run.scriptId !== null).length);
    expect(dashboardTotal).toBe(9);
    // Analytics: every run the Runs page lists, custom code under its own name, outcomes adding up.
    expect(stats.totalExecutions).toBe(runs.length);
    expect(stats.executionsByScript.find((row) => row.scriptId === null)).toMatchObject({
      name: UNSAVED_CODE_NAME,
      executions: runsOf(null).length,
    });
    expect(stats.executionsByScript.reduce((sum, row) => sum + row.executions, 0)).toBe(runs.length);
    expect(stats.executionsOverTime.reduce((sum, bucket) => sum + bucket.executions, 0)).toBe(runs.length);
    const status = (name: RunSummary['status']) => runs.filter((run) => run.status === name).length;
    expect(stats.outcomes).toEqual({
      succeeded: status('succeeded'),
      failed: status('failed'),
      pending: status('pending'),
      notConnected: status('not_connected'),
    });
    expect(stats.outcomes.notConnected).toBe(1);
    // The success rate is the share of the ring the Analytics donut draws as succeeded.
    expect(stats.successRate).toBe(outcomeShares(stats.outcomes)!.succeeded);
    // The admins' Recent Executions: the runs admins started, as the user's Runs page shows them.
    expect(recent.total).toBe(runs.filter((run) => run.startedBy === 'admin').length);
    expect(recent.total).toBe(1);

    // The stranger's run named Greeter's id but is theirs, as custom code.
    const theirs = await allRuns(stranger.token);
    expect(theirs.map((run) => run.scriptId)).toEqual([null]);
  });
});
