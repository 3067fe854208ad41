import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { LUAU_EXECUTION_WRITE } from '@moonrelay/contract/cloud-runs';
import { describeOnSQLite } from '../../server/test/engines.ts';
import { fakeOpenCloud } from '../../server/test/fake-open-cloud.ts';
import { SimulatedGame } from '../../server/test/simulated-game.ts';
import { registerUser, startTestServer, type TestServer } from '../../server/test/test-server.ts';

/**
 * The moonrelay command end to end: the real bin as a child process, against a real server, in
 * temporary folders with a temporary HOME. Every wait is on what the command prints.
 */
const CLI_DIR = path.join(import.meta.dirname, '..');
const BIN = path.join(CLI_DIR, 'bin', 'moonrelay.js');

interface Outcome {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Roblox's side of cloud runs: a fake Open Cloud with one universe, place and key. */
const UNIVERSE = '4200000001';
const PLACE = '4200000002';
const ROBLOX_KEY = 'rbx-cli-cloud-run-key-1234567890abcdefgh';

describeOnSQLite('moonrelay CLI', (engine) => {
  const roblox = fakeOpenCloud({ luau: { timing: { queuedMs: 20, processingMs: 60 } } });
  let server: TestServer;
  let scratch: string;

  beforeAll(async () => {
    // The bundle the bin prefers when it is newer than the sources: each run then starts in a
    // fraction of the time tsx takes.
    execFileSync(process.execPath, [path.join(CLI_DIR, 'scripts', 'build.js')]);
    const robloxUrl = await roblox.start();
    roblox.addKey(ROBLOX_KEY, UNIVERSE, [LUAU_EXECUTION_WRITE]);
    roblox.luau.addPlace(UNIVERSE, PLACE, { versions: [1] });
    server = await startTestServer(engine, {
      GAME_EXECUTION_WAIT_MS: '0',
      ROBLOX_OPEN_CLOUD_URL: robloxUrl,
      OPEN_CLOUD_RETRY_BASE_MS: '50',
      CLOUD_RUN_POLL_MS: '50',
    });
    scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'moonrelay-cli-'));
  });
  afterAll(async () => {
    await server?.close();
    await roblox.stop();
    if (scratch) fs.rmSync(scratch, { recursive: true, force: true });
  });

  /** A user with the personal key, a HOME of their own and an empty project folder. */
  async function newUser() {
    const { token, user } = await registerUser(server);
    const home = fs.mkdtempSync(path.join(scratch, 'home-'));
    const dir = fs.mkdtempSync(path.join(scratch, 'project-'));
    const env: Record<string, string> = {
      PATH: process.env.PATH ?? '',
      HOME: home,
      XDG_CONFIG_HOME: path.join(home, 'config'),
      MOONRELAY_URL: server.url,
      MOONRELAY_API_KEY: user.apiKey as string,
    };
    const run = (args: string[], options: { cwd?: string; env?: Record<string, string> } = {}) =>
      new Promise<Outcome>((resolve, reject) => {
        const child = spawn(process.execPath, [BIN, ...args], {
          cwd: options.cwd ?? dir,
          env: { ...env, ...options.env },
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        let stdout = '';
        let stderr = '';
        child.stdout.on('data', (chunk) => (stdout += chunk));
        child.stderr.on('data', (chunk) => (stderr += chunk));
        child.on('error', reject);
        child.on('close', (code) => resolve({ code, stdout, stderr }));
      });
    const start = (args: string[]) => background(spawn(process.execPath, [BIN, ...args], { cwd: dir, env }));
    const createScript = async (name: string, code: string) => {
      const res = await server.call('POST', '/api/scripts', { token, body: { name, code } });
      expect(res.status, res.text).toBe(200);
      return res.body as { id: string; version: number };
    };
    const getScript = async (id: string) => (await server.call('GET', `/api/scripts/${id}`, { token })).body;
    const write = (file: string, text: string) => {
      fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
      fs.writeFileSync(path.join(dir, file), text);
    };
    const read = (file: string) => fs.readFileSync(path.join(dir, file), 'utf8');
    const project = () => JSON.parse(read('moonrelay.json'));
    return { token, user, home, dir, env, run, start, createScript, getScript, write, read, project };
  }

  /** A long-running command: wait for what it prints, then stop it as Ctrl-C does. */
  function background(child: ChildProcess) {
    let output = '';
    let exited: Outcome | undefined;
    const listeners = new Set<() => void>();
    const seen = () => listeners.forEach((listener) => listener());
    child.stdout!.on('data', (chunk) => ((output += chunk), seen()));
    child.stderr!.on('data', (chunk) => ((output += chunk), seen()));
    const closed = new Promise<Outcome>((resolve) =>
      child.on('close', (code) => {
        exited = { code, stdout: output, stderr: '' };
        seen();
        resolve(exited);
      }),
    );
    return {
      /** Resolves with the output once `pattern` appears after `from` characters of it. */
      waitFor(pattern: RegExp, from = 0): Promise<string> {
        return new Promise((resolve, reject) => {
          const look = () => {
            if (pattern.test(output.slice(from))) {
              listeners.delete(look);
              resolve(output);
            } else if (exited) {
              listeners.delete(look);
              reject(new Error(`exited (${exited.code}) before printing ${pattern}:\n${output}`));
            }
          };
          listeners.add(look);
          look();
        });
      },
      get output() {
        return output;
      },
      async stop(): Promise<Outcome> {
        child.kill('SIGINT');
        return closed;
      },
    };
  }

  it('login checks the key and stores it in the config folder with mode 0600; logout removes it', async () => {
    const u = await newUser();
    const bare = { MOONRELAY_URL: '', MOONRELAY_API_KEY: '' };
    const refused = await u.run(['login', '--url', server.url, '--key', 'mr_not-a-key'], { env: bare });
    expect(refused.code).toBe(2);
    expect(refused.stderr.trim().split('\n')).toEqual([`moonrelay: ${server.url} refused the key: Invalid API key`]);

    const ok = await u.run(['login', '--url', `${server.url}/`, '--key', u.user.apiKey], { env: bare });
    expect(ok.code, ok.stderr).toBe(0);
    const file = path.join(u.home, 'config', 'moonrelay', 'config.json');
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(fs.statSync(path.dirname(file)).mode & 0o777).toBe(0o700);
    expect(JSON.parse(fs.readFileSync(file, 'utf8'))).toMatchObject({
      url: server.url,
      servers: { [server.url]: { key: u.user.apiKey } },
    });

    // Later commands use the stored login; the key never lands in the project.
    expect((await u.run(['init'], { env: bare })).code).toBe(0);
    expect((await u.run(['runs', '--limit', '1'], { env: bare })).code).toBe(0);
    expect(u.read('moonrelay.json')).not.toContain(u.user.apiKey);

    const out = await u.run(['logout'], { env: bare });
    expect(out.code).toBe(0);
    expect(fs.existsSync(file)).toBe(false);
    const after = await u.run(['runs'], { env: bare });
    expect(after.code).toBe(2);
    expect(after.stderr).toMatch(/^moonrelay: not logged in/);
  });

  it('pulls every script, pushes only what changed, and refuses a script changed on the server unless forced', async () => {
    const u = await newUser();
    const alpha = await u.createScript('Alpha', 'print("alpha")');
    const beta = await u.createScript('Beta', 'print("beta")');
    expect((await u.run(['init'])).code).toBe(0);
    expect(u.read('.gitignore')).toContain('.moonrelay/');

    const pulled = await u.run(['pull']);
    expect(pulled.code, pulled.stderr).toBe(0);
    expect(u.read('src/Alpha.luau')).toBe('print("alpha")');
    expect(u.project().scripts).toEqual({ 'src/Alpha.luau': { id: alpha.id }, 'src/Beta.luau': { id: beta.id } });

    // One edited file and one new one: the dry run lists them and sends nothing.
    u.write('src/Alpha.luau', 'print("alpha 2")\n');
    u.write('src/Gamma.server.luau', 'print("gamma")\n');
    const dry = await u.run(['push', '--dry-run']);
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toContain('would update src/Alpha.luau');
    expect(dry.stdout).toContain('would create src/Gamma.server.luau as "Gamma"');
    expect(dry.stdout).not.toContain('Beta');
    expect((await u.getScript(alpha.id)).version).toBe(1);

    const pushed = await u.run(['push']);
    expect(pushed.code, pushed.stderr).toBe(0);
    expect(pushed.stdout).toContain('pushed src/Alpha.luau (version 2)');
    expect(pushed.stdout).toContain('created src/Gamma.server.luau (version 1)');
    expect(await u.getScript(alpha.id)).toMatchObject({ code: 'print("alpha 2")\n', version: 2 });
    expect((await u.getScript(beta.id)).version).toBe(1);
    const gammaId = u.project().scripts['src/Gamma.server.luau'].id;
    expect(await u.getScript(gammaId)).toMatchObject({ name: 'Gamma', code: 'print("gamma")\n' });
    expect((await u.run(['push'])).stdout).toContain('Nothing to push');

    // Beta changes in the dashboard and here: push refuses, saying when and by whom, and sends nothing.
    await server.call('PUT', `/api/scripts/${beta.id}`, { token: u.token, body: { code: 'print("from the web")' } });
    u.write('src/Beta.luau', 'print("from here")\n');
    u.write('src/Alpha.luau', 'print("alpha 3")\n');
    const refused = await u.run(['push']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('src/Beta.luau: changed on the server since your last pull');
    expect(refused.stderr).toMatch(/you last pulled version 1, saved \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC/);
    expect(refused.stderr).toMatch(/the server has version 2, saved .+ UTC by User \d+ in the dashboard/);
    expect((await u.getScript(alpha.id)).version).toBe(2);
    expect((await u.run(['push', '--dry-run'])).code).toBe(1);

    const forced = await u.run(['push', '--force']);
    expect(forced.code, forced.stderr).toBe(0);
    expect(await u.getScript(beta.id)).toMatchObject({ code: 'print("from here")\n', version: 3 });
    expect(await u.getScript(alpha.id)).toMatchObject({ code: 'print("alpha 3")\n', version: 3 });

    // A change made elsewhere reaches an unchanged file on pull.
    await server.call('PUT', `/api/scripts/${alpha.id}`, { token: u.token, body: { code: 'print("alpha 4")' } });
    expect((await u.run(['pull'])).code).toBe(0);
    expect(u.read('src/Alpha.luau')).toBe('print("alpha 4")');
  });

  it('watch pushes a file when it is saved and prints its syntax diagnostics', async () => {
    const u = await newUser();
    expect((await u.run(['init'])).code).toBe(0);
    const watch = u.start(['watch']);
    try {
      await watch.waitFor(/Watching src\/ for changes/);
      let mark = watch.output.length;
      u.write('src/Live.luau', 'print("one")\n');
      await watch.waitFor(/created src\/Live\.luau \(version 1\)/, mark);
      mark = watch.output.length;
      u.write('src/Live.luau', 'print("two"\n');
      await watch.waitFor(/pushed src\/Live\.luau \(version 2\)\n {2}src\/Live\.luau:2:1: Expected '\)'/, mark);
      const id = u.project().scripts['src/Live.luau'].id;
      expect((await u.getScript(id)).code).toBe('print("two"\n');
    } finally {
      expect((await watch.stop()).code).toBe(0);
    }
  });

  it('runs a file or a saved script in the sandbox, a dry run and a simulated game, with exit codes and --json', async () => {
    const u = await newUser();
    u.write('ok.luau', 'local x = 40 + 2\nprint("x is", x)\n');
    u.write('fail.luau', 'error("boom")\n');
    u.write('part.luau', 'local part = Instance.new("Part")\npart.Parent = workspace\nprint("made", part.ClassName)\n');

    const ok = await u.run(['run', 'ok.luau', '--target', 'sandbox']);
    expect(ok).toMatchObject({ code: 0, stdout: 'x is 42\n' });
    const failed = await u.run(['run', 'fail.luau']);
    expect(failed.code).toBe(1);
    expect(failed.stderr).toContain('boom');
    const dry = await u.run(['run', 'part.luau', '--target', 'dry-run']);
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toBe('made Part\n');
    expect(dry.stderr).toMatch(/Dry run: .*\n {2}created 1 Part/);

    await u.createScript('Saved', 'print("saved one")');
    const json = await u.run(['run', 'Saved', '--json']);
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toMatchObject({
      success: true,
      target: 'sandbox',
      execution: { output: 'saved one\n' },
    });
    expect((await u.run(['run', 'ok.luau', '--target', 'moon'])).code).toBe(2);
    expect((await u.run(['run', 'NoSuchScript'])).stderr).toBe('moonrelay: no file or script named NoSuchScript\n');

    // The game: not connected yet (exit 1), then a simulated game server that long-polls.
    const absent = await u.run(['run', 'ok.luau', '--target', 'game']);
    expect(absent.code).toBe(1);
    expect(absent.stderr).toContain('Game not connected');
    const game = new SimulatedGame({ url: server.url, key: u.user.apiKey, serverId: 'sim-cli', wait: 5 });
    expect((await game.connect()).status).toBe(200);
    game.start();
    try {
      const inGame = await u.run(['run', 'ok.luau', '--target', 'game', '--server', 'sim-cli']);
      expect(inGame.code, inGame.stderr).toBe(0);
      expect(inGame.stdout).toBe('x is 42\n');
      const failing = await u.run(['run', 'fail.luau', '--target', 'game', '--json']);
      expect(failing.code).toBe(1);
      expect(JSON.parse(failing.stdout)).toMatchObject({
        success: false,
        run: { status: 'failed', serverId: 'sim-cli' },
      });
    } finally {
      await game.stop();
    }
    const listed = await u.run(['runs', '--limit', '3']);
    expect(listed.code).toBe(0);
    expect(listed.stdout.split('\n')[0]).toMatch(/^ID\s+WHEN \(UTC\)\s+TARGET\s+STATUS/);
    expect(listed.stdout).toContain('game:sim-cli');
  });

  it('follows a cloud run to its end, printing its logs and return values', async () => {
    const u = await newUser();
    const saved = await server.call('PUT', '/api/open-cloud/key', {
      token: u.token,
      body: { universeId: UNIVERSE, apiKey: ROBLOX_KEY, placeId: PLACE },
    });
    expect(saved.status, saved.text).toBe(200);
    u.write('cloud.luau', 'print("hello from Roblox")\nwarn("careful")\nreturn 7, { coins = 3 }\n');
    const ran = await u.run(['run', 'cloud.luau', '--target', 'cloud', '--timeout', '30']);
    expect(ran.code, ran.stderr).toBe(0);
    expect(ran.stdout).toBe('hello from Roblox\ncareful\n[7,{"coins":3}]\n');
    expect(ran.stderr).toContain('cloud run: succeeded');

    u.write('broken.luau', 'error("no DataStore today")\n');
    const failed = await u.run(['run', 'broken.luau', '--target', 'cloud', '--json']);
    expect(failed.code).toBe(1);
    expect(JSON.parse(failed.stdout)).toMatchObject({
      success: false,
      target: 'cloud',
      run: { cloud: { state: 'failed', errorCode: 'SCRIPT_ERROR' } },
    });
  });

  it('check prints file:line:col diagnostics and exits 1 on an error; format --check lists what would change', async () => {
    const u = await newUser();
    expect((await u.run(['init'])).code).toBe(0);
    u.write('src/good.luau', 'local a = 1\nprint(a)\n');
    u.write('src/bad.luau', 'local function f()\n  print("hi"\nend\n');
    u.write('src/ugly.luau', 'local   b={1,2}\nprint( b[1] )\n');

    const checked = await u.run(['check']);
    expect(checked.code).toBe(1);
    expect(checked.stdout).toBe("src/bad.luau:3:1: Expected ')' (to close '(' at line 2), got 'end'\n");
    expect(await u.run(['check', 'src/good.luau', 'src/ugly.luau'])).toMatchObject({ code: 0, stdout: '' });

    const wouldChange = await u.run(['format', '--check', 'src/good.luau', 'src/ugly.luau']);
    expect(wouldChange).toMatchObject({ code: 1, stdout: 'src/ugly.luau\n' });
    expect(u.read('src/ugly.luau')).toBe('local   b={1,2}\nprint( b[1] )\n');
    expect((await u.run(['format', 'src/ugly.luau'])).code).toBe(0);
    expect(u.read('src/ugly.luau')).toBe('local b = { 1, 2 }\nprint(b[1])\n');
    expect((await u.run(['format', '--check', 'src/good.luau', 'src/ugly.luau'])).code).toBe(0);
    const unparsable = await u.run(['format', '--check', 'src/bad.luau']);
    expect(unparsable.code).toBe(1);
    expect(unparsable.stderr).toContain('src/bad.luau:3:1: Expected');
  });

  it('logs --follow prints a line a game server logs after it started', async () => {
    const u = await newUser();
    const logs = u.start(['logs', '--follow']);
    try {
      await logs.waitFor(/No console lines yet/);
      const game = new SimulatedGame({ url: server.url, key: u.user.apiKey, serverId: 'sim-console' });
      const res = await fetch(`${server.url}/api/game/ping`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          key: u.user.apiKey,
          serverId: 'sim-console',
          playerData: game.playerData(),
          console: { lines: [{ time: Date.now(), level: 'warning', text: 'low on parts' }] },
        }),
      });
      expect(res.status).toBe(200);
      await logs.waitFor(/sim-console warning +low on parts/);
    } finally {
      expect((await logs.stop()).code).toBe(0);
    }
  });

  it('pushes a Rojo project without touching default.project.json', async () => {
    const u = await newUser();
    const rojo = JSON.stringify(
      {
        name: 'game',
        tree: {
          $className: 'DataModel',
          ServerScriptService: { $path: 'src/server' },
          ReplicatedStorage: { Shared: { $path: 'src/shared' } },
        },
      },
      null,
      2,
    );
    u.write('default.project.json', rojo);
    u.write('src/server/Main.server.luau', 'print("server main")\n');
    u.write('src/shared/Util/init.luau', 'return {}\n');
    const initialized = await u.run(['init']);
    expect(initialized.code).toBe(0);
    expect(initialized.stderr).toContain('Rojo project found: using src/');
    expect(u.project().scriptsDir).toBe('src');

    const pushed = await u.run(['push']);
    expect(pushed.code, pushed.stderr).toBe(0);
    const scripts = u.project().scripts;
    expect(Object.keys(scripts)).toEqual(['src/server/Main.server.luau', 'src/shared/Util/init.luau']);
    expect((await u.getScript(scripts['src/server/Main.server.luau'].id)).name).toBe('Main');
    expect((await u.getScript(scripts['src/shared/Util/init.luau'].id)).name).toBe('Util');
    expect(u.read('default.project.json')).toBe(rojo);
  });

  it('says in one line why a call failed: wrong URL, refused key, missing scope', async () => {
    const u = await newUser();
    expect((await u.run(['init'])).code).toBe(0);
    const noServer = await u.run(['pull'], { env: { MOONRELAY_URL: 'http://127.0.0.1:9' } });
    expect(noServer.code).toBe(2);
    expect(noServer.stderr).toMatch(/^moonrelay: cannot reach http:\/\/127\.0\.0\.1:9: [^\n]+\n$/);

    const badKey = await u.run(['pull'], { env: { MOONRELAY_API_KEY: 'mr_revoked' } });
    expect(badKey).toMatchObject({ code: 2, stderr: 'moonrelay: Invalid API key\n' });

    const created = await server.call('POST', '/api/user/api-keys', {
      token: u.token,
      body: { name: 'Runs only', scopes: ['execute'] },
    });
    expect(created.status, created.text).toBe(200);
    const scoped = await u.run(['pull'], { env: { MOONRELAY_API_KEY: created.body.key } });
    expect(scoped).toMatchObject({
      code: 2,
      stderr: 'moonrelay: This API key lacks the scope this call needs: scripts:read or game\n',
    });
    const usage = await u.run(['push', '--frobnicate']);
    expect(usage).toMatchObject({
      code: 2,
      stderr: 'moonrelay: push: unknown option --frobnicate (moonrelay push --help)\n',
    });
    expect((await u.run(['push', '--help'])).stdout).toMatch(/^Usage: moonrelay push/);
  });
});
