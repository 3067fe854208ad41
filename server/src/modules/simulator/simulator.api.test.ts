import { afterAll, beforeAll, expect, it } from 'vitest';
import { INTEGRATION_KEY_NAME } from '@moonrelay/contract/api-keys';
import { ERRORS } from '@moonrelay/contract/messages';
import {
  SIMULATED_PLAYER,
  SIMULATOR_ERRORS,
  SIMULATOR_MINUTES,
  SIMULATORS_PER_INSTANCE,
} from '@moonrelay/contract/simulator';
import { describeOnSQLite } from '../../../test/engines.ts';
import { playersSeenBefore, registerUser, startTestServer, type TestServer } from '../../../test/test-server.ts';
import type { BusEvent } from '../../platform/event-bus.ts';
import { simulatedServerId } from './simulator.service.ts';

type Of<T extends BusEvent['type']> = Extract<BusEvent, { type: T }>;

/** The next bus event of a type that matches; subscribe before doing what raises it. */
function nextEvent<T extends BusEvent['type']>(
  server: TestServer,
  type: T,
  matches: (event: Of<T>) => boolean = () => true,
): Promise<Of<T>> {
  return new Promise((resolve) => {
    const unsubscribe = server.app.services.bus.subscribe((event) => {
      if (event.type !== type || !matches(event as Of<T>)) return;
      unsubscribe();
      resolve(event as Of<T>);
    });
  });
}

/** A change of the user's game servers carrying this server's state, that `matches`. */
const serverChanged = (
  server: TestServer,
  userId: string,
  serverId: string,
  matches: (gameData: Record<string, unknown>) => boolean,
) =>
  nextEvent(server, 'game:servers', (event) =>
    event.changes.some(
      (change) =>
        change.userId === userId &&
        change.servers.some((s) => s.serverId === serverId && matches((s.gameData ?? {}) as Record<string, unknown>)),
    ),
  );

const serverGone = (server: TestServer, userId: string, serverId: string) =>
  nextEvent(server, 'game:servers', (event) =>
    event.changes.some((change) => change.userId === userId && change.gone.some((gone) => gone.serverId === serverId)),
  );

describeOnSQLite('simulated game server', (engine) => {
  let server: TestServer;
  let alice: { id: string; token: string; apiKey: string };
  let serverId: string;

  beforeAll(async () => {
    server = await startTestServer(engine);
    const registered = await registerUser(server);
    alice = { id: registered.user.id, token: registered.token, apiKey: registered.user.apiKey };
    serverId = simulatedServerId(alice.id);
  });
  afterAll(() => server?.close());

  const call = (method: string, path: string, body?: unknown, token = alice.token) =>
    server.call(method, path, { token, body });
  /** A command to the simulated server, and its outcome once its result is back. */
  const command = async (body: Record<string, unknown>) => {
    let id = '';
    const finished = nextEvent(
      server,
      'command:update',
      (event) => event.command.id === id && ['succeeded', 'failed'].includes(event.command.status),
    );
    const sent = await call('POST', '/api/game/command', { ...body, serverId });
    expect(sent.status, sent.text).toBe(200);
    id = sent.body.id;
    return (await finished).command;
  };

  it('starts for the signed-in user and answers once its first ping through the real game route is accepted', async () => {
    const greeting = nextEvent(server, 'console:lines', (event) =>
      event.lines.some(
        (line) => line.serverId === serverId && line.text.startsWith('Hello from a simulated game server'),
      ),
    );
    const started = await call('POST', '/api/game/simulator');
    expect(started.status, started.text).toBe(200);
    expect(started.body).toMatchObject({ running: true, serverId, playerName: SIMULATED_PLAYER.name, lastStop: null });
    expect(serverId).toMatch(/^simulated-[0-9a-f]{8}$/);
    expect(Date.parse(started.body.endsAt) - Date.parse(started.body.startedAt)).toBe(SIMULATOR_MINUTES * 60_000);

    // Connected as any game server is: in the status, with its player's data.
    const status = await call('GET', '/api/game/status');
    expect(status.body.connected).toBe(true);
    expect(status.body.servers).toEqual([
      expect.objectContaining({
        serverId,
        connected: true,
        gameData: expect.objectContaining({
          playerName: SIMULATED_PLAYER.name,
          userId: SIMULATED_PLAYER.userId,
          health: 75,
          maxHealth: 100,
          walkSpeed: 16,
        }),
      }),
    ]);
    // Its player is online on it (its roster came with that ping).
    const online = await call('GET', '/api/players/online');
    expect(online.body.players).toEqual([
      expect.objectContaining({ userId: SIMULATED_PLAYER.userId, name: SIMULATED_PLAYER.name, serverId }),
    ]);
    // Its greeting reached the console, and the account's request metrics counted its ping: real HTTP.
    const lines = (await greeting).lines.filter((line) => line.serverId === serverId);
    expect(lines.map((line) => [line.level, line.own])).toEqual([
      ['output', false],
      ['info', true],
    ]);
    const usage = await call('GET', '/api/analytics/usage?period=1h');
    expect(usage.body.requestsByEndpoint['POST /api/game/ping']).toBeGreaterThanOrEqual(1);
  });

  it('is one per account: pressing again, or asking, answers the running one', async () => {
    const first = await call('GET', '/api/game/simulator');
    const again = await call('POST', '/api/game/simulator');
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    expect(first.body.running).toBe(true);
    expect(server.app.services.simulator.runningCount()).toBe(1);
  });

  it('keeps long-polling: a second ping follows the first, both through the route', async () => {
    const simulated = server.app.services.simulator.runningFor(alice.id)!;
    expect(await simulated.whenPinged(2)).toBeGreaterThanOrEqual(2);
  });

  it('answers the built-in commands as the integration script would, on its player', async () => {
    const healed = serverChanged(server, alice.id, serverId, (data) => data.health === 100);
    expect(await command({ type: 'heal', data: {} })).toMatchObject({ status: 'succeeded', output: 'Healed to 100' });
    await healed;

    const moved = serverChanged(server, alice.id, serverId, (data) => {
      const position = data.position as { x: number } | undefined;
      return position?.x === 10;
    });
    expect(await command({ type: 'teleport', data: { x: 10, y: 20, z: 30 } })).toMatchObject({
      status: 'succeeded',
      output: 'Teleported to 10, 20, 30',
    });
    await moved;
    expect(await command({ type: 'speed', data: { multiplier: 2 } })).toMatchObject({
      status: 'succeeded',
      output: 'Walk speed set to 32',
    });

    // A reset kills the character; as in Roblox a new one spawns a few seconds later, at full health.
    const died = serverChanged(server, alice.id, serverId, (data) => data.health === 0);
    const respawned = died.then(() =>
      serverChanged(server, alice.id, serverId, (data) => data.health === 100 && data.walkSpeed === 16),
    );
    expect(await command({ type: 'reset', data: {} })).toMatchObject({
      status: 'succeeded',
      output: 'Character reset',
    });
    await died;
    await respawned;
  });

  it('runs the code it is sent in the dry-run emulation: the answer, the run and the console say what it did', async () => {
    const consoled = nextEvent(server, 'console:lines', (event) =>
      event.lines.some((line) => line.text.includes('created Part ×1')),
    );
    const ran = await call('POST', '/api/scripts/execute', {
      code: 'print("hello from the simulation")\nlocal part = Instance.new("Part")\npart.Parent = workspace\nprint(part:GetFullName())\nwarn("careful")',
      target: 'game',
    });
    expect(ran.status, ran.text).toBe(200);
    expect(ran.body).toMatchObject({
      success: true,
      queued: true,
      gameConnected: true,
      serverId,
      output: 'hello from the simulation\nWorkspace.Part\nwarning: careful\n',
      error: null,
    });
    const run = await call('GET', `/api/executions/${ran.body.executionId}`);
    expect(run.body).toMatchObject({ status: 'succeeded', serverId, target: 'game' });

    const lines = (await consoled).lines.filter((line) => line.executionId === ran.body.executionId || line.own);
    expect(lines.map((line) => [line.level, line.text])).toEqual(
      expect.arrayContaining([
        ['output', 'hello from the simulation'],
        ['output', 'Workspace.Part'],
        ['warning', 'careful'],
      ]),
    );
    expect(lines.filter((line) => line.text === 'hello from the simulation')[0]!.executionId).toBe(
      ran.body.executionId,
    );

    // A failing script fails as on a game: its error is the run's, and an error line in the console.
    const failed = await call('POST', '/api/scripts/execute', { code: 'local x = nil\nprint(x.y)', target: 'game' });
    expect(failed.body).toMatchObject({ success: false, serverId });
    expect(failed.body.error).toMatch(/attempt to index/);
  });

  it('takes no bans: with only a simulated server live, a ban waits for a real game server', async () => {
    await playersSeenBefore(server, alice.id, [4242]);
    const banned = await call('POST', '/api/players/4242/ban', { durationSeconds: 3600, displayReason: 'Testing' });
    expect(banned.status, banned.text).toBe(200);
    expect(banned.body.state).toBe('pending');
    const bans = await server.app.database.db
      .selectFrom('gameCommands')
      .select('id')
      .where('userId', '=', alice.id)
      .where('type', '=', 'ban')
      .execute();
    expect(bans).toEqual([]);
  });

  it('is kicked from Players like any player: it leaves, and then the controls say no one is there', async () => {
    const left = nextEvent(server, 'players:changed', (event) => event.userId === alice.id);
    const kicked = await call('POST', `/api/players/${SIMULATED_PLAYER.userId}/kick`, { message: 'Bye' });
    expect(kicked.status, kicked.text).toBe(200);
    await left;
    expect((await call('GET', '/api/players/online')).body.players).toEqual([]);
    expect(await command({ type: 'heal', data: {} })).toMatchObject({
      status: 'failed',
      error: 'No player is in the game',
    });
  });

  it('stops when asked: its last ping is sent before the answer, and the route then sees it go', async () => {
    const gone = serverGone(server, alice.id, serverId);
    const stoppedEvent = nextEvent(server, 'simulator:stopped', (event) => event.userId === alice.id);
    const stopped = await call('DELETE', '/api/game/simulator');
    expect(stopped.status).toBe(200);
    expect(stopped.body).toMatchObject({ running: false, serverId, startedAt: null, endsAt: null });
    expect(stopped.body.lastStop).toMatchObject({ reason: 'stopped', error: null });
    expect((await stoppedEvent).reason).toBe('stopped');
    expect(server.app.services.simulator.runningCount()).toBe(0);
    // Disconnected once its last ping is older than the connection window, as a server that shut down.
    await gone;
    expect((await call('GET', '/api/game/status')).body.connected).toBe(false);
    // Nothing to stop: the status as it is.
    const again = await call('DELETE', '/api/game/simulator');
    expect(again.body).toMatchObject({ running: false, lastStop: { reason: 'stopped' } });
  }, 30_000);

  it('stops by itself when its time is up, and the game route then sees it disconnect', async () => {
    const bob = await registerUser(server);
    const bobServer = simulatedServerId(bob.user.id);
    const stopped = nextEvent(server, 'simulator:stopped', (event) => event.userId === bob.user.id);
    const gone = serverGone(server, bob.user.id, bobServer);
    const started = await server.app.services.simulator.start(bob.user.id, { durationMs: 300 });
    expect(Date.parse(started.endsAt!) - Date.parse(started.startedAt!)).toBe(300);
    expect((await stopped).reason).toBe('time-up');
    await gone;
    const status = await call('GET', '/api/game/simulator', undefined, bob.token);
    expect(status.body).toMatchObject({ running: false, lastStop: { reason: 'time-up' } });
    // Its player left with its last ping.
    expect((await call('GET', '/api/players/online', undefined, bob.token)).body.players).toEqual([]);
  }, 30_000);

  it('stops when the game route refuses its key (revoked), after one refused ping', async () => {
    const carol = await registerUser(server);
    await server.app.services.simulator.start(carol.user.id, { pingIntervalMs: 50, waitSeconds: 0 });
    const stopped = nextEvent(server, 'simulator:stopped', (event) => event.userId === carol.user.id);
    const keys = await call('GET', '/api/user/api-keys', undefined, carol.token);
    const integration = keys.body.items.find((key: { name: string }) => key.name === INTEGRATION_KEY_NAME);
    expect((await call('DELETE', `/api/user/api-keys/${integration.id}`, undefined, carol.token)).status).toBe(200);
    const stop = await stopped;
    expect(stop.reason).toBe('refused');
    expect(stop.error).toMatch(/revoked|Invalid API key/);
    const status = await call('GET', '/api/game/simulator', undefined, carol.token);
    expect(status.body).toMatchObject({ running: false, lastStop: { reason: 'refused' } });
  });

  it('is for signed-in sessions: an API key is refused, and no credentials are 401', async () => {
    const byKey = await call('POST', '/api/game/simulator', undefined, alice.apiKey);
    expect(byKey.status).toBe(403);
    expect(byKey.body).toEqual({ error: ERRORS.sessionRequired });
    expect((await server.call('GET', '/api/game/simulator')).status).toBe(401);
  });

  it(`runs at most ${SIMULATORS_PER_INSTANCE} on an instance: one more is a 429 saying why`, async () => {
    const simulator = server.app.services.simulator;
    const users = await Promise.all(
      Array.from({ length: SIMULATORS_PER_INSTANCE - simulator.runningCount() }, () => registerUser(server)),
    );
    const started = await Promise.all(users.map((user) => call('POST', '/api/game/simulator', undefined, user.token)));
    expect(started.map((res) => res.status)).toEqual(users.map(() => 200));
    expect(simulator.runningCount()).toBe(SIMULATORS_PER_INSTANCE);
    const extra = await registerUser(server);
    const refused = await call('POST', '/api/game/simulator', undefined, extra.token);
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({ error: SIMULATOR_ERRORS.full });
    expect(refused.headers.get('retry-after')).toBe('60');
    // Every one of them is connected and answering, each with its own id.
    const live = await Promise.all(users.map((user) => call('GET', '/api/game/status', undefined, user.token)));
    expect(live.every((res) => res.body.connected)).toBe(true);
    // One stops: room for one more.
    await call('DELETE', '/api/game/simulator', undefined, users[0]!.token);
    expect((await call('POST', '/api/game/simulator', undefined, extra.token)).status).toBe(200);
  }, 60_000);

  it('stops with its instance: a shutdown sends their last pings, and a restart runs none', async () => {
    const stopped = nextEvent(server, 'simulator:stopped', (event) => event.reason === 'shutdown');
    expect(server.app.services.simulator.runningCount()).toBeGreaterThan(0);
    await server.stop();
    expect((await stopped).reason).toBe('shutdown');
    await server.start();
    expect(server.app.services.simulator.runningCount()).toBe(0);
    expect((await call('GET', '/api/game/simulator')).body.running).toBe(false);
  }, 30_000);
});

describeOnSQLite('simulated game server and the budgets that could lock a user out', (engine) => {
  let server: TestServer;
  beforeAll(async () => {
    // A general budget of 6 a minute: the user's own calls below spend it, the pings never do.
    server = await startTestServer(engine, { RATE_LIMIT_PER_MINUTE: '6' });
  });
  afterAll(() => server?.close());

  it("its pings spend the simulated server's own ping budget, never the user's requests", async () => {
    const { token, user } = await registerUser(server);
    const started = await server.call('POST', '/api/game/simulator', { token });
    expect(started.status).toBe(200);
    expect(started.headers.get('ratelimit-remaining')).toBe('5');
    // Quick pings (no long-poll), many more than the user's budget.
    await server.app.services.simulator.stop(user.id);
    await server.app.services.simulator.start(user.id, { pingIntervalMs: 5, waitSeconds: 0 });
    expect(await server.app.services.simulator.runningFor(user.id)!.whenPinged(40)).toBeGreaterThanOrEqual(40);
    const me = await server.call('GET', '/api/user', { token });
    expect(me.status).toBe(200);
    expect(me.headers.get('ratelimit-remaining')).toBe('4');
  });
});
