import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERRORS } from '@moonrelay/contract/messages';
import { describeOnSQLite, engines } from '../../../test/engines.ts';
import { registerUser, startTestServer, type TestServer } from '../../../test/test-server.ts';

describeOnSQLite('execution API', (engine) => {
  let server: TestServer;
  let token: string;
  let userId: string;
  beforeAll(async () => {
    server = await startTestServer(engine);
    const registered = await registerUser(server);
    token = registered.token;
    userId = registered.user.id;
  });
  afterAll(() => server.close());

  const execute = (body: unknown, as = token) => server.call('POST', '/api/scripts/execute', { token: as, body });

  it('runs code in the sandbox and answers its output', async () => {
    const res = await execute({ code: 'print("hello", 1 + 1, 3.0)', target: 'sandbox' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      success: true,
      output: 'hello 2 3\n',
      error: null,
      target: 'sandbox',
      limit: null,
    });
    expect(res.body.executionId).toMatch(/^[0-9a-f-]{36}$/);
    expect(res.body.durationMs).toBeGreaterThanOrEqual(0);
  });

  it('accepts the catalogue’s loadstring field', async () => {
    const res = await execute({ loadstring: 'print("from loadstring")', target: 'sandbox' });
    expect(res.body.output).toBe('from loadstring\n');
  });

  it('answers a Lua runtime error as an unsuccessful run with the line', async () => {
    const res = await execute({ code: 'local t = nil\nprint(t.x)', target: 'sandbox' });
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(false);
    expect(res.body.error).toMatch(/^script:2: attempt to index a nil value/);
  });

  it('keeps output and errors holding NUL, shown as U+FFFD, in the answer and the history alike', async () => {
    const printed = await execute({ code: 'print("a\\0b")', target: 'sandbox' });
    expect(printed.status, printed.text).toBe(200);
    expect(printed.body).toMatchObject({ success: true, output: 'a\ufffdb\n', error: null });
    const raised = await execute({ code: 'error("x\\0y", 0)', target: 'sandbox' });
    expect(raised.status, raised.text).toBe(200);
    expect(raised.body).toMatchObject({ success: false, error: 'x\ufffdy' });
    const recorded = await server.app.database.db
      .selectFrom('executions')
      .select(['id', 'output', 'error'])
      .where('id', 'in', [printed.body.executionId, raised.body.executionId])
      .execute();
    expect(recorded.find((row) => row.id === printed.body.executionId)?.output).toBe('a\ufffdb\n');
    expect(recorded.find((row) => row.id === raised.body.executionId)?.error).toBe('x\ufffdy');
  });

  it('checks syntax first: a syntax error is a 400 with line:column, and nothing runs', async () => {
    const before = await server.app.database.db
      .selectFrom('executions')
      .select('id')
      .where('userId', '=', userId)
      .execute();
    const res = await execute({ code: 'print("ok")\nlocal x = = 1', target: 'sandbox' });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe("Lua syntax error: 2:11: Expected identifier when parsing expression, got '='");
    const after = await server.app.database.db
      .selectFrom('executions')
      .select('id')
      .where('userId', '=', userId)
      .execute();
    expect(after.length).toBe(before.length);
  });

  it('answers the not-connected shape for the game target (the default) until a game connects', async () => {
    const res = await execute({ code: 'print(1)' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      success: false,
      queued: false,
      gameConnected: false,
      error: ERRORS.gameNotConnected,
      instructions: ERRORS.gameNotConnectedInstructions,
      target: 'game',
    });
  });

  it('runs a saved script, counts the run, and records the history', async () => {
    const created = await server.call('POST', '/api/scripts', {
      token,
      body: { name: 'Counter', code: 'return 40 + 2' },
    });
    const id = created.body.id;
    for (let i = 0; i < 2; i++) {
      const res = await server.call('POST', `/api/scripts/${id}/execute`, { token, body: { target: 'sandbox' } });
      expect(res.body.success).toBe(true);
    }
    const list = await server.call('GET', '/api/scripts', { token });
    expect(list.body.find((s: { id: string }) => s.id === id).executionCount).toBe(2);
    const history = await server.app.database.db
      .selectFrom('executions')
      .selectAll()
      .where('scriptId', '=', id)
      .execute();
    expect(history).toHaveLength(2);
    expect(history[0]).toMatchObject({ userId, target: 'sandbox', status: 'succeeded', codeExcerpt: 'return 40 + 2' });
  });

  it("does not run another user's script", async () => {
    const other = await registerUser(server);
    const created = await server.call('POST', '/api/scripts', { token, body: { name: 'Mine', code: 'print(1)' } });
    const res = await server.call('POST', `/api/scripts/${created.body.id}/execute`, { token: other.token, body: {} });
    expect(res.status).toBe(404);
    expect(res.body.error).toBe(ERRORS.scriptNotFound);
  });

  it('dry-runs code against the emulated game and answers what it changed, recorded as a dry run', async () => {
    const code = [
      'local part = Instance.new("Part")',
      'part.Anchored = true',
      'part.Parent = workspace',
      'game:GetService("Players").PlayerAdded:Connect(function(player)',
      '  local character = player.Character or player.CharacterAdded:Wait()',
      '  character:PivotTo(CFrame.new(0, 50, 0))',
      '  print(player.Name, "moved to", character.HumanoidRootPart.Position)',
      'end)',
      'task.wait(2)',
      'print("done at", os.clock())',
    ].join('\n');
    const res = await execute({ code, target: 'dry-run' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      success: true,
      output: 'Player1 moved to 0, 50, 0\ndone at 2\n',
      error: null,
      target: 'dry-run',
      limit: null,
      dryRun: {
        created: [{ className: 'Part', count: 1 }],
        destroyed: [],
        changedOmitted: 0,
        gameSeconds: 2,
        waitingThreads: 0,
        endedBy: 'idle',
      },
    });
    expect(res.body.dryRun.changed[0]).toEqual({
      instance: 'Workspace.Player1.HumanoidRootPart',
      property: 'CFrame',
      value: '0, 50, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1',
    });
    const row = await server.app.database.db
      .selectFrom('executions')
      .selectAll()
      .where('id', '=', res.body.executionId)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ userId, target: 'dry-run', status: 'succeeded', output: res.body.output });
  });

  it('answers a dry run of something not emulated as a failed run with the clear error', async () => {
    const res = await execute({ code: 'local store = game:GetService("DataStoreService")', target: 'dry-run' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      success: false,
      error: 'script:1: DataStoreService is not available in a dry run',
      target: 'dry-run',
      limit: null,
    });
  });

  it('dry-runs a saved script, and a dry run ended by a sandbox limit answers no summary', async () => {
    const created = await server.call('POST', '/api/scripts', {
      token,
      body: { name: 'Endless', code: 'while true do\n  local part = Instance.new("Part")\nend' },
    });
    const res = await server.call('POST', `/api/scripts/${created.body.id}/execute`, {
      token,
      body: { target: 'dry-run' },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: false, target: 'dry-run', dryRun: null });
    expect(['memory', 'instructions', 'deadline']).toContain(res.body.limit);
  });

  it('refuses missing code and a wrong target', async () => {
    expect((await execute({ target: 'sandbox' })).body.error).toBe('Code is required');
    const wrong = await execute({ code: 'print(1)', target: 'mars' });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error).toMatch(/^target: /);
  });
});

describe('Lua tools API', () => {
  let server: TestServer;
  let token: string;
  beforeAll(async () => {
    server = await startTestServer(engines[0]!);
    ({ token } = await registerUser(server));
  });
  afterAll(() => server.close());

  it('checks Luau and answers diagnostics with positions', async () => {
    const ok = await server.call('POST', '/api/lua/check', { token, body: { code: 'local x: number = 1\nx += 1' } });
    expect(ok.body).toEqual({ ok: true, diagnostics: [] });
    const bad = await server.call('POST', '/api/lua/check', { token, body: { code: 'local x = 1\nif x then' } });
    expect(bad.status).toBe(200);
    expect(bad.body.ok).toBe(false);
    expect(bad.body.diagnostics).toEqual([
      {
        line: 2,
        column: 10,
        endLine: 2,
        endColumn: 10,
        message: "Expected 'end' (to close 'then' at column 6), got <eof>",
      },
    ]);
  });

  it('formats Luau, and refuses code that does not parse', async () => {
    const res = await server.call('POST', '/api/lua/format', {
      token,
      body: { code: 'local   x=1 if x then print( x ) end' },
    });
    expect(res.body.code).toBe('local x = 1\nif x then\n  print(x)\nend\n');
    const bad = await server.call('POST', '/api/lua/format', { token, body: { code: 'local = 1' } });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatch(/^Lua syntax error: 1:\d+/);
  });

  it("answers code nested too deeply with Luau's diagnostic, never a 500", async () => {
    const deep = 'local x = ' + '{'.repeat(5000) + '}'.repeat(5000);
    const res = await server.call('POST', '/api/lua/check', { token, body: { code: deep } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      ok: false,
      diagnostics: [{ message: 'Exceeded allowed recursion depth; simplify your expression to make the code compile' }],
    });
    // Formatting has its own, lower limit (StyLua's WASM stack): a 422 about the code.
    const tooDeepToFormat = 'local x = ' + '{'.repeat(400) + '}'.repeat(400);
    const format = await server.call('POST', '/api/lua/format', { token, body: { code: tooDeepToFormat } });
    expect(format.status).toBe(422);
    expect(format.body.error).toMatch(/nested too deeply/);
  });
});

describe('execution rate limit (spec: 50 a minute)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(engines[0]!, { RATE_LIMIT_EXECUTION_PER_MINUTE: '50' });
  });
  afterAll(() => server.close());

  it('answers the 51st execution of a minute with 429', async () => {
    const { token } = await registerUser(server);
    for (let i = 0; i < 50; i++) {
      const res = await server.call('POST', '/api/scripts/execute', { token, body: { code: 'print(1)' } });
      expect(res.status, `run ${i + 1}`).toBe(200);
    }
    const limited = await server.call('POST', '/api/scripts/execute', { token, body: { code: 'print(1)' } });
    expect(limited.status).toBe(429);
    expect(limited.headers.get('ratelimit-limit')).toBe('50');
    // Other calls have their own budget.
    expect((await server.call('GET', '/api/scripts', { token })).status).toBe(200);
  });
});

describe('a full sandbox queue', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(engines[0]!, { SANDBOX_THREADS: '1', SANDBOX_MAX_QUEUE: '1' });
  });
  afterAll(() => server.close());

  it('answers 503 with Retry-After instead of piling runs up', async () => {
    const users = await Promise.all([registerUser(server), registerUser(server), registerUser(server)]);
    const loop = (token: string) =>
      server.call('POST', '/api/scripts/execute', { token, body: { code: 'while true do end', target: 'sandbox' } });
    const pool = () => server.app.services.sandboxPool.stats();
    // The pool's one thread is started and ready: a run is then sent to it at once.
    const warm = await server.call('POST', '/api/scripts/execute', {
      token: users[0]!.token,
      body: { code: 'print(1)', target: 'sandbox' },
    });
    expect(warm.body).toMatchObject({ success: true });
    const running = loop(users[0]!.token);
    await expect.poll(pool).toMatchObject({ running: 1, waiting: 0 });
    const waiting = loop(users[1]!.token);
    await expect.poll(pool).toMatchObject({ running: 1, waiting: 1 });
    const refused = await loop(users[2]!.token);
    expect(refused.status).toBe(503);
    expect(refused.body.error).toMatch(/busy/i);
    expect(refused.headers.get('retry-after')).toBe('1');
    expect((await running).body.limit).toMatch(/instructions|deadline/);
    expect((await waiting).body.limit).toMatch(/instructions|deadline/);
  }, 30_000);
});
