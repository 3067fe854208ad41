import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { LuaFactory, type LuaEngine } from 'wasmoon';
import {
  startEmulatedGame,
  type EmulatedGame,
  type EmulatedGameOptions,
} from '../../../test/roblox-emulation/emulated-game.ts';
import { startFakeMoonrelay, type FakeMoonrelay } from '../../../test/roblox-emulation/fake-moonrelay.ts';
import { checkLuau } from '../lua-tools/luau-syntax.ts';
import {
  escapeLuaString,
  normaliseServerUrl,
  renderGameIntegration,
  renderIntegrationScripts,
} from './integration-scripts.ts';

const KEY = 'mr_0123456789ABCDEFGHIJabcdef012345';
const URL_ = 'https://moonrelay.example.com';

let lua: LuaEngine;
beforeAll(async () => {
  lua = await new LuaFactory().createEngine({ injectObjects: false, enableProxy: false });
});
afterAll(() => lua.global.close());

/** Lua 5.4's verdict on the text: compiled only (load), never run. Answers "ok" or the error. */
function compileLua54(source: string): string {
  lua.global.set('source', source);
  return lua.doStringSync('local chunk, problem = load(source, "=script", "t") return problem or "ok"') as string;
}

/** The UTF-8 bytes (hex) a Lua 5.4 double-quoted string literal with this body holds. */
function luaStringBytes(body: string): string {
  // As hex, because wasmoon reads strings back as C strings and would stop at a NUL.
  return lua.doStringSync(
    `return (string.gsub("${body}", ".", function(c) return string.format("%02x", string.byte(c)) end))`,
  ) as string;
}

describe('rendering', () => {
  it('fills in the server URL and the key, and leaves no placeholder', () => {
    const scripts = renderIntegrationScripts({ serverUrl: URL_, apiKey: KEY });
    expect(scripts.quickLoader).toBe(
      `loadstring(game:GetService("HttpService"):GetAsync("${URL_}/api/game/loader?key=${KEY}"))()`,
    );
    expect(scripts.gameIntegration).toContain(`serverUrl = "${URL_}",`);
    expect(scripts.gameIntegration).toContain(`apiKey = "${KEY}",`);
    expect(scripts.teleportExample).toContain(URL_);
    for (const script of Object.values(scripts)) expect(script).not.toMatch(/\{\{|\}\}/);
    expect(renderGameIntegration({ serverUrl: URL_, apiKey: KEY })).toBe(scripts.gameIntegration);
  });

  it('the Quick Loader is one line', () => {
    const { quickLoader } = renderIntegrationScripts({ serverUrl: URL_, apiKey: KEY });
    expect(quickLoader.split('\n')).toHaveLength(1);
    expect(quickLoader.startsWith('loadstring(')).toBe(true);
  });

  it('normalises the URL: no trailing slash, a path prefix kept', () => {
    expect(normaliseServerUrl('https://moonrelay.example.com/')).toBe(URL_);
    expect(normaliseServerUrl('http://127.0.0.1:3000')).toBe('http://127.0.0.1:3000');
    expect(normaliseServerUrl('https://example.com/moonrelay//')).toBe('https://example.com/moonrelay');
    const { gameIntegration } = renderIntegrationScripts({ serverUrl: `${URL_}/`, apiKey: KEY });
    expect(gameIntegration).toContain(`serverUrl = "${URL_}",`);
  });

  it.each([
    ['not a URL', 'moonrelay.example.com'],
    ['another scheme', 'ftp://moonrelay.example.com'],
    ['a javascript: URL', 'javascript:alert(1)'],
    ['credentials', 'https://user:pass@moonrelay.example.com'],
    ['a query', 'https://moonrelay.example.com/?x=1'],
    ['a fragment', 'https://moonrelay.example.com/#x'],
  ])('refuses a server URL with %s', (_name, serverUrl) => {
    expect(() => renderIntegrationScripts({ serverUrl, apiKey: KEY })).toThrow(/server URL/);
    expect(() => renderGameIntegration({ serverUrl, apiKey: KEY })).toThrow(/server URL/);
  });

  it('escapes values so the Lua string reads back exactly, whatever they hold', () => {
    const nasty = 'a"b\\c\nd\re\tf\u0000g\u0007' + '1\u001b2 é "); os.exit() --';
    expect(luaStringBytes(escapeLuaString(nasty))).toBe(Buffer.from(nasty, 'utf8').toString('hex'));
    const { gameIntegration } = renderIntegrationScripts({ serverUrl: URL_, apiKey: nasty });
    expect(compileLua54(gameIntegration)).toBe('ok');
    expect(gameIntegration).toContain(`apiKey = "${escapeLuaString(nasty)}",`);
  });

  it('replaces in one pass: a value holding a placeholder is not expanded again', () => {
    const { gameIntegration } = renderIntegrationScripts({ serverUrl: URL_, apiKey: '{{SERVER_URL}}' });
    expect(gameIntegration).toContain('apiKey = "{{SERVER_URL}}",');
  });

  it('URL-encodes the key in the Quick Loader’s query string', () => {
    const { quickLoader } = renderIntegrationScripts({ serverUrl: URL_, apiKey: 'mr_a&b=c' });
    expect(quickLoader).toContain('/api/game/loader?key=mr_a%26b%3Dc"');
  });
});

describe('syntax: every rendered script is valid Luau and valid Lua 5.4', () => {
  const scripts = renderIntegrationScripts({ serverUrl: URL_, apiKey: KEY });

  it.each(Object.entries(scripts))('%s passes the Luau syntax check', (_name, source) => {
    expect(checkLuau(source)).toEqual({ ok: true, diagnostics: [] });
  });

  it.each(Object.entries(scripts))('%s compiles under Lua 5.4', (_name, source) => {
    expect(compileLua54(source)).toBe('ok');
  });

  it('the checks can fail: Luau-only and 5.4-only syntax is caught', () => {
    expect(compileLua54('local x: number = 1')).toMatch(/^script:1:/);
    expect(compileLua54('local x = 1\nx += 1')).toMatch(/^script:2:/);
    expect(checkLuau('local x = 1 // 2 goto done ::done::').ok).toBe(false);
  });

  it('uses no floor division (`//`), which older Luau lacks', () => {
    for (const source of Object.values(scripts)) {
      const code = source.replace(/--.*$/gm, '').replace(/"(?:[^"\\\n]|\\.)*"/g, '""');
      expect(code).not.toContain('//');
    }
  });
});

describe('the integration script in an emulated game, against a fake server', () => {
  const FAST = 0.05;
  let fake: FakeMoonrelay;
  const games: EmulatedGame[] = [];

  beforeAll(async () => {
    fake = await startFakeMoonrelay();
  });
  afterEach(async () => {
    await Promise.all(games.splice(0).map((game) => game.stop()));
    fake.pings.length = 0;
    fake.results.length = 0;
    fake.commands.length = 0;
    fake.scripts.length = 0;
    fake.requests.length = 0;
    fake.failNextPings = 0;
    fake.refuseScriptFetch = false;
    fake.refuseResultIds.length = 0;
  });
  afterAll(() => fake.close());

  async function startIntegration(options: EmulatedGameOptions = {}): Promise<EmulatedGame> {
    const game = await startEmulatedGame({ timeScale: FAST, ...options });
    games.push(game);
    game.run(renderGameIntegration({ serverUrl: fake.url, apiKey: fake.apiKey }));
    return game;
  }

  const waitForPing = () =>
    games[0]!.waitFor(() => fake.pings.length > 0, 'the first ping', 3_000).then(() => undefined);

  it('pings every 2 s with the key, the server id and the player data', async () => {
    const game = await startIntegration({ jobId: 'job-1', placeId: 1818, gameId: 13058 });
    await game.waitFor(() => fake.pings.length >= 4, 'four pings');
    expect(fake.pings[0]!.body).toEqual({
      key: fake.apiKey,
      serverId: 'job-1',
      playerData: {
        playerName: 'Builderman',
        userId: 156,
        placeId: 1818,
        gameId: 13058,
        universeId: 13058,
        position: { x: 0, y: 5, z: 0 },
        health: 100,
        maxHealth: 100,
        walkSpeed: 16,
      },
      results: [],
    });
    const gaps = fake.pings.slice(1).map((ping, index) => ping.at - fake.pings[index]!.at);
    for (const gap of gaps) {
      // 2 emulated seconds are 100 ms here; timers and HTTP add a little (more on a busy machine).
      expect(gap).toBeGreaterThanOrEqual(95);
      expect(gap).toBeLessThan(600);
    }
    expect(game.output()).toContain('[Moonrelay] Connected');
  });

  it('sends "studio" as the server id in Studio (empty JobId), and no player fields without a player', async () => {
    await startIntegration({ jobId: '', player: null });
    await waitForPing();
    expect(fake.pings[0]!.body.serverId).toBe('studio');
    expect(fake.pings[0]!.body.playerData).toEqual({ placeId: 0, gameId: 0, universeId: 0 });
  });

  it('leaves out numbers the server would refuse (infinite health), instead of breaking the ping', async () => {
    const game = await startIntegration();
    game.run('game:GetService("Players"):GetPlayers()[1].Character.Humanoid.MaxHealth = math.huge');
    await game.waitFor(() => fake.pings.find((ping) => ping.body.playerData.maxHealth === undefined), 'a ping');
  });

  it('runs the commands in order, reports results on the next ping, and never runs an id twice', async () => {
    fake.commands.push(
      { id: 'c1', type: 'teleport', data: { x: 1, y: 2, z: 3 } },
      { id: 'c2', type: 'speed', data: { multiplier: 3 } },
      { id: 'c3', type: 'execute', data: { code: 'print("ran c3")' } },
      { id: 'c4', type: 'fly', data: {} },
      { id: 'c5', type: 'teleport', data: { x: 'up' } },
    );
    const game = await startIntegration();
    await game.waitFor(() => fake.results.length >= 5, 'five results');
    expect(fake.results.map((result) => [result.id, result.success])).toEqual([
      ['c1', true],
      ['c2', true],
      ['c3', true],
      ['c4', false],
      ['c5', false],
    ]);
    expect(fake.results[2]).toMatchObject({ output: 'ran c3\n' });
    expect(fake.results[3]).toMatchObject({ error: 'Unknown command type: fly' });
    expect(fake.results[4]).toMatchObject({ error: 'x must be a number' });
    expect(game.character()).toMatchObject({ position: { x: 1, y: 2, z: 3 }, walkSpeed: 48 });

    // Delivered again (as after a lost answer): reported again, not run again.
    fake.commands.push({ id: 'c3', type: 'execute', data: { code: 'print("ran c3")' } });
    await game.waitFor(() => fake.results.length >= 6, 'the repeated result');
    expect(fake.results[5]).toEqual(fake.results[2]);
    expect(fake.results.filter((result) => result.id === 'c3')).toHaveLength(2);
  });

  it('captures output and errors of executed code, without holding up the pings while it waits', async () => {
    fake.commands.push(
      { id: 'slow', type: 'execute', data: { code: 'print("start") task.wait(6) print("end")' } },
      { id: 'bad', type: 'script', data: { code: 'print("a", nil, 1.5)\nwarn("w")\nerror("boom")' } },
      { id: 'syntax', type: 'execute', data: { code: 'print(' } },
      { id: 'huge', type: 'execute', data: { code: 'print(string.rep("é", 40000))' } },
      { id: 'bytes', type: 'execute', data: { code: 'print("a" .. string.char(255) .. "b")' } },
    );
    const game = await startIntegration();
    await game.waitFor(() => fake.results.length >= 5, 'five results');
    const byId = Object.fromEntries(fake.results.map((result) => [result.id, result]));
    expect(byId.bad).toMatchObject({ success: false, output: 'a nil 1.5\nwarning: w\n', error: 'Moonrelay:3: boom' });
    expect(byId.syntax).toMatchObject({ success: false, output: '' });
    expect(byId.syntax!.error).toMatch(/^Moonrelay:1:/);
    // Kept under the protocol's limit, cut between characters.
    expect(Buffer.byteLength(byId.huge!.output!)).toBeLessThanOrEqual(60_000 + 20);
    expect(byId.huge!.output).toMatch(/^(é)+\n\.\.\. \(truncated\)$/);
    // JSON carries text: a byte that is not UTF-8 arrives as "?".
    expect(byId.bytes).toMatchObject({ success: true, output: 'a?b\n' });
    // The slow one reports last, six emulated seconds later, while the pings went on.
    expect(byId.slow).toMatchObject({ success: true, output: 'start\nend\n' });
    expect(fake.results.at(-1)!.id).toBe('slow');
    expect(game.output().filter((line) => line === 'start' || line === 'end')).toEqual([]);
  });

  it('drops results the server refused (400) instead of sending them again forever', async () => {
    fake.commands.push({ id: 'c1', type: 'heal', data: {} });
    fake.refuseResultIds.push('c1');
    const game = await startIntegration();
    await game.waitForOutput(/Ping failed \(HTTP 400: Invalid result\)/, 3_000, 'warn');
    fake.commands.length = 0;
    fake.refuseResultIds.length = 0;
    const pingsBefore = fake.pings.length;
    await game.waitFor(() => fake.pings.length >= pingsBefore + 2, 'two more pings');
    expect(fake.results).toEqual([]);
  });

  it('backs off 2, 4, 8 s after failed pings and goes back to 2 s once one succeeds', async () => {
    const game = await startIntegration();
    await game.waitForOutput(/^\[Moonrelay\] Connected$/);
    fake.failNextPings = 3;
    const pingsBefore = fake.pings.length;
    await game.waitForOutput(/^\[Moonrelay\] Reconnected after 3 failed pings$/, 5_000);
    const waits = game
      .output('warn')
      .map((line) => /retrying in (\d+) s/.exec(line)?.[1])
      .filter(Boolean);
    expect(waits).toEqual(['2', '4', '8']);
    const failedAt = game.log.filter((line) => line.text.includes('Ping failed')).map((line) => line.time);
    expect(failedAt[1]! - failedAt[0]!).toBeGreaterThanOrEqual(2);
    expect(failedAt[2]! - failedAt[1]!).toBeGreaterThanOrEqual(4);
    await game.waitFor(() => fake.pings.length >= pingsBefore + 3, 'regular pings again');
    // 2 s (100 ms) again, not the 16 s (800 ms) the backoff would have reached.
    expect(fake.pings[pingsBefore + 2]!.at - fake.pings[pingsBefore + 1]!.at).toBeLessThan(600);
  });

  it('caps the backoff at 60 s', async () => {
    fake.failNextPings = 100;
    const game = await startIntegration({ timeScale: 0.002 });
    await game.waitFor(() => game.output('warn').length >= 8, 'eight failures', 5_000);
    expect(game.output('warn').slice(4, 8)).toEqual([
      '[Moonrelay] Ping failed (HTTP 503: Service unavailable); retrying in 32 s',
      '[Moonrelay] Ping failed (HTTP 503: Service unavailable); retrying in 60 s',
      '[Moonrelay] Ping failed (HTTP 503: Service unavailable); retrying in 60 s',
      '[Moonrelay] Ping failed (HTTP 503: Service unavailable); retrying in 60 s',
    ]);
  });

  it('stops for good with a clear message when the key is refused', async () => {
    const game = await startEmulatedGame({ timeScale: FAST });
    games.push(game);
    game.run(renderGameIntegration({ serverUrl: fake.url, apiKey: 'mr_regenerated' }));
    const line = await game.waitForOutput(/API key was refused/, 3_000, 'warn');
    expect(line.text).toContain('regenerated');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(fake.requests).toEqual(['POST /api/game/ping']);
  });

  it('stops when the script fetch is refused too (the Bearer key)', async () => {
    fake.scripts.push({ id: 's1', name: 'S', code: 'print(1)', isAutoExecute: true });
    fake.refuseScriptFetch = true;
    const game = await startIntegration();
    await game.waitForOutput(/API key was refused/, 3_000, 'warn');
    const requestsAtStop = fake.requests.length;
    expect(fake.requests.at(-1)).toBe('GET /api/scripts');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(fake.requests.length).toBe(requestsAtStop);
    expect(game.output()).not.toContain('1');
  });

  it('says so and stops when HTTP requests are off', async () => {
    const game = await startIntegration({ httpEnabled: false });
    const line = await game.waitForOutput(/HTTP requests are off/, 2_000, 'warn');
    expect(line.text).toContain('Allow HTTP Requests');
    expect(fake.requests).toEqual([]);
  });

  it('without loadstring: warns, still runs the other commands, and answers code with a clear error', async () => {
    fake.commands.push(
      { id: 'run', type: 'execute', data: { code: 'print(1)' } },
      { id: 'heal', type: 'heal', data: {} },
    );
    fake.scripts.push({ id: 'auto', name: 'Auto', code: 'print(1)', isAutoExecute: true });
    const game = await startIntegration({ loadStringEnabled: false });
    await game.waitForOutput(/loadstring is off/, 2_000, 'warn');
    await game.waitFor(() => fake.results.length >= 2, 'two results');
    expect(fake.results.find((result) => result.id === 'run')).toMatchObject({
      success: false,
      error: expect.stringContaining('LoadStringEnabled'),
    });
    expect(fake.results.find((result) => result.id === 'heal')).toMatchObject({ success: true });
    await game.waitForOutput(/Auto-execute skipped \(Auto\)/, 3_000, 'warn');
  });

  it('auto-executes each matching script once per id, half a second apart, honouring autoExecuteGames', async () => {
    const script = (id: string, extra: Record<string, unknown> = {}) => ({
      id,
      name: id,
      code: `print("ran ${id}")`,
      isAutoExecute: true,
      ...extra,
    });
    fake.scripts.push(
      script('plain'),
      script('empty-map', { autoExecuteGames: {} }),
      script('null-map', { autoExecuteGames: null }),
      script('all', { autoExecuteGames: { all: { enabled: true } } }),
      script('this-game', { autoExecuteGames: { '13058': { enabled: true } } }),
      script('this-place', { autoExecuteGames: { '1818': { enabled: true } } }),
      script('other-game', { autoExecuteGames: { '999': { enabled: true } } }),
      script('disabled', { autoExecuteGames: { all: { enabled: false }, '13058': { enabled: false } } }),
      script('manual', { isAutoExecute: false }),
      script('failing', { code: 'error("nope")' }),
    );
    const game = await startIntegration({ placeId: 1818, gameId: 13058 });
    await game.waitFor(
      () => fake.requests.filter((request) => request === 'GET /api/scripts').length >= 3,
      'three script fetches',
    );
    await game.waitForOutput(/Auto-execute failed \(failing\): failing:1: nope/, 2_000, 'warn');
    const ran = game.log.filter((line) => line.text.startsWith('ran '));
    expect(ran.map((line) => line.text)).toEqual([
      'ran plain',
      'ran empty-map',
      'ran null-map',
      'ran all',
      'ran this-game',
      'ran this-place',
    ]);
    for (let index = 1; index < ran.length; index++) {
      expect(ran[index]!.time - ran[index - 1]!.time).toBeGreaterThanOrEqual(0.5);
    }
  });

  it('the Quick Loader fetches the integration script and runs it', async () => {
    fake.loaderSource = renderGameIntegration({ serverUrl: fake.url, apiKey: fake.apiKey });
    const game = await startEmulatedGame({ timeScale: FAST });
    games.push(game);
    game.run(renderIntegrationScripts({ serverUrl: fake.url, apiKey: fake.apiKey }).quickLoader);
    await game.waitForOutput(/^\[Moonrelay\] Connected$/);
    expect(fake.requests.slice(0, 2)).toEqual(['GET /api/game/loader', 'POST /api/game/ping']);
  });

  it('the teleport example tours spawn, tower, arena and secret, and ends at spawn', async () => {
    const game = await startEmulatedGame({ timeScale: 0.01 });
    games.push(game);
    game.run(renderIntegrationScripts({ serverUrl: fake.url, apiKey: fake.apiKey }).teleportExample);
    await game.waitForOutput(/^Tour finished$/, 3_000);
    expect(game.output()).toEqual([
      'Teleported Builderman to spawn (0, 50, 0)',
      'Teleported Builderman to tower (120, 180, -40)',
      'Teleported Builderman to arena (-250, 25, 310)',
      'Teleported Builderman to secret (900, 400, -900)',
      'Teleported Builderman to spawn (0, 50, 0)',
      'Tour finished',
    ]);
    expect(game.character()?.position).toEqual({ x: 0, y: 50, z: 0 });
  });
});
