import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeOnSQLite } from '../../../test/engines.ts';
import { registerUser, startTestServer, type TestServer } from '../../../test/test-server.ts';
import { DRY_RUN_GLOBALS } from './dry-run-hint.ts';

const hintFor = (global: string) => ({
  kind: 'dry-run',
  global,
  message: `${global} is part of Roblox, not plain Lua: Roblox APIs are available in a dry run.`,
});

/**
 * Roblox code run in the plain sandbox fails on the first Roblox global it touches. The answer
 * then says that a dry run has it, in a field the editor turns into a "Dry run" button.
 */
describeOnSQLite('a sandbox run of Roblox code points to the dry run', (engine) => {
  let server: TestServer;
  let token: string;
  beforeAll(async () => {
    server = await startTestServer(engine);
    ({ token } = await registerUser(server));
  });
  afterAll(() => server.close());

  const execute = (code: string, target = 'sandbox') =>
    server.call('POST', '/api/scripts/execute', { token, body: { code, target } });

  it('a plain run indexing Instance answers its error and a hint naming Instance', async () => {
    const res = await execute('local part = Instance.new("Part")\npart.Parent = workspace');
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(false);
    expect(res.body.error).toBe("script:1: attempt to index a nil value (global 'Instance')");
    expect(res.body.hint).toEqual(hintFor('Instance'));
  });

  it('names the global the error names: game, Vector3, wait, and task.delay', async () => {
    expect((await execute('local players = game:GetService("Players")')).body.hint).toEqual(hintFor('game'));
    expect((await execute('local v = Vector3.new(1, 2, 3)')).body.hint).toEqual(hintFor('Vector3'));
    expect((await execute('wait(1)')).body.hint).toEqual(hintFor('wait'));
    // The plain sandbox has task.wait and task.spawn; the rest of task is the dry run's.
    expect((await execute('task.delay(1, print)')).body.hint).toEqual(hintFor('task.delay'));
  });

  it('also for an error of a spawned thread, which the run survives', async () => {
    const res = await execute('task.spawn(function() workspace.Gravity = 0 end)\nprint("after")');
    expect(res.body.success).toBe(true);
    expect(res.body.output).toContain("(global 'workspace')");
    expect(res.body.hint).toEqual(hintFor('workspace'));
  });

  it('for a saved script run in the sandbox too', async () => {
    const saved = await server.call('POST', '/api/scripts', {
      token,
      body: { name: 'Roblox code', code: 'print(Color3.new(1, 0, 0))' },
    });
    const res = await server.call('POST', `/api/scripts/${saved.body.id}/execute`, {
      token,
      body: { target: 'sandbox' },
    });
    expect(res.body.hint).toEqual(hintFor('Color3'));
  });

  it('gives no hint for plain Lua mistakes, a successful run, or a dry run', async () => {
    const nilLocal = await execute('local t = nil\nprint(t.x)');
    expect(nilLocal.body.success).toBe(false);
    expect(nilLocal.body).not.toHaveProperty('hint');
    const unknownGlobal = await execute('print(Instances.new("Part"))');
    expect(unknownGlobal.body.error).toContain("(global 'Instances')");
    expect(unknownGlobal.body).not.toHaveProperty('hint');
    // A field called delay on a table of the script's own is no Roblox API.
    const ownDelay = await execute('local timer = {}\ntimer.delay(1)');
    expect(ownDelay.body.error).toContain("(field 'delay')");
    expect(ownDelay.body).not.toHaveProperty('hint');
    expect((await execute('print("fine")')).body).not.toHaveProperty('hint');

    const dry = await execute('local part = Instance.new("Part")\npart.Parent = workspace', 'dry-run');
    expect(dry.body.success).toBe(true);
    expect(dry.body).not.toHaveProperty('hint');
  });

  it('hints exactly the globals a dry run adds: each is missing from the plain sandbox and present in a dry run', async () => {
    const probe = `for _, name in ipairs({ ${DRY_RUN_GLOBALS.map((name) => `"${name}"`).join(', ')} }) do print(name, type(_G[name])) end`;
    const plain = await execute(probe);
    const dry = await execute(probe, 'dry-run');
    const types = (output: string) =>
      output
        .trim()
        .split('\n')
        .map((line) => line.split(' ')[1]);
    expect(types(plain.body.output)).toEqual(DRY_RUN_GLOBALS.map(() => 'nil'));
    expect(types(dry.body.output).filter((type) => type === 'nil')).toEqual([]);
    expect(DRY_RUN_GLOBALS).toEqual(expect.arrayContaining(['game', 'workspace', 'Instance', 'Vector3', 'CFrame']));
  });
});
