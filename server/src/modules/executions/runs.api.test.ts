import { TEAM_HEADER } from '@moonrelay/contract/teams';
import crypto from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { RUN_ERRORS, RUNS_PAGE_SIZE_MAX, type Run, type RunSummary } from '@moonrelay/contract/runs';
import { describeEachEngine } from '../../../test/engines.ts';
import { SimulatedGame } from '../../../test/simulated-game.ts';
import { registerUser, startTestServer, type TestServer } from '../../../test/test-server.ts';
import type { BusEvent } from '../../platform/event-bus.ts';

type Account = Awaited<ReturnType<typeof registerUser>>;

describeEachEngine('run history API', (engine) => {
  let server: TestServer;
  let alice: Account;
  let bob: Account;
  /** Alice's runs by what they are, as the execute calls answered them. */
  const ran: Record<string, string> = {};
  let alpha: string;
  let beta: string;
  const longCode = `${'-- a comment to make this script long\n'.repeat(30)}print("beta")`;
  let pendingGame: SimulatedGame;
  let pendingCall: Promise<unknown>;

  const list = (query: Record<string, string> = {}, token = alice.token) =>
    server.call('GET', `/api/executions?${new URLSearchParams(query)}`, { token });
  const one = (id: string, token = alice.token) =>
    server.call('GET', `/api/executions/${encodeURIComponent(id)}`, { token });
  const execute = (body: unknown, token = alice.token) => server.call('POST', '/api/scripts/execute', { token, body });
  const executeScript = (id: string, body: unknown, token = alice.token) =>
    server.call('POST', `/api/scripts/${id}/execute`, { token, body });
  const ids = (runs: RunSummary[]) => runs.map((run) => run.id);
  /** The next `execution:updated` bus event for this run that matches. */
  const nextUpdate = (match: (run: RunSummary) => boolean) =>
    new Promise<RunSummary>((resolve) => {
      const unsubscribe = server.app.services.bus.subscribe((event: BusEvent) => {
        if (event.type !== 'execution:updated' || !match(event.run)) return;
        unsubscribe();
        resolve(event.run);
      });
    });
  /** Every page of a listing with `query`, `limit` at a time. */
  async function allPages(query: Record<string, string>, limit: number, token = alice.token) {
    const pages: RunSummary[][] = [];
    let cursor: string | null = null;
    do {
      const res = await list({ ...query, limit: String(limit), ...(cursor ? { cursor } : {}) }, token);
      expect(res.status, res.text).toBe(200);
      pages.push(res.body.runs);
      cursor = res.body.nextCursor;
    } while (cursor);
    return pages;
  }

  beforeAll(async () => {
    server = await startTestServer(engine, { RATE_LIMIT_GAME_PING_PER_MINUTE: '100000' });
    alice = await registerUser(server);
    bob = await registerUser(server);
    const created = async (name: string, code: string) =>
      (await server.call('POST', '/api/scripts', { token: alice.token, body: { name, code } })).body.id as string;
    alpha = await created('Alpha', 'print("alpha")');
    beta = await created('Beta', longCode);

    const id = (res: { status: number; text: string; body: { executionId: string } }) => {
      expect(res.status, res.text).toBe(200);
      return res.body.executionId;
    };
    ran.alphaSandbox = id(await executeScript(alpha, { target: 'sandbox' }));
    ran.alphaDryRun = id(await executeScript(alpha, { target: 'dry-run' }));
    ran.betaSandbox = id(await executeScript(beta, { target: 'sandbox' }));
    ran.failed = id(await execute({ code: 'print("before")\nerror("boom", 0)', target: 'sandbox' }));
    ran.limit = id(await execute({ code: 'for i = 1, 200 do print(string.rep("x", 1000)) end', target: 'sandbox' }));
    ran.notConnected = id(await execute({ code: 'print("nobody")', serverId: 'runs-gone' }));

    const game = new SimulatedGame({ url: server.url, key: alice.user.apiKey, serverId: 'runs-live', wait: 5 });
    await game.ping({ wait: 0 });
    game.start();
    try {
      ran.game = id(await execute({ code: 'print("on the game")', serverId: 'runs-live' }));
    } finally {
      await game.stop();
    }

    // A game run left waiting for its result: the game took nothing yet.
    pendingGame = new SimulatedGame({ url: server.url, key: alice.user.apiKey, serverId: 'runs-slow' });
    await pendingGame.ping();
    const queued = nextUpdate((run) => run.serverId === 'runs-slow' && run.status === 'pending');
    pendingCall = execute({ code: 'print("late")', serverId: 'runs-slow' });
    ran.pending = (await queued).id;

    const adminRun = await server.app.services.executions.runCode(
      alice.user.id,
      'print("from an admin")',
      'sandbox',
      undefined,
      { initiatedBy: bob.user.id },
    );
    ran.admin = adminRun.executionId;
    ran.bob = id(await execute({ code: 'print("bob")', target: 'sandbox' }, bob.token));
  }, 60_000);

  afterAll(async () => {
    await pendingGame?.ping();
    await pendingGame?.ping();
    await pendingCall;
    await server.close();
  });

  it("lists the user's own runs only, newest first, with what the table shows", async () => {
    const res = await list();
    expect(res.status).toBe(200);
    const runs: RunSummary[] = res.body.runs;
    expect(ids(runs).sort()).toEqual(
      Object.entries(ran)
        .filter(([name]) => name !== 'bob')
        .map(([, id]) => id)
        .sort(),
    );
    expect(res.body.nextCursor).toBeNull();
    const order = runs.map((run) => `${run.createdAt} ${run.id}`);
    expect(order).toEqual([...order].sort().reverse());
    const byId = new Map(runs.map((run) => [run.id, run]));
    expect(byId.get(ran.alphaSandbox!)).toEqual({
      id: ran.alphaSandbox,
      scriptId: alpha,
      scriptName: 'Alpha',
      scriptVersion: 1,
      target: 'sandbox',
      serverId: null,
      status: 'succeeded',
      limitHit: null,
      durationMs: expect.any(Number),
      startedBy: 'user',
      actorId: alice.user.id,
      actorName: alice.user.username,
      keyName: null,
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
    });
    expect(byId.get(ran.game!)).toMatchObject({ target: 'game', serverId: 'runs-live', status: 'succeeded' });
    expect(byId.get(ran.notConnected!)).toMatchObject({ serverId: 'runs-gone', status: 'not_connected' });
    expect(byId.get(ran.pending!)).toMatchObject({ serverId: 'runs-slow', status: 'pending', scriptName: null });
    expect(byId.get(ran.limit!)).toMatchObject({ status: 'failed', limitHit: 'output' });
    expect(byId.get(ran.admin!)).toMatchObject({ startedBy: 'admin' });
    // Bob sees his one run.
    expect(ids((await list({}, bob.token)).body.runs)).toEqual([ran.bob]);
  });

  it('answers one run in full: the whole code, output, error, where, how long, and who started it', async () => {
    const res = await one(ran.betaSandbox!);
    expect(res.status).toBe(200);
    expect(longCode.length).toBeGreaterThan(500);
    expect(res.body).toEqual({
      id: ran.betaSandbox,
      scriptId: beta,
      scriptName: 'Beta',
      scriptVersion: 1,
      target: 'sandbox',
      serverId: null,
      status: 'succeeded',
      limitHit: null,
      durationMs: expect.any(Number),
      startedBy: 'user',
      actorId: alice.user.id,
      actorName: alice.user.username,
      keyName: null,
      createdAt: expect.any(String),
      code: longCode,
      codeComplete: true,
      output: 'beta\n',
      error: null,
    } satisfies Record<Exclude<keyof Run, 'cloud' | 'cloudState'>, unknown>);

    const failed = (await one(ran.failed!)).body;
    expect(failed).toMatchObject({
      scriptId: null,
      scriptName: null,
      status: 'failed',
      output: 'before\n',
      error: 'boom',
    });
    expect(failed.code).toBe('print("before")\nerror("boom", 0)');
    expect((await one(ran.limit!)).body).toMatchObject({ limitHit: 'output', status: 'failed' });
    expect((await one(ran.game!)).body).toMatchObject({ serverId: 'runs-live', output: 'on the game\n' });
    expect((await one(ran.admin!)).body).toMatchObject({
      startedBy: 'admin',
      output: 'from an admin\n',
      actorId: null,
    });
  });

  it("names who started each of a team's runs, with the key they used, and lists one member's runs", async () => {
    const owner = await registerUser(server);
    const developer = await registerUser(server);
    const teamId = (await server.call('POST', '/api/teams', { token: owner.token, body: { name: 'Run makers' } })).body
      .id as string;
    const link = await server.call('POST', `/api/teams/${teamId}/invitations`, {
      token: owner.token,
      body: { role: 'developer' },
    });
    await server.call('POST', '/api/teams/join', { token: developer.token, body: { token: link.body.token } });
    const onTeam = (token: string) => ({ token, headers: { [TEAM_HEADER]: teamId } });
    const key = await server.call('POST', '/api/user/api-keys', {
      ...onTeam(developer.token),
      body: { name: 'Deploy bot', scopes: ['execute'] },
    });
    expect(key.status, key.text).toBe(200);
    const run = async (token: string, headers: Record<string, string> = { [TEAM_HEADER]: teamId }) => {
      const res = await server.call('POST', '/api/scripts/execute', {
        token,
        headers,
        body: { code: 'print(1)', target: 'sandbox' },
      });
      expect(res.status, res.text).toBe(200);
      return res.body.executionId as string;
    };
    const byOwner = await run(owner.token);
    const byDeveloper = await run(developer.token);
    // A team key acts on its team without the header.
    const byKey = await run(key.body.key as string, {});

    const page = await server.call('GET', '/api/executions', onTeam(owner.token));
    const who = Object.fromEntries(
      (page.body.runs as RunSummary[]).map((r) => [r.id, [r.actorId, r.actorName, r.keyName]]),
    );
    expect(who).toEqual({
      [byOwner]: [owner.user.id, owner.user.username, null],
      [byDeveloper]: [developer.user.id, developer.user.username, null],
      [byKey]: [developer.user.id, developer.user.username, 'Deploy bot'],
    });
    const theirs = await server.call('GET', `/api/executions?actorId=${developer.user.id}`, onTeam(owner.token));
    expect(ids(theirs.body.runs).sort()).toEqual([byDeveloper, byKey].sort());

    // The name stays with the run after they leave the team.
    await server.call('DELETE', `/api/teams/${teamId}/members/${developer.user.id}`, { token: owner.token });
    expect((await one(byDeveloper, owner.token)).status).toBe(404);
    const kept = await server.call('GET', `/api/executions/${byDeveloper}`, onTeam(owner.token));
    expect(kept.body).toMatchObject({ actorId: developer.user.id, actorName: developer.user.username });
  });

  it("answers 404 'Execution not found' for another user's run and for an unknown id", async () => {
    for (const [id, token] of [
      [ran.bob!, alice.token],
      [ran.alphaSandbox!, bob.token],
      [crypto.randomUUID(), alice.token],
      ['not-a-uuid', alice.token],
    ] as const) {
      const res = await one(id, token);
      expect(res.status, id).toBe(404);
      expect(res.body).toEqual({ error: RUN_ERRORS.notFound });
    }
  });

  it('takes the API key as well as a session, and nothing else', async () => {
    const byKey = await list({}, alice.user.apiKey);
    expect(byKey.status).toBe(200);
    expect(byKey.body.runs.length).toBe(Object.keys(ran).length - 1);
    expect((await one(ran.failed!, alice.user.apiKey)).status).toBe(200);
    expect((await server.call('GET', '/api/executions')).status).toBe(401);
    expect((await server.call('GET', `/api/executions/${ran.failed}`)).status).toBe(401);
  });

  it('filters by script, target, server and status', async () => {
    const listed = async (query: Record<string, string>) => {
      const res = await list(query);
      expect(res.status, res.text).toBe(200);
      return ids(res.body.runs).sort();
    };
    const sorted = (...names: string[]) => names.map((name) => ran[name]!).sort();
    expect(await listed({ scriptId: alpha })).toEqual(sorted('alphaSandbox', 'alphaDryRun'));
    expect(await listed({ scriptId: crypto.randomUUID() })).toEqual([]);
    expect(await listed({ target: 'dry-run' })).toEqual(sorted('alphaDryRun'));
    expect(await listed({ target: 'game' })).toEqual(sorted('notConnected', 'game', 'pending'));
    expect(await listed({ target: 'sandbox' })).toEqual(
      sorted('alphaSandbox', 'betaSandbox', 'failed', 'limit', 'admin'),
    );
    expect(await listed({ serverId: 'runs-live' })).toEqual(sorted('game'));
    expect(await listed({ status: 'pending' })).toEqual(sorted('pending'));
    expect(await listed({ status: 'failed' })).toEqual(sorted('failed', 'limit'));
    expect(await listed({ status: 'limit' })).toEqual(sorted('limit'));
    expect(await listed({ status: 'not_connected' })).toEqual(sorted('notConnected'));
    expect(await listed({ status: 'succeeded', scriptId: alpha, target: 'sandbox' })).toEqual(sorted('alphaSandbox'));
    expect(await listed({ status: 'succeeded' })).toEqual(
      sorted('alphaSandbox', 'alphaDryRun', 'betaSandbox', 'game', 'admin'),
    );
  });

  it('filters by time: from is inclusive, to exclusive, offsets count as the instant they name', async () => {
    const all: RunSummary[] = (await list()).body.runs;
    const middle = all[Math.floor(all.length / 2)]!;
    const at = middle.createdAt;
    const expectSame = async (query: Record<string, string>, keep: (run: RunSummary) => boolean) => {
      const res = await list(query);
      expect(res.status, res.text).toBe(200);
      expect(ids(res.body.runs)).toEqual(ids(all.filter(keep)));
    };
    await expectSame({ from: at }, (run) => run.createdAt >= at);
    await expectSame({ to: at }, (run) => run.createdAt < at);
    await expectSame({ from: at, to: at }, () => false);
    // The same instant written with an offset and without milliseconds selects the same runs.
    const oneSecondLater = new Date(Date.parse(at) + 1000);
    const second = oneSecondLater.toISOString().slice(0, 19);
    const shifted = new Date(Date.parse(`${second}Z`) + 2 * 3600_000).toISOString().slice(0, 19) + '+02:00';
    await expectSame({ to: shifted }, (run) => run.createdAt < `${second}.000Z`);
    await expectSame({ from: '2000-01-01T00:00:00Z', to: '2001-01-01T00:00:00Z' }, () => false);
  });

  it('pages newest first across several pages without repeating or skipping a run', async () => {
    const carol = await registerUser(server);
    for (let i = 0; i < 17; i++) {
      const res = await execute({ code: `print(${i})`, target: 'sandbox' }, carol.token);
      expect(res.status).toBe(200);
    }
    // Runs recorded in the same millisecond are ordered by id, so a page boundary between them is exact.
    const sameTime = '2026-01-02T03:04:05.678Z';
    for (let i = 0; i < 6; i++) {
      await server.app.database.db
        .insertInto('executions')
        .values({
          id: crypto.randomUUID(),
          userId: carol.user.id,
          scriptId: null,
          target: 'sandbox',
          status: 'succeeded',
          codeExcerpt: `print("tied ${i}")`,
          output: '',
          error: null,
          limitHit: null,
          durationMs: 1,
          createdAt: sameTime,
          initiatedBy: null,
        })
        .execute();
    }
    const everything: RunSummary[] = (await list({ limit: String(RUNS_PAGE_SIZE_MAX) }, carol.token)).body.runs;
    expect(everything).toHaveLength(23);
    const pages = await allPages({}, 5, carol.token);
    expect(pages.map((page) => page.length)).toEqual([5, 5, 5, 5, 3]);
    expect(ids(pages.flat())).toEqual(ids(everything));
    const tied = everything.filter((run) => run.createdAt === sameTime).map((run) => run.id);
    expect(tied).toEqual([...tied].sort().reverse());

    // A run recorded while someone pages does not shift the pages still to come.
    const first = await list({ limit: '4' }, carol.token);
    await execute({ code: 'print("meanwhile")', target: 'sandbox' }, carol.token);
    let cursor: string | null = first.body.nextCursor;
    const rest: RunSummary[] = [];
    while (cursor) {
      const page = await list({ limit: '4', cursor }, carol.token);
      rest.push(...page.body.runs);
      cursor = page.body.nextCursor;
    }
    expect([...ids(first.body.runs), ...ids(rest)]).toEqual(ids(everything));

    // Filters hold across pages too.
    const filtered = await allPages({ from: sameTime, to: '2026-01-02T03:04:05.679Z' }, 4, carol.token);
    expect(ids(filtered.flat())).toEqual(tied);
  });

  it('keeps a run of a deleted script under the name it had', async () => {
    const created = await server.call('POST', '/api/scripts', {
      token: alice.token,
      body: { name: 'Short-lived', code: 'print("gone soon")' },
    });
    const run = (await executeScript(created.body.id, { target: 'sandbox' })).body.executionId;
    expect((await server.call('DELETE', `/api/scripts/${created.body.id}`, { token: alice.token })).status).toBe(200);
    expect((await one(run)).body).toMatchObject({
      scriptId: null,
      scriptName: 'Short-lived',
      code: 'print("gone soon")',
    });
  });

  it('shows the current name of a renamed script', async () => {
    await server.call('PUT', `/api/scripts/${alpha}`, { token: alice.token, body: { name: 'Alpha Prime' } });
    expect((await one(ran.alphaSandbox!)).body.scriptName).toBe('Alpha Prime');
  });

  it('answers 400 with the reason for bad filters and cursors', async () => {
    const cases: [Record<string, string>, RegExp][] = [
      [{ limit: '0' }, /^limit: /],
      [{ limit: String(RUNS_PAGE_SIZE_MAX + 1) }, /^limit: /],
      [{ limit: 'ten' }, /^limit: /],
      [{ target: 'mars' }, /^target: /],
      [{ status: 'exploded' }, /^status: /],
      [{ from: 'yesterday' }, /^from: must be an ISO 8601 date and time/],
      [{ to: '2026-13-45T00:00:00Z' }, /^to: /],
      [{ from: '2026-02-01T00:00:00Z', to: '2026-01-01T00:00:00Z' }, /^from must not be after to$/],
      [{ serverId: 'bad id!' }, /serverId/],
      [{ cursor: 'not-a-cursor' }, /^cursor: /],
      [{ cursor: Buffer.from('["x"]').toString('base64url') }, /^cursor: /],
      [{ cursor: Buffer.from('["2026-01-01T00:00:00.000Z","a\\u0000"]').toString('base64url') }, /^cursor: /],
    ];
    for (const [query, message] of cases) {
      const res = await list(query);
      expect(res.status, JSON.stringify(query)).toBe(400);
      expect(res.body.error, JSON.stringify(query)).toMatch(message);
    }
    const twice = await server.call('GET', '/api/executions?target=game&target=sandbox', { token: alice.token });
    expect(twice.status).toBe(400);
    expect(twice.body.error).toMatch(/^target: /);
  });
});
