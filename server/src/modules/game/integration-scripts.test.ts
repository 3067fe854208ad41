import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { LuaFactory, type LuaEngine } from 'wasmoon';
import {
  startEmulatedGame,
  type EmulatedGame,
  type EmulatedGameOptions,
  type HttpExchange,
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

  // A fake of its own for each test: a request a stopped game had already sent can still reach the
  // server after the abort, and must not spend the next test's failures or commands.
  beforeEach(async () => {
    fake = await startFakeMoonrelay();
  });
  afterEach(async () => {
    await Promise.all(games.splice(0).map((game) => game.stop()));
    await fake.close();
  });

  async function startIntegration(
    options: EmulatedGameOptions = {},
    source = renderGameIntegration({ serverUrl: fake.url, apiKey: fake.apiKey }),
    // The fake holds a long-poll and leases commands on the game's clock unless told otherwise.
    holdScale = options.timeScale ?? FAST,
  ): Promise<EmulatedGame> {
    const game = await startEmulatedGame({ timeScale: FAST, ...options });
    games.push(game);
    fake.holdScale = holdScale;
    game.run(source);
    return game;
  }

  /** The rendered script with one CONFIG line changed, as a user would edit it. */
  function withConfig(line: RegExp, replacement: string): string {
    const source = renderGameIntegration({ serverUrl: fake.url, apiKey: fake.apiKey });
    expect(source).toMatch(line);
    return source.replace(line, replacement);
  }

  const waitForPing = () =>
    games[0]!.waitFor(() => fake.pings.length > 0, 'the first ping', 3_000).then(() => undefined);

  /** The game's pings, in the order it sent them. */
  const pingsOf = (game: EmulatedGame) => game.requests.filter((request) => request.url.endsWith('/api/game/ping'));
  /** Gaps (emulated seconds) between the starts of consecutive pings. */
  const gapsOf = (exchanges: HttpExchange[]) =>
    exchanges.slice(1).map((exchange, index) => exchange.sentAt - exchanges[index]!.sentAt);
  /** The ping whose answer handed out command `id`. */
  const deliveryOf = (game: EmulatedGame, id: string) =>
    pingsOf(game).find((exchange) =>
      (JSON.parse(exchange.responseBody ?? '{}') as { commands?: Array<{ id: string }> }).commands?.some(
        (command) => command.id === id,
      ),
    );

  it('long-polls by default: every ping carries the key, the server id, the player data, the roster and wait: 2', async () => {
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
      roster: {
        count: 1,
        players: [{ userId: 156, name: 'Builderman', displayName: 'Builderman', accountAgeDays: 0 }],
      },
      wait: 2,
    });
    // The whole roster once; then its count alone, as nobody joined or left.
    for (const ping of fake.pings.slice(1)) expect(ping.body.roster).toEqual({ count: 1 });
    // Each ping was held for its whole wait (no command came), and the next went out at once.
    const pings = pingsOf(game).filter((exchange) => exchange.answeredAt !== null);
    for (const exchange of pings) expect(exchange.answeredAt! - exchange.sentAt).toBeGreaterThanOrEqual(1.9);
    for (const gap of gapsOf(pings)) expect(gap).toBeGreaterThanOrEqual(1.9);
    expect(game.output()).toContain('[Moonrelay] Connected');
  });

  it('a command sent while a ping is held arrives at once, and its result goes up on the very next ping', async () => {
    // Slower than the other tests (2 emulated seconds are 1 s here), so the "at once" below has room.
    const game = await startIntegration({ timeScale: 0.5 });
    await game.waitForOutput(/^\[Moonrelay\] Connected$/, 5_000);
    await game.waitFor(() => fake.held === 1, 'a held ping');
    const sentBefore = pingsOf(game).length;
    fake.queue({ id: 'now', type: 'heal', data: {} });
    await game.waitFor(() => fake.results.find((result) => result.id === 'now'), 'the result');

    // Handed out by the ping that was already held when the command was queued ...
    const pings = pingsOf(game);
    const delivery = deliveryOf(game, 'now')!;
    expect(pings.indexOf(delivery)).toBeLessThan(sentBefore);
    expect(delivery.answeredAt! - delivery.sentAt).toBeLessThan(2);
    // ... and the result rode on the next ping, sent well before the loop's next 2 s turn (which
    // would come 2 s after the held ping started): the command was queued as soon as it was held.
    const next = pings[pings.indexOf(delivery) + 1]!;
    expect(JSON.parse(next.body).results).toEqual([expect.objectContaining({ id: 'now', success: true })]);
    expect(next.sentAt - delivery.sentAt).toBeLessThan(1);
  });

  it('paces the pings to one per 2 s when answers come at once without a command (older server)', async () => {
    // The fake answers every ping at once, wait or not.
    fake.holdPings = false;
    // 2 emulated seconds are 400 ms here, so a few milliseconds of a busy machine between the
    // script's clock reading and its request stay well inside the 0.25 s allowed below.
    const game = await startIntegration({ timeScale: 0.2 });
    await game.waitFor(() => pingsOf(game).length >= 6, 'six pings');
    const pings = pingsOf(game);
    expect(JSON.parse(pings[0]!.body).wait).toBe(2);
    // Unpaced, they would follow each other milliseconds apart.
    for (const gap of gapsOf(pings)) expect(gap).toBeGreaterThanOrEqual(1.75);
  });

  it('a server that keeps sending commands gets pings no closer than 0.25 s apart', async () => {
    // A server that keeps handing out commands: a new one whenever the last one's result is in.
    let next = 0;
    // 0.25 emulated seconds are 50 ms here (see the pacing test above for why not faster).
    const game = await startIntegration({ timeScale: 0.2 });
    await game.waitForOutput(/^\[Moonrelay\] Connected$/);
    // One waiting at a time, so that each answer brings one.
    const timer = setInterval(() => {
      if (fake.commands.length === 0) fake.queue({ id: `c${next++}`, type: 'heal', data: {} });
    }, 1);
    try {
      await game.waitFor(() => fake.results.length >= 20, 'twenty results');
    } finally {
      clearInterval(timer);
    }
    const burst = pingsOf(game).filter((exchange) => /"results":\[\{/.test(exchange.body));
    expect(burst.length).toBeGreaterThanOrEqual(10);
    // Without the floor they would follow each other a round trip apart (a few milliseconds).
    for (const gap of gapsOf(burst)) expect(gap).toBeGreaterThanOrEqual(0.15);
    expect(burst.at(-1)!.sentAt - burst[0]!.sentAt).toBeGreaterThanOrEqual((burst.length - 1) * 0.25 - 0.15);
  });

  it.each([
    [503, '5', 5],
    [429, '3', 3],
  ])('honours Retry-After on a %i with random jitter, instead of the plain backoff', async (status, header, asked) => {
    fake.failStatus = status;
    fake.retryAfter = header;
    fake.failNextPings = 6;
    const game = await startIntegration({ timeScale: 0.01 });
    await game.waitForOutput(/^\[Moonrelay\] Connected$/, 5_000);
    const waits = game
      .output('warn')
      .map((line) => new RegExp(`the server asked for ${asked} s, retrying in ([\\d.]+) s$`).exec(line)?.[1])
      .filter(Boolean)
      .map(Number);
    expect(waits).toHaveLength(6);
    for (const wait of waits) {
      expect(wait).toBeGreaterThanOrEqual(asked);
      expect(wait).toBeLessThanOrEqual(2 * asked);
    }
    // Jittered: not the same wait six times over.
    expect(new Set(waits).size).toBeGreaterThan(1);
    // And waited for: no retry went out sooner than Retry-After after the refused ping.
    const failed = pingsOf(game).filter((exchange) => exchange.status === status);
    const retries = pingsOf(game).slice(1, failed.length + 1);
    failed.forEach((exchange, index) =>
      expect(retries[index]!.sentAt - exchange.answeredAt!).toBeGreaterThanOrEqual(asked),
    );
  });

  it('caps a Retry-After of a day at 10 minutes, and ignores one that is not a number of seconds', async () => {
    fake.retryAfter = '86400';
    fake.failNextPings = 1;
    const game = await startIntegration();
    await game.waitForOutput(/the server asked for 600 s, retrying in [\d.]+ s$/, 3_000, 'warn');
    await game.stop();

    fake.retryAfter = 'Wed, 21 Oct 2015 07:28:00 GMT';
    fake.failNextPings = 1;
    const dated = await startIntegration();
    await dated.waitForOutput(/^\[Moonrelay\] Ping failed \(HTTP 503: Service unavailable\); retrying in 2 s$/, 3_000);
  });

  it('with longPoll = false: plain pings without wait, one per 2 s, a command taken by the next ping', async () => {
    const game = await startIntegration({ timeScale: 0.2 }, withConfig(/longPoll = true,/, 'longPoll = false,'));
    // Queued between two pings (every one sent so far is answered), as a plain ping holds nothing.
    const between = () => pingsOf(game).every((exchange) => exchange.answeredAt !== null);
    await game.waitFor(() => pingsOf(game).length >= 4 && between(), 'four pings, none in flight');
    const sentBefore = pingsOf(game).length;
    for (const gap of gapsOf(pingsOf(game))) expect(gap).toBeGreaterThanOrEqual(1.75);
    fake.queue({ id: 'plain', type: 'heal', data: {} });
    await game.waitFor(() => fake.results.find((result) => result.id === 'plain'), 'the result');
    const pings = pingsOf(game);
    for (const exchange of pings) expect(JSON.parse(exchange.body)).not.toHaveProperty('wait');
    expect(fake.held).toBe(0);
    // Nothing was held: the command waited for a ping sent after it was queued.
    expect(pings.indexOf(deliveryOf(game, 'plain')!)).toBeGreaterThanOrEqual(sentBefore);
  });

  it('a held ping cut off mid-hold counts as a failed ping: backoff, then held pings again', async () => {
    const game = await startIntegration();
    await game.waitForOutput(/^\[Moonrelay\] Connected$/);
    await game.waitFor(() => fake.held === 1, 'a held ping');
    fake.cutHeldPings();
    await game.waitForOutput(/^\[Moonrelay\] Ping failed \(HttpError: NetFail.*\); retrying in 2 s$/, 3_000);
    await game.waitForOutput(/^\[Moonrelay\] Reconnected after 1 failed pings$/, 3_000);
    await game.waitFor(() => fake.held === 1, 'a held ping again');
  });

  it('a held ping that outlasts RequestAsync’s own timeout is retried after the backoff', async () => {
    // The fake holds the 2 s wait for 2 real seconds; the game's requests give up after 100 ms.
    const game = await startIntegration({ httpTimeoutMs: 100 }, undefined, 1);
    await game.waitForOutput(/^\[Moonrelay\] Ping failed \(HttpError: Timedout\); retrying in 2 s$/, 3_000);
    fake.holdPings = false;
    await game.waitForOutput(/^\[Moonrelay\] Connected$/, 3_000);
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
    expect(Buffer.byteLength(byId.huge!.output!)).toBeLessThanOrEqual(60_000 + 80);
    expect(byId.huge!.output).toMatch(/^(é)+\n\.\.\. \(output truncated: 80001 bytes, the rest was not sent\)$/);
    // JSON carries text: a byte that is not UTF-8 arrives as "?".
    expect(byId.bytes).toMatchObject({ success: true, output: 'a?b\n' });
    // The slow one reports last, six emulated seconds later, while the pings went on.
    expect(byId.slow).toMatchObject({ success: true, output: 'start\nend\n' });
    expect(fake.results.at(-1)!.id).toBe('slow');
    expect(game.output().filter((line) => line === 'start' || line === 'end')).toEqual([]);
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

  describe('the console', () => {
    interface SentLine {
      time: number;
      level: string;
      text: string;
      stack?: string;
      script?: string;
      own?: boolean;
      commandId?: string;
    }
    /** Every console line the fake received, in order, and the drops the pings reported. */
    const sentLines = () => fake.pings.flatMap((ping) => (ping.body.console?.lines ?? []) as SentLine[]);
    const reportedDrops = () =>
      fake.pings.reduce((sum, ping) => sum + ((ping.body.console?.dropped as number | undefined) ?? 0), 0);
    const gameLines = () => sentLines().filter((line) => !line.own);
    /** Waits until the integration is connected and its "Connected" line has gone up. */
    const connectedGame = async (options: EmulatedGameOptions = {}, source?: string) => {
      const game = await startIntegration(options, source);
      await game.waitFor(() => sentLines().some((line) => line.text === '[Moonrelay] Connected'), 'Connected sent up');
      return game;
    };

    it("sends this server's prints, warnings and errors (with stack and script) on its pings, in order, its own lines marked", async () => {
      const before = Date.now();
      const game = await connectedGame();
      game.run(
        'print("hello", 2)\nwarn("careful")\nlocal function explode() error("boom") end\ntask.spawn(function() explode() end)',
        'ServerScriptService.Game',
      );
      await game.waitFor(() => gameLines().some((line) => line.level === 'error'), 'the error sent up');
      expect(gameLines().map(({ time: _time, ...line }) => line)).toEqual([
        { level: 'output', text: 'hello 2' },
        { level: 'warning', text: 'careful' },
        {
          level: 'error',
          text: 'ServerScriptService.Game:3: boom',
          stack: 'ServerScriptService.Game:3 function explode\nServerScriptService.Game:4\n',
          script: 'ServerScriptService.Game',
        },
      ]);
      for (const line of sentLines()) {
        expect(line.time).toBeGreaterThanOrEqual(before);
        expect(line.time).toBeLessThanOrEqual(Date.now());
      }
      expect(
        sentLines()
          .filter((line) => line.own)
          .map((line) => [line.level, line.text]),
      ).toEqual([
        ['output', expect.stringMatching(/^\[Moonrelay\] Starting \(server /)],
        ['output', '[Moonrelay] Connected'],
      ]);
      // The error's stack went up with it, not as lines of its own.
      expect(sentLines().some((line) => /Stack (Begin|End)|^Script '/.test(line.text))).toBe(false);
    });

    it('never sends a request for lines: they ride on the pings, each held for its whole wait', async () => {
      const game = await connectedGame();
      game.run(
        'while true do for i = 1, 100 do print("tick " .. i) end task.wait(2) end',
        'ServerScriptService.Chatty',
      );
      await game.waitFor(() => gameLines().length >= 500, 'five hundred lines sent up', 10_000);
      const requests = game.requests.map((request) => new URL(request.url).pathname);
      expect(new Set(requests)).toEqual(new Set(['/api/game/ping', '/api/scripts']));
      const pings = pingsOf(game).filter((exchange) => exchange.answeredAt !== null);
      for (const exchange of pings) expect(exchange.answeredAt! - exchange.sentAt).toBeGreaterThanOrEqual(1.9);
      for (const gap of gapsOf(pings)) expect(gap).toBeGreaterThanOrEqual(1.9);
      expect(reportedDrops()).toBe(0);
    });

    it('floods: at most 200 lines a ping, the oldest dropped past 1,000 waiting and counted, none lost silently', async () => {
      const game = await connectedGame();
      const sentBefore = gameLines().length;
      game.run('for i = 1, 3000 do print("flood " .. i) end', 'ServerScriptService.Flood');
      await game.waitFor(() => gameLines().some((line) => line.text === 'flood 3000'), 'the last line sent up', 10_000);
      const flood = gameLines().slice(sentBefore);
      // The newest 1,000 came through, in order; the 2,000 before them were counted.
      expect(flood.map((line) => line.text)).toEqual(Array.from({ length: 1000 }, (_, i) => `flood ${2001 + i}`));
      expect(reportedDrops()).toBe(2000);
      for (const ping of fake.pings) expect(ping.body.console?.lines?.length ?? 0).toBeLessThanOrEqual(200);
    });

    it('floods: plain output is dropped before warnings and errors, which go only once nothing else is left', async () => {
      const game = await connectedGame();
      // 300 prints, then 900 warnings: the oldest 200 prints make room, the order of the rest is kept.
      game.run(
        'for i = 1, 300 do print("print " .. i) end\nfor i = 1, 900 do warn("warning " .. i) end',
        'ServerScriptService.Mixed',
      );
      await game.waitFor(() => gameLines().some((line) => line.text === 'warning 900'), 'the mixed flood', 10_000);
      const texts = (from: number, count: number, prefix: string) =>
        Array.from({ length: count }, (_, i) => `${prefix} ${from + i}`);
      expect(gameLines().map((line) => line.text)).toEqual([...texts(201, 100, 'print'), ...texts(1, 900, 'warning')]);
      expect(reportedDrops()).toBe(200);
      // All warnings: the oldest warnings go; a print logged while they fill the buffer goes first.
      const sentBefore = gameLines().length;
      game.run(
        'for i = 1, 1200 do warn("alarm " .. i) end\nfor i = 1, 50 do print("late " .. i) end',
        'ServerScriptService.Alarms',
      );
      await game.waitFor(() => gameLines().some((line) => line.text === 'alarm 1200'), 'the alarms', 10_000);
      expect(
        gameLines()
          .slice(sentBefore)
          .map((line) => line.text),
      ).toEqual(texts(201, 1000, 'alarm'));
      expect(reportedDrops()).toBe(200 + 250);
      for (const ping of fake.pings) expect(ping.body.console?.lines?.length ?? 0).toBeLessThanOrEqual(200);
    });

    it('keeps a ping within 32 KB of lines however long they are, cutting each line to fit 2,000 bytes', async () => {
      const game = await connectedGame();
      game.run(
        'for i = 1, 40 do print(string.rep("x", 1500) .. i) end\nprint(string.rep("é", 5000))',
        'ServerScriptService.Long',
      );
      await game.waitFor(() => gameLines().length >= 41, 'the long lines sent up', 10_000);
      for (const ping of fake.pings) {
        const lines = (ping.body.console?.lines ?? []) as SentLine[];
        const bytes = lines.reduce((sum, line) => sum + Buffer.byteLength(line.text) + 100, 0);
        expect(bytes).toBeLessThanOrEqual(32 * 1024);
      }
      expect(gameLines().filter((line) => line.text.startsWith('xxx'))).toHaveLength(40);
      const cut = gameLines().at(-1)!.text;
      // Within what Moonrelay keeps (2,000 characters), the note included.
      expect(Buffer.byteLength(cut)).toBeLessThanOrEqual(2000);
      expect(cut.endsWith('é\n... (truncated)')).toBe(true);
      expect(reportedDrops()).toBe(0);
    });

    it('sends the lines of a failed ping again, and counts those of a refused one (400) as dropped', async () => {
      const game = await connectedGame();
      fake.failNextPings = 1;
      game.run('print("first try")', 'ServerScriptService.Retry');
      await game.waitFor(() => gameLines().some((line) => line.text === 'first try'), 'the line sent again');
      const failed = pingsOf(game).find((exchange) => exchange.status === 503)!;
      expect(JSON.parse(failed.body).console.lines.map((line: SentLine) => line.text)).toContain('first try');

      fake.failNextPings = 1;
      fake.failStatus = 400;
      game.run('print("refused") print("refused too")', 'ServerScriptService.Refused');
      await game.waitFor(() => reportedDrops() > 0, 'the drop reported');
      const refused = pingsOf(game).find((exchange) => exchange.status === 400)!;
      const refusedLines = JSON.parse(refused.body).console.lines as SentLine[];
      expect(refusedLines.map((line) => line.text)).toEqual(expect.arrayContaining(['refused', 'refused too']));
      expect(reportedDrops()).toBe(refusedLines.length);
      expect(sentLines().some((line) => line.text.startsWith('refused'))).toBe(false);
    });

    it('its own warnings about failed pings stay bounded while Moonrelay is away, and logging a line logs nothing', async () => {
      const game = await connectedGame({ timeScale: 0.002 });
      const outputBefore = game.log.length;
      fake.failNextPings = 1_000_000;
      await game.waitFor(
        () => game.output('warn').filter((line) => line.includes('Ping failed')).length >= 12,
        'twelve failures',
        10_000,
      );
      game.run('for i = 1, 1500 do print("while away " .. i) end', 'ServerScriptService.Away');
      await game.waitFor(() => game.output().includes('while away 1500'), 'the prints');
      fake.failNextPings = 0;
      await game.waitFor(
        () => gameLines().some((line) => line.text === 'while away 1500'),
        'the lines after reconnecting',
        10_000,
      );
      // What the game logged while away: its failures and the prints; the listeners added nothing.
      const logged = game.log.slice(outputBefore).filter((line) => line.kind !== 'info');
      const failures = logged.filter((line) => line.text.startsWith('[Moonrelay] Ping failed'));
      expect(logged.length).toBe(failures.length + 1500 + 1);
      // At most 1,000 of them waited; the rest were counted, none was lost silently.
      const upAfter = sentLines().filter(
        (line) => line.text.startsWith('while away') || line.text.includes('Ping failed'),
      );
      expect(upAfter.length).toBeLessThanOrEqual(1000);
      expect(upAfter.length + reportedDrops()).toBeGreaterThanOrEqual(1500 + failures.length - 1);
    });

    it('names the command whose code was running when a line was logged, and only while it ran', async () => {
      const game = await connectedGame();
      fake.queue({
        id: 'cmd-1',
        type: 'execute',
        data: { code: 'print("captured")\ntask.spawn(error, "thrown in a thread")' },
      });
      await game.waitFor(() => fake.results.find((result) => result.id === 'cmd-1'), 'the result');
      expect(fake.results.find((result) => result.id === 'cmd-1')).toMatchObject({
        success: true,
        output: 'captured\n',
      });
      game.run('task.wait(0.5) print("later")', 'ServerScriptService.Later');
      await game.waitFor(() => gameLines().some((line) => line.text === 'later'), 'the later line');
      expect(gameLines().map((line) => [line.level, line.text, line.commandId])).toEqual([
        ['error', 'thrown in a thread', 'cmd-1'],
        ['output', 'later', undefined],
      ]);
      // The command's own print went to its output, not to the console.
      expect(sentLines().some((line) => line.text === 'captured')).toBe(false);
    });

    it('with console = false sends no lines and listens to nothing', async () => {
      const game = await startIntegration({}, withConfig(/console = true,/, 'console = false,'));
      await game.waitForOutput(/^\[Moonrelay\] Connected$/);
      game.run('print("kept here") error("and this")', 'ServerScriptService.Quiet');
      await game.waitFor(() => fake.pings.length >= 4, 'four pings');
      for (const ping of fake.pings) expect(ping.body).not.toHaveProperty('console');
    });
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
