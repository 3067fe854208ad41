import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { describeOnSQLite } from '../../../test/engines.ts';
import {
  startEmulatedGame,
  type EmulatedGame,
  type EmulatedGameOptions,
  type EmulatedPlayer,
} from '../../../test/roblox-emulation/emulated-game.ts';
import { registerUser, startTestServer, type TestServer } from '../../../test/test-server.ts';

/**
 * The game-side test bed: the script a user gets from `GET /api/game/loader` (fetched from the real
 * server, not rendered here) runs in an emulated Roblox game server against the real Moonrelay over
 * real HTTP, through what real games do to it: Studio's Play and its local test servers, many
 * players, a player leaving while a command runs, large and binary outputs, a batch of results
 * too large for one ping, an execution that outlasts the command's lease, and a server that
 * refuses, fails or answers slowly.
 *
 * The game runs 10 times faster than real time; the server's own windows stay real.
 */

const TIME_SCALE = 0.1;

interface Harness {
  host: TestServer;
  token: string;
  apiKey: string;
}

/** The integration script exactly as a user's game receives it. */
async function servedScript({ host, apiKey }: Harness): Promise<string> {
  const served = await host.call('GET', `/api/game/loader?key=${encodeURIComponent(apiKey)}`);
  expect(served.status).toBe(200);
  return served.text;
}

/** The script with one line edited, as a user (or an older version) would have it. */
function edited(source: string, line: RegExp, replacement: string): string {
  expect(source).toMatch(line);
  return source.replace(line, replacement);
}

const player = (index: number, userId = 1000 + index): EmulatedPlayer => ({
  name: `Player${index}`,
  userId,
  position: { x: index, y: 5, z: 0 },
});

describeOnSQLite('the served game script in an emulated game, against the real server', (engine) => {
  let harness: Harness;
  let game: EmulatedGame | undefined;

  beforeAll(async () => {
    // Ten times real speed means 300 pings a minute, the documented budget: not the subject here.
    const host = await startTestServer(engine, { RATE_LIMIT_GAME_PING_PER_MINUTE: '100000' });
    const { token, user } = await registerUser(host);
    harness = { host, token, apiKey: user.apiKey as string };
  });
  afterEach(async () => {
    await game?.stop();
    game = undefined;
  });
  afterAll(async () => {
    await harness?.host.close();
  });

  const call = (method: string, path: string, body?: unknown) =>
    harness.host.call(method, path, { token: harness.token, body });

  async function startGame(options: EmulatedGameOptions, edit: (source: string) => string = (source) => source) {
    game = await startEmulatedGame({ timeScale: TIME_SCALE, ...options });
    game.run(edit(await servedScript(harness)), 'ServerScriptService.Moonrelay');
    await game.waitForOutput(/^\[Moonrelay\] Connected$/, 10_000);
    return game;
  }

  /** Queues a command for the server and answers its id. */
  const command = async (serverId: string, body: Record<string, unknown>) => {
    const queued = await call('POST', '/api/game/command', { ...body, serverId });
    expect(queued.status, JSON.stringify(queued.body)).toBe(200);
    return queued.body.id as string;
  };

  /** The command's row once the game's result has reached the server. */
  const completed = (id: string, timeoutMs = 10_000) =>
    game!.waitFor(
      async () => {
        const row = await harness.host.app.database.db
          .selectFrom('gameCommands')
          .select(['status', 'output', 'error'])
          .where('id', '=', id)
          .executeTakeFirst();
        return row && row.status !== 'queued' && row.status !== 'delivered' ? row : undefined;
      },
      `command ${id} to complete`,
      timeoutMs,
    );

  it("connects from Studio's local test server, whose players have negative user ids, and runs commands", async () => {
    const local = await startGame({
      studio: true,
      jobId: '',
      players: [player(1, -1), player(2, -2)],
    });
    const status = await call('GET', '/api/game/status');
    expect(status.body.servers).toEqual([
      expect.objectContaining({ serverId: 'studio', gameData: expect.objectContaining({ userId: -1 }) }),
    ]);
    const id = await command('studio', { type: 'execute', data: { code: 'print(#game.Players:GetPlayers())' } });
    expect(await completed(id)).toMatchObject({ status: 'succeeded', output: '2\n' });
    expect(local.output('warn').filter((line) => line.includes('Ping failed'))).toEqual([]);
  });

  it('results too large for one ping all arrive, over several pings, and the pings never stop', async () => {
    const jobId = 'job-big-results';
    const big = await startGame({ jobId, player: player(1) });
    // Twenty runs that finish together, each printing 59,000 bytes: 1.18 MB of results at once,
    // more than one ping may carry.
    const code = 'task.wait(3)\nprint(string.rep("x", 59000))';
    const ids: string[] = [];
    for (let index = 0; index < 20; index += 1) ids.push(await command(jobId, { type: 'execute', data: { code } }));
    for (const id of ids) {
      const row = await completed(id, 20_000);
      expect(row).toMatchObject({ status: 'succeeded' });
      expect(row.output).toBe(`${'x'.repeat(59000)}\n`);
    }
    expect(big.requests.filter((request) => request.status === 413).length).toBe(0);
    const pingBodies = big.requests.filter((request) => request.url.endsWith('/api/game/ping'));
    expect(Math.max(...pingBodies.map((request) => Buffer.byteLength(request.body)))).toBeLessThan(1024 * 1024);
  });

  it('a result whose JSON would be too large (control characters) is cut further, with a visible note', async () => {
    const jobId = 'job-control-characters';
    await startGame({ jobId, player: player(1) });
    // 60,000 control characters are 360,000 bytes of JSON: more than one result may take.
    const answer = await call('POST', '/api/scripts/execute', {
      code: 'print(string.rep("\\1", 60000))',
      serverId: jobId,
    });
    expect(answer.body).toMatchObject({ success: true });
    const output = answer.body.output as string;
    expect(output).toBe(
      `${'\u0001'.repeat(output.indexOf('\n'))}\n... (output truncated: 60001 bytes, the rest was not sent)`,
    );
    expect(JSON.stringify(output).length).toBeLessThanOrEqual(128 * 1024);
    const pings = game!.requests.filter((request) => request.url.endsWith('/api/game/ping'));
    expect(Math.max(...pings.map((request) => Buffer.byteLength(request.body)))).toBeLessThan(768 * 1024);
  });

  it('a game whose pings are refused tells its owner why, until one of its pings is accepted', async () => {
    const ping = (body: Record<string, unknown>) =>
      harness.host.call('POST', '/api/game/ping', { body: { key: harness.apiKey, ...body } });
    // An older or edited script sending what Moonrelay refuses: the game cannot fix it itself.
    const refused = await ping({ serverId: 'job-refused', playerData: { health: -5 } });
    expect(refused.status).toBe(400);
    const reason = refused.body.error as string;
    expect(reason).toMatch(/^playerData\.health: /);
    const refusedPings = async () => (await call('GET', '/api/game/status')).body.refusedPings;
    // Recorded behind the answer: wait for it to show.
    await expect.poll(refusedPings).toEqual([{ serverId: 'job-refused', reason, refusedAt: expect.any(String) }]);
    // A bad key is no one's game: nothing recorded for anybody.
    await harness.host.call('POST', '/api/game/ping', {
      body: { key: 'mr_unknown', serverId: 'job-refused-2', playerData: { health: -5 } },
    });
    expect(await ping({ serverId: 'job-refused', playerData: { health: 5 } })).toMatchObject({ status: 200 });
    expect(await refusedPings()).toEqual([]);
  });

  it('with 100 players: pings carry the first player only, and commands act on them', async () => {
    const jobId = 'job-full';
    const full = await startGame({ jobId, players: Array.from({ length: 100 }, (_, index) => player(index + 1)) });
    const id = await command(jobId, { type: 'execute', data: { code: 'print(#game.Players:GetPlayers())' } });
    expect(await completed(id)).toMatchObject({ status: 'succeeded', output: '100\n' });
    const last = full.requests.filter((request) => request.url.endsWith('/api/game/ping')).at(-1)!;
    expect(JSON.parse(last.body).playerData).toMatchObject({ playerName: 'Player1', userId: 1001 });
  });

  it('a player leaving while a command runs: the command ends, the next pings report the next player', async () => {
    const jobId = 'job-leaving';
    const leaving = await startGame({ jobId, players: [player(1), player(2)] });
    const code = 'local p = game.Players:GetPlayers()[1]\ntask.wait(5)\nprint(p.Name, p.Parent == nil)';
    const id = await command(jobId, { type: 'execute', data: { code } });
    await leaving.waitFor(() => leaving.requests.some((request) => request.responseBody?.includes(id)), 'delivery');
    leaving.removePlayer('Player1');
    expect(await completed(id)).toMatchObject({ status: 'succeeded', output: 'Player1 true\n' });
    await expect.poll(async () => (await call('GET', '/api/game/status')).body.gameData?.playerName).toBe('Player2');
  });

  it('an execution longer than the command lease runs once and its result is kept', async () => {
    const jobId = 'job-long';
    const long = await startGame({ jobId, player: player(1) });
    // 120 emulated seconds are 12 real ones: longer than the server's 10 s lease, so the command is
    // delivered again while it runs.
    const code = 'counter = (counter or 0) + 1\ntask.wait(120)\nprint("runs", counter)';
    const id = await command(jobId, { type: 'execute', data: { code } });
    expect(await completed(id, 30_000)).toMatchObject({ status: 'succeeded', output: 'runs 1\n' });
    expect(long.requests.filter((request) => request.responseBody?.includes(id)).length).toBeGreaterThan(1);
  });

  it('a result the server refuses (400) is dropped, not sent forever, and the next results still arrive', async () => {
    const jobId = 'job-refused-result';
    // An edited (or older) script whose output budget is above Moonrelay's 64 KiB: the real server
    // refuses the ping that carries such a result.
    const game = await startGame({ jobId, player: player(1) }, (source) =>
      edited(source, /^local MAX_TEXT_BYTES = 60000$/m, 'local MAX_TEXT_BYTES = 100000'),
    );
    const tooLarge = await command(jobId, { type: 'execute', data: { code: 'print(string.rep("x", 70000))' } });
    const refused = await game.waitFor(
      () => game.requests.find((request) => request.status === 400 && request.body.includes(tooLarge)),
      'the ping carrying the result to be refused',
    );
    expect(JSON.parse(refused.responseBody!).error).toMatch(/^results\.0\.output: /);
    const after = await command(jobId, { type: 'execute', data: { code: 'print("after")' } });
    expect(await completed(after)).toMatchObject({ status: 'succeeded', output: 'after\n' });
    // The ping right after the refusal went without the refused result, and was accepted.
    const next = game.requests[game.requests.indexOf(refused) + 1]!;
    expect(next.url).toMatch(/\/api\/game\/ping$/);
    expect(next.body).not.toContain(tooLarge);
    expect(next.status).toBe(200);
  });

  it('backs off 2, 4, 8 s while the server is away, and starts again from 2 s once a ping succeeds', async () => {
    const game = await startGame({ jobId: 'job-backoff', player: null });
    const retries = () =>
      game
        .output('warn')
        .flatMap((line) => /^\[Moonrelay\] Ping failed \(.*\); retrying in (\d+) s$/.exec(line)?.[1] ?? []);
    await harness.host.stop();
    await game.waitFor(() => retries().length >= 3, 'three failed pings');
    await harness.host.start();
    await game.waitForOutput(/^\[Moonrelay\] Reconnected after \d+ failed pings$/, 10_000);
    expect(retries().slice(0, 3)).toEqual(['2', '4', '8']);
    const before = retries().length;
    await harness.host.stop();
    await game.waitFor(() => retries().length > before, 'a failed ping after the reconnection');
    await harness.host.start();
    expect(retries()[before]).toBe('2');
    await game.waitFor(
      () => game.output().filter((line) => /^\[Moonrelay\] Reconnected after/.test(line)).length === 2,
      'the second reconnection',
      10_000,
    );
  });

  it('stops when its script fetch is refused (the key regenerated between two pings), and sends nothing more', async () => {
    // A user of its own: this test regenerates the key.
    const { token, user } = await registerUser(harness.host);
    const own: Harness = { host: harness.host, token, apiKey: user.apiKey as string };
    game = await startEmulatedGame({ timeScale: 0.05, jobId: 'job-fetch-refused', player: null });
    // Plain pings a minute apart and a script fetch every second: the fetch meets the new key first.
    let source = await servedScript(own);
    source = edited(source, /longPoll = true,/, 'longPoll = false,');
    source = edited(source, /pingInterval = 2,/, 'pingInterval = 60,');
    source = edited(source, /scriptSyncInterval = 10,/, 'scriptSyncInterval = 1,');
    game.run(source, 'ServerScriptService.Moonrelay');
    const fetches = () => game!.requests.filter((request) => request.url.endsWith('/api/scripts'));
    await game.waitFor(() => fetches().some((request) => request.status === 200), 'a script fetch');
    const regenerated = await harness.host.call('POST', '/api/user/regenerate-key', { token });
    expect(regenerated.status).toBe(200);
    const stopped = await game.waitForOutput(/API key was refused/, 5_000, 'warn');
    expect(stopped.text).toMatch(/Stopped\.$/);
    const refused = fetches().find((request) => request.status === 401)!;
    expect(refused).toBeDefined();
    const pingsAtStop = game.requests.filter((request) => request.url.endsWith('/api/game/ping')).length;
    expect(pingsAtStop).toBe(1);
    // The game's own clock runs past the time the next ping was due: nothing was sent after the refusal.
    game.run('task.wait(70) print("seventy seconds on")', 'ServerScriptService.Clock');
    await game.waitForOutput(/^seventy seconds on$/, 10_000);
    expect(game.requests.at(-1)).toBe(refused);
  });

  it('reports its roster: the whole of it on connect, then who joins and leaves, and all of it again when asked', async () => {
    const jobId = 'job-roster';
    const players = [player(1), player(2), { ...player(3), displayName: 'Third', accountAge: 400 }];
    const game = await startGame({ jobId, players });
    const online = async () =>
      (await call('GET', `/api/players/online?serverId=${jobId}`)).body.players as {
        userId: number;
        displayName: string | null;
        accountAgeDays: number | null;
      }[];
    const onlineIds = async () => (await online()).map((p) => p.userId).sort((a, b) => a - b);
    await game.waitFor(async () => (await onlineIds()).length === 3 && true, 'the roster');
    expect((await online()).find((p) => p.userId === 1003)).toMatchObject({
      displayName: 'Third',
      accountAgeDays: 400,
    });
    const rosterOf = (body: string) => (JSON.parse(body) as { roster?: Record<string, unknown> }).roster;
    const pings = () => game.requests.filter((request) => request.url.endsWith('/api/game/ping'));
    const firstPing = pings()[0]!;
    expect((rosterOf(firstPing.body)!.players as unknown[]).length).toBe(3);

    game.removePlayer('Player2');
    game.addPlayer(player(4));
    await game.waitFor(async () => (await onlineIds()).join() === '1001,1003,1004' && true, 'the join and the leave');
    // Only the changes went: never the whole list again, and a ping without changes carries the count alone.
    const later = pings()
      .slice(1)
      .map((ping) => rosterOf(ping.body));
    expect(later.some((roster) => roster?.players)).toBe(false);
    expect(later).toContainEqual({ count: 3, joined: [expect.objectContaining({ userId: 1004 })], left: [1002] });
    expect(later).toContainEqual({ count: 3 });

    // Moonrelay restarts: presence is gone, it asks for the roster, and the game sends all of it.
    await harness.host.stop();
    const before = pings().length;
    await harness.host.start();
    await game.waitFor(
      () =>
        pings()
          .slice(before)
          .find((ping) => ping.status === 200 && rosterOf(ping.body)?.players),
      'the whole roster again',
      10_000,
    );
    expect(await onlineIds()).toEqual([1001, 1003, 1004]);
  });

  it('a flood keeps the error that started it: an error and 2,000 prints in one frame, the next ping carries the error', async () => {
    const jobId = 'job-flood';
    const flooded = await startGame({ jobId, player: player(1) });
    interface Line {
      level: string;
      text: string;
      stack?: string;
      script?: string;
      own?: boolean;
    }
    const pingBodiesFrom = (from: number) =>
      flooded.requests
        .slice(from)
        .filter((request) => request.url.endsWith('/api/game/ping'))
        .map((request) => JSON.parse(request.body) as { console?: { lines: Line[]; dropped?: number } });
    // Nothing waits before the flood: its own "Connected" line has gone up.
    await flooded.waitFor(
      () => pingBodiesFrom(0).some((body) => body.console?.lines.some((line) => line.text === '[Moonrelay] Connected')),
      'the Connected line sent up',
    );
    const from = flooded.requests.length;
    const pingBodies = () => pingBodiesFrom(from);
    const isFlood = (line: Line) => line.text.startsWith('flood ');
    // One frame: the error ends its own thread, the 2,000 prints follow before anything yields.
    flooded.run(
      'task.spawn(function() error("the flood starts here") end)\nfor i = 1, 2000 do print("flood " .. i) end',
      'ServerScriptService.Flood',
    );
    const next = await flooded.waitFor(
      () => pingBodies().find((body) => body.console?.lines.some(isFlood)),
      'the next ping with the flood',
      10_000,
    );
    // The error comes first, with its stack and script; the oldest prints made room for it.
    const lines = next.console!.lines.filter((line) => !line.own);
    expect(lines[0]).toMatchObject({
      level: 'error',
      text: 'ServerScriptService.Flood:1: the flood starts here',
      script: 'ServerScriptService.Flood',
    });
    expect(lines.slice(1, 4).map((line) => line.text)).toEqual(['flood 1002', 'flood 1003', 'flood 1004']);
    expect(next.console!.dropped).toBe(1001);

    // The rest follows on the next pings: the newest 999 prints, the 1,001 before them counted.
    await flooded.waitFor(
      () => pingBodies().some((body) => body.console?.lines.some((line) => line.text === 'flood 2000')),
      'the last print sent up',
      10_000,
    );
    const sent = pingBodies().flatMap((body) => body.console?.lines ?? []);
    expect(sent.filter(isFlood).map((line) => line.text)).toEqual(
      Array.from({ length: 999 }, (_, i) => `flood ${1002 + i}`),
    );
    expect(pingBodies().reduce((sum, body) => sum + (body.console?.dropped ?? 0), 0)).toBe(1001);
    // And Moonrelay keeps it: the Console's errors show it.
    await expect
      .poll(async () => (await call('GET', `/api/game/console?serverId=${jobId}&level=error`)).body.lines)
      .toEqual([expect.objectContaining({ text: 'ServerScriptService.Flood:1: the flood starts here' })]);
  });

  it('binary output comes back at once, cut to the result budget, each invalid byte shown as "?"', async () => {
    const jobId = 'job-binary';
    await startGame({ jobId, player: player(1) });
    const answer = await call('POST', '/api/scripts/execute', {
      code: 'print(string.rep("\\255", 150000))',
      serverId: jobId,
    });
    expect(answer.status).toBe(200);
    expect(answer.body.pending).toBeUndefined();
    expect(answer.body.success).toBe(true);
    expect(answer.body.output).toMatch(/^\?{59000,60000}\n\.\.\. \(output truncated/);
  });
});
