import { io as connect, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { ConsoleLine, ConsoleLinesEvent } from '@moonrelay/contract/console';
import { SOCKET_PATH } from '@moonrelay/contract/events';
import { describeOnSQLite } from '../../../test/engines.ts';
import { startEmulatedGame, type EmulatedGame } from '../../../test/roblox-emulation/emulated-game.ts';
import { startTestServer, type TestServer } from '../../../test/test-server.ts';
import { renderGameIntegration, renderIntegrationScripts } from './integration-scripts.ts';

/**
 * The shipped Game Integration Script, rendered by the server's own renderer, running unchanged in
 * an emulated Roblox game server (server/test/roblox-emulation) against the real Moonrelay server
 * over real HTTP: connecting, the long-poll taking a command the moment it is queued, every command
 * type, an execution answered to the waiting API call, the game's console (its prints, warnings and
 * errors in the API and on the owner's socket, a flood capped and counted, a run's error linked to
 * the run), auto-execute once, a server restart, plain pings (long-poll turned off), the rate
 * limit's 429 with Retry-After, and a regenerated key.
 *
 * The game runs 10 times faster than real time, so the whole story takes a few seconds; the
 * server's own windows stay real: connected within 10 s, the 8 s execution wait, and the long-poll,
 * which holds each ping for its `wait` of 2 real seconds (20 emulated ones, so the script's own
 * pacing never adds to it here).
 */

const TIME_SCALE = 0.1;
const JOB_ID = 'job-emulated-1';
const PLACE_ID = 1818;
const GAME_ID = 13058;
const PLAYER = { name: 'Builderman', userId: 156, position: { x: 0, y: 5, z: 0 }, health: 100, walkSpeed: 16 };

async function register(host: TestServer, name = 'emulated'): Promise<{ token: string; apiKey: string; id: string }> {
  const registered = await host.call('POST', '/api/auth/register', {
    body: {
      email: `${name}${process.pid}@example.com`,
      username: `${name}${process.pid}`.slice(0, 30),
      name: 'Emulated Player',
      password: 'correct horse battery',
    },
  });
  expect(registered.status).toBe(200);
  return { token: registered.body.token, apiKey: registered.body.user.apiKey, id: registered.body.user.id };
}

/** A dashboard's socket, signed in with the session token. */
async function openSocket(host: TestServer, token: string): Promise<Socket> {
  const socket = connect(host.url, {
    path: SOCKET_PATH,
    auth: { token },
    transports: ['websocket'],
    reconnection: false,
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('connect_error', reject);
  });
  return socket;
}

/** Every `console:lines` event of the socket from now on until one passes `until`. */
function consoleEventsUntil(socket: Socket, until: (event: ConsoleLinesEvent) => boolean, timeoutMs = 10_000) {
  return new Promise<ConsoleLinesEvent[]>((resolve, reject) => {
    const seen: ConsoleLinesEvent[] = [];
    const timer = setTimeout(
      () => reject(new Error(`no matching console:lines; saw ${JSON.stringify(seen).slice(0, 2000)}`)),
      timeoutMs,
    );
    const handler = (event: ConsoleLinesEvent) => {
      seen.push(event);
      if (!until(event)) return;
      clearTimeout(timer);
      socket.off('console:lines', handler);
      resolve(seen);
    };
    socket.on('console:lines', handler);
  });
}

describeOnSQLite('the game integration script in an emulated game, against the real server', (engine) => {
  let host: TestServer;
  let game: EmulatedGame;
  let token: string;
  let apiKey: string;
  let userId: string;
  const sockets: Socket[] = [];

  const call = (method: string, requestPath: string, body?: unknown) => host.call(method, requestPath, { token, body });
  const command = async (body: Record<string, unknown>) => {
    const queued = await call('POST', '/api/game/command', { ...body, serverId: JOB_ID });
    expect(queued.status, JSON.stringify(queued.body)).toBe(200);
    return queued.body.id as string;
  };
  /** Waits until the server has the command's result (so the game reported it on a ping). */
  const completed = (id: string) =>
    game.waitFor(async () => {
      const row = await host.app.database.db
        .selectFrom('gameCommands')
        .select(['status', 'output', 'error'])
        .where('id', '=', id)
        .executeTakeFirst();
      return row && row.status !== 'queued' && row.status !== 'delivered' ? row : undefined;
    }, `command ${id} to complete`);
  /** Script fetches the server has answered. */
  const scriptFetches = () =>
    game.requests.filter((request) => request.url.endsWith('/api/scripts') && request.status === 200).length;
  const pingsOf = (of: EmulatedGame) => of.requests.filter((request) => request.url.endsWith('/api/game/ping'));
  const pings = () => pingsOf(game).length;
  /** The config line of the rendered script changed, as a user would edit it. */
  const withConfig = (source: string, line: RegExp, replacement: string) => {
    expect(source).toMatch(line);
    return source.replace(line, replacement);
  };

  beforeAll(async () => {
    // Ten times real speed means 300 pings a minute, the documented budget: not the subject here.
    host = await startTestServer(engine, { RATE_LIMIT_GAME_PING_PER_MINUTE: '100000' });
    ({ token, apiKey, id: userId } = await register(host));
    game = await startEmulatedGame({
      timeScale: TIME_SCALE,
      jobId: JOB_ID,
      placeId: PLACE_ID,
      gameId: GAME_ID,
      player: PLAYER,
    });
    game.run(renderGameIntegration({ serverUrl: host.url, apiKey }), 'ServerScriptService.MoonrelayIntegration');
  });

  afterAll(async () => {
    for (const socket of sockets) socket.disconnect();
    await game?.stop();
    await host?.close();
  });

  /** The whole console as the API answers it (every page), oldest first. */
  const consoleLines = async (query = '') => {
    const lines: ConsoleLine[] = [];
    let cursor = '';
    for (;;) {
      const page = await call('GET', `/api/game/console?limit=500${query}${cursor}`);
      expect(page.status).toBe(200);
      lines.push(...(page.body.lines as ConsoleLine[]));
      if (!page.body.nextCursor) return lines.reverse();
      cursor = `&cursor=${page.body.nextCursor}`;
    }
  };

  it('connects: the status says connected, with the player data and this game server', async () => {
    await game.waitForOutput(/^\[Moonrelay\] Connected$/);
    const status = await call('GET', '/api/game/status');
    expect(status.body.connected).toBe(true);
    expect(status.body.gameData).toEqual({
      playerName: 'Builderman',
      userId: 156,
      placeId: PLACE_ID,
      gameId: GAME_ID,
      universeId: GAME_ID,
      position: { x: 0, y: 5, z: 0 },
      health: 100,
      maxHealth: 100,
      walkSpeed: 16,
    });
    expect(status.body.servers.map((server: { serverId: string }) => server.serverId)).toEqual([JOB_ID]);
  });

  it('holds each ping (wait: 2) and takes a command queued meanwhile from the held request, at once', async () => {
    // The game's ping is held by the server now: its long-poll is the only wait open.
    await game.waitFor(() => host.app.services.waits.pending === 1, 'a held ping');
    const sentBefore = pings();
    const id = await command({ type: 'heal' });
    expect(await completed(id)).toMatchObject({ status: 'succeeded' });

    const all = pingsOf(game);
    for (const exchange of all) expect(JSON.parse(exchange.body)).toMatchObject({ wait: 2 });
    const delivery = all.find((exchange) => exchange.responseBody?.includes(id))!;
    // Handed out by the request that was already waiting at the server when the command was queued,
    // before its 2 s (20 emulated) hold ran out; the result went up on the ping right after it.
    expect(all.indexOf(delivery)).toBeLessThan(sentBefore);
    expect(delivery.answeredAt! - delivery.sentAt).toBeLessThan(20);
    expect(JSON.parse(all[all.indexOf(delivery) + 1]!.body).results).toEqual([
      expect.objectContaining({ id, success: true }),
    ]);
  });

  it('applies teleport, heal, speed and reset to the character and reports each result', async () => {
    const teleport = await command({ type: 'teleport', data: { x: 100, y: 50.5, z: -20 } });
    expect(await completed(teleport)).toMatchObject({ status: 'succeeded', output: 'Teleported to 100, 50.5, -20\n' });
    expect(game.character()?.position).toEqual({ x: 100, y: 50.5, z: -20 });

    game.setCharacter({ health: 25 });
    expect(await completed(await command({ type: 'heal' }))).toMatchObject({ status: 'succeeded' });
    expect(game.character()?.health).toBe(100);

    await completed(await command({ type: 'speed', data: { multiplier: 2 } }));
    expect(game.character()?.walkSpeed).toBe(32);
    await completed(await command({ type: 'speed', data: { speed: 50 } }));
    expect(game.character()?.walkSpeed).toBe(50);

    expect(await completed(await command({ type: 'reset' }))).toMatchObject({ status: 'succeeded' });
    expect(game.character()).toMatchObject({ health: 0, deaths: 1 });

    // The next pings carry the new state up to the dashboard.
    await game.waitFor(async () => {
      const status = await call('GET', '/api/game/status');
      return status.body.gameData?.health === 0 && status.body.gameData.walkSpeed === 50;
    }, 'the status to show the reset character');
  });

  it('runs code sent to POST /api/scripts/execute and answers its printed output to that call', async () => {
    const answer = await call('POST', '/api/scripts/execute', {
      code: 'print("hi")\nwarn("from " .. game:GetService("Players"):GetPlayers()[1].Name)',
      serverId: JOB_ID,
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({
      queued: true,
      gameConnected: true,
      success: true,
      output: 'hi\nwarning: from Builderman\n',
      error: null,
      serverId: JOB_ID,
    });
    expect(answer.body.pending).toBeUndefined();
    // Captured, not printed to the game's own output.
    expect(game.output()).not.toContain('hi');

    const failing = await call('POST', '/api/scripts/execute', { code: 'print("before")\nerror("boom")' });
    expect(failing.body).toMatchObject({ success: false, output: 'before\n', error: 'Moonrelay:2: boom' });
  });

  it("shows the game's prints, warnings and errors in the console, in order, on the owner's socket and in the API, the error with its stack and script", async () => {
    const socket = await openSocket(host, token);
    sockets.push(socket);
    const other = await register(host, 'onlooker');
    const otherSocket = await openSocket(host, other.token);
    sockets.push(otherSocket);
    const seenByOther: ConsoleLinesEvent[] = [];
    otherSocket.on('console:lines', (event: ConsoleLinesEvent) => seenByOther.push(event));

    const live = consoleEventsUntil(socket, (event) => event.lines.some((line) => line.level === 'error'));
    game.run(
      [
        'print("round", 1, "started")',
        'warn("low on players")',
        'local function award(player) error("no leaderstats for " .. player) end',
        'task.spawn(function()',
        '  award("Builderman")',
        'end)',
      ].join('\n'),
      'ServerScriptService.Rounds',
    );
    const received = (await live)
      .flatMap((event) => {
        expect(event.userId).toBe(userId);
        return event.lines;
      })
      .filter((line) => !line.own);
    const expected = [
      { level: 'output', text: 'round 1 started', stack: null, script: null },
      { level: 'warning', text: 'low on players', stack: null, script: null },
      {
        level: 'error',
        text: 'ServerScriptService.Rounds:3: no leaderstats for Builderman',
        stack: 'ServerScriptService.Rounds:3 function award\nServerScriptService.Rounds:5\n',
        script: 'ServerScriptService.Rounds',
      },
    ];
    expect(received).toEqual(
      expected.map((line) => expect.objectContaining({ ...line, serverId: JOB_ID, own: false })),
    );
    // The API has the same lines, with the same ids, in the same order.
    const stored = (await consoleLines()).filter((line) => !line.own);
    expect(stored.slice(-3)).toEqual(received);
    // The integration's own lines are there too, marked.
    expect((await consoleLines()).filter((line) => line.own).map((line) => line.text)).toContain(
      '[Moonrelay] Connected',
    );
    const errors = await call('GET', '/api/game/console/errors');
    expect(errors.body.servers).toEqual([{ serverId: JOB_ID, errorsLastHour: 1 }]);

    // The onlooker, another user, saw none of it, in the API or on the socket: the first event their
    // screen gets is the one of their own line.
    const own = consoleEventsUntil(otherSocket, () => true);
    const ping = await host.call('POST', '/api/game/ping', {
      body: {
        key: other.apiKey,
        serverId: 'onlooker-1',
        console: { lines: [{ time: Date.now(), level: 'output', text: 'mine' }] },
      },
    });
    expect(ping.status).toBe(200);
    await own;
    expect(seenByOther.flatMap((event) => event.lines.map((line) => line.text))).toEqual(['mine']);
    const theirs = await host.call('GET', '/api/game/console', { token: other.token });
    expect(theirs.body.lines.map((line: ConsoleLine) => line.text)).toEqual(['mine']);
  });

  it('caps a flood and counts what it dropped: nothing is lost silently', async () => {
    const before = (await consoleLines()).at(-1)!.id;
    game.run('for i = 1, 3000 do print("flood " .. i) end', 'ServerScriptService.Flood');
    const lines = await game.waitFor(
      async () => {
        const all = await consoleLines(`&serverId=${JOB_ID}&q=flood`);
        return all.some((line) => line.text === 'flood 3000') && all;
      },
      'the flood in the console',
      15_000,
    );
    const markers = (await consoleLines('&level=warning&q=lines dropped')).filter(
      (line) => Number(line.id) > Number(before) && line.dropped,
    );
    const dropped = markers.reduce((sum, line) => sum + line.dropped!, 0);
    expect(dropped).toBeGreaterThan(0);
    expect(markers[0]).toMatchObject({ level: 'warning', own: true, serverId: JOB_ID });
    expect(markers[0]!.text).toMatch(
      /^\d+ lines dropped by the game server: it logged faster than its pings could carry$/,
    );
    // Every line printed is either kept or counted; the kept ones are the newest, in order.
    const flood = lines.filter((line) => line.text.startsWith('flood '));
    expect(flood.length + dropped).toBe(3000);
    expect(flood.map((line) => line.text)).toEqual(
      Array.from({ length: flood.length }, (_, i) => `flood ${3000 - flood.length + 1 + i}`),
    );
  });

  it("links an error thrown by a run's code to that run", async () => {
    const answer = await call('POST', '/api/scripts/execute', {
      code: 'print("started")\ntask.spawn(error, "thrown from a run")',
      serverId: JOB_ID,
    });
    expect(answer.body).toMatchObject({ success: true, output: 'started\n' });
    const line = await game.waitFor(
      async () => (await consoleLines('&level=error')).find((entry) => entry.text === 'thrown from a run'),
      'the run’s error in the console',
    );
    expect(line.executionId).toBe(answer.body.executionId);
    // The run's own print went to its output only.
    expect((await consoleLines('&q=started')).filter((entry) => entry.text === 'started')).toEqual([]);
  });

  it('runs an auto-execute script exactly once over many loops, and only scripts meant for this game', async () => {
    const create = (body: Record<string, unknown>) => call('POST', '/api/scripts', { name: 'x', ...body });
    const created = await Promise.all([
      create({ name: 'Everywhere', code: 'print("auto: everywhere")', isAutoExecute: true }),
      create({
        name: 'This game',
        code: 'print("auto: this game")',
        isAutoExecute: true,
        autoExecuteGames: { [String(GAME_ID)]: { enabled: true } },
      }),
      create({
        name: 'Another game',
        code: 'print("auto: another game")',
        isAutoExecute: true,
        autoExecuteGames: { '999': { enabled: true }, all: { enabled: false } },
      }),
      create({ name: 'Manual', code: 'print("auto: manual")', isAutoExecute: false }),
    ]);
    for (const result of created) expect(result.status).toBe(200);

    const fetchesBefore = scriptFetches();
    // The scripts are fetched every 10 emulated seconds. The first fetch answered may have left
    // before the scripts existed; the two after it found them, and the later one must not run them again.
    await game.waitFor(() => scriptFetches() >= fetchesBefore + 3, 'three more script fetches answered', 15_000);
    const autoLines = game.output().filter((line) => line.startsWith('auto: '));
    expect(autoLines.sort()).toEqual(['auto: everywhere', 'auto: this game']);
    // The two ran half a second (emulated) apart.
    const times = game.log.filter((line) => line.text.startsWith('auto: ')).map((line) => line.time);
    expect(Math.abs(times[1]! - times[0]!)).toBeGreaterThanOrEqual(0.5);
  });

  it('survives the server restarting on the same port and data, and takes commands again', async () => {
    await host.stop();
    await game.waitForOutput(/^\[Moonrelay\] Ping failed \(HttpError: ConnectFail\); retrying in 4 s$/, 10_000);
    await host.start();
    await game.waitForOutput(/^\[Moonrelay\] Reconnected after \d+ failed pings$/, 10_000);
    expect((await call('GET', '/api/game/status')).body.connected).toBe(true);

    const teleport = await command({ type: 'teleport', data: { x: 0, y: 50, z: 0 } });
    expect(await completed(teleport)).toMatchObject({ status: 'succeeded' });
    expect(game.character()?.position).toEqual({ x: 0, y: 50, z: 0 });
    // Still once: the restart did not make the game forget what it ran.
    expect(game.output().filter((line) => line === 'auto: everywhere')).toHaveLength(1);
  });

  it('the Quick Loader fetches the script from the loader route and connects a second game server', async () => {
    const second = await startEmulatedGame({ timeScale: TIME_SCALE, jobId: 'job-emulated-2', player: null });
    try {
      const { quickLoader } = renderIntegrationScripts({ serverUrl: host.url, apiKey });
      second.run(quickLoader);
      await second.waitForOutput(/^\[Moonrelay\] Connected$/);
      const status = await call('GET', '/api/game/status');
      expect(status.body.servers.map((server: { serverId: string }) => server.serverId).sort()).toEqual([
        JOB_ID,
        'job-emulated-2',
      ]);
      // The script the loader answers long-polls too.
      expect(JSON.parse(pingsOf(second)[0]!.body)).toMatchObject({ serverId: 'job-emulated-2', wait: 2 });
    } finally {
      await second.stop();
    }
  });

  it('with longPoll = false the script sends plain pings, and the server still serves them, commands included', async () => {
    const plain = await startEmulatedGame({ timeScale: TIME_SCALE, jobId: 'job-plain', player: null });
    try {
      const source = renderGameIntegration({ serverUrl: host.url, apiKey });
      plain.run(withConfig(source, /longPoll = true,/, 'longPoll = false,'));
      await plain.waitForOutput(/^\[Moonrelay\] Connected$/);
      const queued = await call('POST', '/api/game/command', {
        type: 'execute',
        data: { code: 'print("plain")' },
        serverId: 'job-plain',
      });
      expect(queued.status, JSON.stringify(queued.body)).toBe(200);
      expect(await completed(queued.body.id)).toMatchObject({ status: 'succeeded', output: 'plain\n' });
      for (const exchange of pingsOf(plain)) expect(JSON.parse(exchange.body)).not.toHaveProperty('wait');
    } finally {
      await plain.stop();
    }
  });

  it('stops with a clear message once the key is regenerated, and pings no more', async () => {
    const regenerated = await call('POST', '/api/user/regenerate-key');
    expect(regenerated.status, JSON.stringify(regenerated.body)).toBe(200);
    const stopped = await game.waitForOutput(/API key was refused/, 5_000, 'warn');
    expect(stopped.text).toMatch(/regenerated/);
    expect(stopped.text).toMatch(/Stopped\.$/);
    const pingsAtStop = pings();
    // Ten loops' worth of time: a running loop would have pinged again.
    await new Promise((resolve) => setTimeout(resolve, 20 * 1000 * TIME_SCALE));
    expect(pings()).toBe(pingsAtStop);
    // The integration script itself never failed: the only errors are the ones the tests threw.
    expect(game.output('error')).toEqual([
      'ServerScriptService.Rounds:3: no leaderstats for Builderman',
      'thrown from a run',
    ]);
  });
});

describeOnSQLite('the game integration script against the real per-server ping budget', (engine) => {
  let host: TestServer;
  let game: EmulatedGame | undefined;

  beforeAll(async () => {
    host = await startTestServer(engine, { RATE_LIMIT_GAME_PING_PER_MINUTE: '3' });
  });
  afterAll(async () => {
    await game?.stop();
    await host?.close();
  });

  it('waits out the 429’s Retry-After, with jitter on top, instead of its plain backoff', async () => {
    const { apiKey } = await register(host);
    game = await startEmulatedGame({ timeScale: TIME_SCALE, jobId: 'job-limited', player: null });
    // Plain pings, so the budget of 3 is spent in three loops rather than three 2 s holds.
    const source = renderGameIntegration({ serverUrl: host.url, apiKey });
    expect(source).toMatch(/longPoll = true,/);
    game.run(source.replace(/longPoll = true,/, 'longPoll = false,'));
    const line = await game.waitForOutput(/^\[Moonrelay\] Ping failed \(HTTP 429: /, 5_000, 'warn');
    const refused = game.requests.find((request) => request.status === 429)!;
    const header = Number(refused.responseHeaders!['retry-after']);
    expect(header).toBeGreaterThan(0);
    const [, asked, waiting] = /the server asked for (\d+) s, retrying in ([\d.]+) s$/.exec(line.text)!;
    expect(Number(asked)).toBe(header);
    expect(Number(waiting)).toBeGreaterThanOrEqual(Math.max(header, 2));
    expect(Number(waiting)).toBeLessThanOrEqual(2 * Math.max(header, 2));
  });
});
