import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { GAME_CONNECTED_WINDOW_MS, GAME_PING_MAX_COMMANDS } from '@moonrelay/contract/constants';
import { ERRORS } from '@moonrelay/contract/messages';
import { describeEachEngine } from '../../../test/engines.ts';
import { SimulatedGame } from '../../../test/simulated-game.ts';
import { registerUser, startTestServer, type TestServer } from '../../../test/test-server.ts';
import type { BusEvent } from '../../platform/event-bus.ts';

describeEachEngine('game link API', (engine) => {
  let server: TestServer;
  let alice: { token: string; key: string };
  let bob: { token: string; key: string };
  let serverCounter = 0;

  beforeAll(async () => {
    server = await startTestServer(engine, { RATE_LIMIT_GAME_PING_PER_MINUTE: '100000' });
    const a = await registerUser(server);
    const b = await registerUser(server);
    alice = { token: a.token, key: a.user.apiKey };
    bob = { token: b.token, key: b.user.apiKey };
  });
  afterAll(() => server.close());

  /** Each test gets its own game server id, so presence and pending commands never leak between tests. */
  const game = (key = alice.key, options: { wait?: number; serverId?: string } = {}) =>
    new SimulatedGame({
      url: server.url,
      key,
      serverId: options.serverId ?? `srv-${++serverCounter}`,
      wait: options.wait,
    });
  const send = (body: unknown, token = alice.token) => server.call('POST', '/api/game/command', { token, body });
  const status = (token = alice.token) => server.call('GET', '/api/game/status', { token });
  const commandRow = (id: string) =>
    server.app.database.db.selectFrom('gameCommands').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  /** Runs every open command of the user to completion, so the next test starts clean. */
  const drain = async (g: SimulatedGame) => {
    await g.ping();
    await g.ping();
  };

  describe('ping', () => {
    it('refuses a missing, malformed or unknown key with 401 Invalid API key', async () => {
      for (const body of [{}, { key: 'nope' }, { key: 'mr_AAAAAAAAAAAAAAAAAAAAAA000000' }]) {
        const res = await server.call('POST', '/api/game/ping', { body });
        expect(res.status).toBe(401);
        expect(res.body).toEqual({ error: ERRORS.invalidApiKey });
      }
    });

    it('answers 400 for bad player data and keeps the game disconnected', async () => {
      const res = await server.call('POST', '/api/game/ping', {
        body: { key: bob.key, serverId: 'x', playerData: { position: { x: 'far', y: 0, z: 0 } } },
      });
      expect(res.status).toBe(400);
      expect(res.body.error).toMatch(/position/);
      const res2 = await server.call('POST', '/api/game/ping', { body: { key: bob.key, serverId: 'bad id!' } });
      expect(res2.status).toBe(400);
      expect((await status(bob.token)).body.connected).toBe(false);
    });

    it('connects the game: status answers connected, last ping and player data, and lists the server', async () => {
      const g = game();
      g.position = { x: 1.5, y: 2, z: -3 };
      const res = await g.ping();
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ success: true, command: null, commands: [] });
      const s = (await status()).body;
      expect(s.connected).toBe(true);
      expect(Date.now() - Date.parse(s.lastPing)).toBeLessThan(2_000);
      expect(s.gameData).toMatchObject({ playerName: 'SimPlayer', position: { x: 1.5, y: 2, z: -3 }, health: 100 });
      expect(s.servers.map((x: { serverId: string }) => x.serverId)).toContain(g.options.serverId);
    });

    it('announces a server that stopped pinging as gone, once, and saves when it went', async () => {
      const user = await registerUser(server);
      const g = game(user.user.apiKey);
      await g.ping();
      const events: BusEvent[] = [];
      const unsubscribe = server.app.services.bus.subscribe((event) => events.push(event));
      const gone = () =>
        events
          .flatMap((event) => (event.type === 'game:servers' ? event.changes : []))
          .filter((change) => change.userId === user.user.id)
          .flatMap((change) => change.gone.map((entry) => entry.serverId));
      vi.useFakeTimers({ toFake: ['Date'] });
      try {
        vi.setSystemTime(Date.now() + GAME_CONNECTED_WINDOW_MS + 1_000);
        // Twice: the second sweep (and the app's own, every second) has nothing more to say.
        await server.app.services.gameLink.sweepDisconnected();
        await server.app.services.gameLink.sweepDisconnected();
        await expect.poll(gone).toEqual([g.options.serverId]);
        const s = (await status(user.token)).body;
        expect(s.connected).toBe(false);
        const row = await server.app.database.db
          .selectFrom('gameServers')
          .selectAll()
          .where('userId', '=', user.user.id)
          .executeTakeFirstOrThrow();
        expect(row.disconnectedAt).not.toBeNull();
        expect(Date.parse(row.disconnectedAt!)).toBeGreaterThan(Date.parse(row.lastPing));
      } finally {
        vi.useRealTimers();
        unsubscribe();
      }
      expect(gone()).toEqual([g.options.serverId]);
    });
  });

  describe('commands', () => {
    it('delivers a command in the ping answer and records its result', async () => {
      const g = game();
      await g.ping();
      g.health = 10;
      const queued = await send({ type: 'heal', serverId: g.options.serverId });
      expect(queued.status).toBe(200);
      expect(queued.body).toMatchObject({ queued: true, message: 'Command queued' });
      const first = await g.ping();
      expect(first.body).toMatchObject({ success: true, command: { id: queued.body.id, type: 'heal', data: {} } });
      expect(g.health).toBe(100);
      expect((await commandRow(queued.body.id)).status).toBe('delivered');
      await g.ping();
      const row = await commandRow(queued.body.id);
      expect(row).toMatchObject({ status: 'succeeded', attempts: 1, error: null });
      expect(row.completedAt).not.toBeNull();
    });

    it('applies teleport, speed (multiplier and explicit) and reset', async () => {
      const g = game();
      await g.ping();
      const target = { serverId: g.options.serverId };
      await send({ type: 'teleport', data: { x: 10, y: 60, z: -5 }, ...target });
      await send({ type: 'speed', data: { multiplier: 2 }, ...target });
      const res = await g.ping();
      expect(res.commands.map((c) => c.type)).toEqual(['teleport', 'speed']);
      expect(g.position).toEqual({ x: 10, y: 60, z: -5 });
      expect(g.walkSpeed).toBe(32);
      await send({ type: 'speed', data: { speed: 50 }, ...target });
      await send({ type: 'reset', ...target });
      await g.ping();
      expect(g.walkSpeed).toBe(50);
      expect(g.health).toBe(0);
    });

    it('refuses invalid command data with 400 and queues nothing', async () => {
      const g = game();
      await g.ping();
      const bad = [
        { type: 'teleport', data: { x: 1, y: 2 } },
        { type: 'teleport', data: { x: 1, y: 2, z: 'three' } },
        { type: 'speed', data: {} },
        { type: 'speed', data: { multiplier: 2, speed: 30 } },
        { type: 'speed', data: { multiplier: -1 } },
        { type: 'execute', data: { code: '   ' } },
        { type: 'script' },
        { type: 'fly', data: {} },
        { type: 'heal', data: { extra: true } },
        'heal',
      ];
      for (const body of bad) {
        const res = await send(body);
        expect(res.status, JSON.stringify(body)).toBe(400);
        expect(typeof res.body.error).toBe('string');
      }
      const syntax = await send({ type: 'execute', data: { code: 'print("x"' } });
      expect(syntax.status).toBe(400);
      expect(syntax.body.error).toMatch(/^Lua syntax error: 1:\d+: /);
      expect((await g.ping()).commands).toEqual([]);
    });

    it('answers 409 for a game server that is not connected', async () => {
      const res = await send({ type: 'heal', serverId: 'never-pinged' });
      expect(res.status).toBe(409);
      expect(res.body).toEqual({ error: 'Game server not connected' });
    });

    it('delivers at least once: a command taken by a game that crashed is delivered again after its lease', async () => {
      const g = game();
      await g.ping();
      const queued = await send({ type: 'teleport', data: { x: 1, y: 2, z: 3 }, serverId: g.options.serverId });
      const crashed = await g.ping({ run: false });
      expect(crashed.commands.map((c) => c.id)).toEqual([queued.body.id]);
      // Within the lease nobody gets it again.
      expect((await g.ping({ run: false })).commands).toEqual([]);
      // The lease runs out.
      await server.app.database.db
        .updateTable('gameCommands')
        .set({ leaseUntil: new Date(Date.now() - 1).toISOString() })
        .where('id', '=', queued.body.id)
        .execute();
      // The hint learns when the lease ends from the database (the next refresh, within 5 s).
      await server.app.services.commands.refreshHint();
      const again = await g.ping();
      expect(again.commands.map((c) => c.id)).toEqual([queued.body.id]);
      await g.ping();
      expect(await commandRow(queued.body.id)).toMatchObject({ status: 'succeeded', attempts: 2 });
    });

    it('keeps the first result: a duplicate or later result changes nothing', async () => {
      const g = game();
      await g.ping();
      const queued = await send({ type: 'execute', data: { code: 'print("first")' }, serverId: g.options.serverId });
      await g.ping();
      await g.ping();
      const before = await commandRow(queued.body.id);
      expect(before).toMatchObject({ status: 'succeeded', output: 'first\n' });
      const res = await server.call('POST', '/api/game/ping', {
        body: {
          key: alice.key,
          serverId: g.options.serverId,
          results: [{ id: queued.body.id, success: false, output: 'second', error: 'boom' }],
        },
      });
      expect(res.status).toBe(200);
      expect(await commandRow(queued.body.id)).toEqual(before);
    });

    it('records output holding NUL with U+FFFD in its place, and refuses a result id holding NUL', async () => {
      const g = game();
      await g.ping();
      const queued = await send({ type: 'execute', data: { code: 'print("a\\0b")' }, serverId: g.options.serverId });
      await g.ping();
      const reported = await g.ping();
      expect(reported.status, JSON.stringify(reported.body)).toBe(200);
      expect(await commandRow(queued.body.id)).toMatchObject({ status: 'succeeded', output: 'a\ufffdb\n' });
      const res = await server.call('POST', '/api/game/ping', {
        body: { key: alice.key, serverId: g.options.serverId, results: [{ id: 'a\u0000b', success: true }] },
      });
      expect(res.status).toBe(400);
      expect(res.body.error).toBe(`results.0.id: ${ERRORS.textHasNul}`);
    });

    it("isolates users: one user's commands never reach another user's key, nor can it answer them", async () => {
      const aliceGame = game(alice.key, { serverId: 'shared-id' });
      const bobGame = game(bob.key, { serverId: 'shared-id' });
      await aliceGame.ping();
      await bobGame.ping();
      const queued = await send({ type: 'heal', serverId: 'shared-id' });
      expect((await bobGame.ping({ run: false })).commands).toEqual([]);
      await server.call('POST', '/api/game/ping', {
        body: {
          key: bob.key,
          serverId: 'shared-id',
          results: [{ id: queued.body.id, success: true, output: 'forged' }],
        },
      });
      expect((await commandRow(queued.body.id)).status).toBe('queued');
      expect((await aliceGame.ping()).commands.map((c) => c.id)).toEqual([queued.body.id]);
      await drain(aliceGame);
      // Bob's status says nothing of Alice's servers.
      const bobStatus = (await status(bob.token)).body;
      expect(bobStatus.servers.map((s: { serverId: string }) => s.serverId)).toEqual(['shared-id']);
    });

    it(`hands out at most ${GAME_PING_MAX_COMMANDS} commands a ping, oldest first, the rest on the next pings`, async () => {
      const user = await registerUser(server);
      const g = game(user.user.apiKey);
      await g.ping();
      const ids: string[] = [];
      for (let i = 0; i < 25; i++) {
        ids.push((await send({ type: 'heal', serverId: g.options.serverId }, user.token)).body.id);
      }
      const batches: string[][] = [];
      for (let i = 0; i < 4; i++) batches.push((await g.ping()).commands.map((command) => command.id));
      expect(batches.map((batch) => batch.length)).toEqual([GAME_PING_MAX_COMMANDS, GAME_PING_MAX_COMMANDS, 5, 0]);
      expect(batches.flat()).toEqual(ids);
    });

    it('never hands one command to two pings of the same game server sent at the same moment', async () => {
      const user = await registerUser(server);
      const g = game(user.user.apiKey);
      await g.ping();
      for (let round = 0; round < 5; round++) {
        const ids: string[] = [];
        for (let i = 0; i < 12; i++) {
          ids.push((await send({ type: 'heal', serverId: g.options.serverId }, user.token)).body.id);
        }
        const [a, b, c] = await Promise.all([g.ping({ run: false }), g.ping({ run: false }), g.ping({ run: false })]);
        const taken = [...a.commands, ...b.commands, ...c.commands].map((command) => command.id);
        expect(taken.length).toBe(new Set(taken).size);
        expect(taken.every((id) => ids.includes(id))).toBe(true);
        // Whatever the race left behind comes with the next ping, and nothing twice.
        const rest = (await g.ping({ run: false })).commands.map((command) => command.id);
        expect([...taken, ...rest].sort()).toEqual([...ids].sort());
      }
    });

    it('targets one game server, or every live one when no serverId is given', async () => {
      const user = await registerUser(server);
      const one = game(user.user.apiKey, { serverId: 'one' });
      const two = game(user.user.apiKey, { serverId: 'two' });
      await one.ping();
      await two.ping();
      expect((await status(user.token)).body.servers).toHaveLength(2);
      // Without serverId: one broadcast for both live servers.
      const all = await send({ type: 'heal' }, user.token);
      expect(all.body).toMatchObject({ ids: [all.body.id], servers: 2 });
      const onlyTwo = await send({ type: 'reset', serverId: 'two' }, user.token);
      expect(onlyTwo.body.ids).toEqual([onlyTwo.body.id]);
      expect((await one.ping()).commands.map((c) => c.type)).toEqual(['heal']);
      expect((await two.ping()).commands.map((c) => c.type)).toEqual(['heal', 'reset']);
    });

    it('keeps a command sent while no game is connected for the first server that pings', async () => {
      const user = await registerUser(server);
      const queued = await send({ type: 'heal' }, user.token);
      expect(queued.status).toBe(200);
      const g = game(user.user.apiKey, { serverId: 'late' });
      const res = await g.ping();
      expect(res.commands.map((c) => c.id)).toEqual([queued.body.id]);
      expect((await commandRow(queued.body.id)).serverId).toBe('late');
    });

    it('expires a command never delivered within its time, and fails one never answered', async () => {
      const user = await registerUser(server);
      const undelivered = await send({ type: 'heal' }, user.token);
      const g = game(user.user.apiKey);
      await g.ping();
      const unanswered = await send({ type: 'reset', serverId: g.options.serverId }, user.token);
      await g.ping({ run: false });
      await server.app.database.db
        .updateTable('gameCommands')
        .set({ expiresAt: new Date(Date.now() - 1).toISOString() })
        .where('id', 'in', [undelivered.body.id, unanswered.body.id])
        .execute();
      // The first was taken by the ping above; put it back to "queued, never delivered".
      await server.app.database.db
        .updateTable('gameCommands')
        .set({ status: 'queued', leaseUntil: null, deliveredAt: null })
        .where('id', '=', undelivered.body.id)
        .execute();
      await server.app.services.commands.sweep();
      expect((await commandRow(undelivered.body.id)).status).toBe('expired');
      expect(await commandRow(unanswered.body.id)).toMatchObject({
        status: 'failed',
        error: 'No result from the game',
      });
      expect((await g.ping()).commands).toEqual([]);
    });
  });

  describe('the open-commands hint', () => {
    it('asks the database nothing for a user with no open command, and finds one queued elsewhere after a refresh', async () => {
      const user = await registerUser(server);
      const g = game(user.user.apiKey);
      await server.app.services.commands.refreshHint();
      await g.ping();
      // A command written by another process (no event reached this one) ...
      const queued = await send({ type: 'heal', serverId: g.options.serverId }, user.token);
      const row = await commandRow(queued.body.id);
      await server.app.database.db.deleteFrom('gameCommands').where('id', '=', row.id).execute();
      expect((await g.ping()).commands).toEqual([]); // settles the hint: nothing open
      await server.app.database.db
        .insertInto('gameCommands')
        .values({ ...row, id: 'written-elsewhere' })
        .execute();
      // ... is not seen while the hint says "nothing open" ...
      expect((await g.ping()).commands).toEqual([]);
      // ... and is delivered once the periodic refresh reads the database.
      await server.app.services.commands.refreshHint();
      expect((await g.ping()).commands.map((c) => c.id)).toEqual(['written-elsewhere']);
    });

    it("keeps the hint per game server: a command for one of a user's servers sends only that server's pings to the database", async () => {
      const user = await registerUser(server);
      const a = game(user.user.apiKey, { serverId: 'hint-a' });
      const b = game(user.user.apiKey, { serverId: 'hint-b' });
      await Promise.all([a.ping(), b.ping()]);
      await server.app.services.commands.refreshHint();
      const queued = await send({ type: 'heal', serverId: 'hint-a' }, user.token);
      expect(queued.status, queued.text).toBe(200);
      // A command for B written by another process (no event reached this one) ...
      const row = await commandRow(queued.body.id);
      await server.app.database.db
        .insertInto('gameCommands')
        .values({ ...row, id: 'for-b-elsewhere', serverId: 'hint-b' })
        .execute();
      // ... is not looked for on B's pings: only A was marked ...
      expect((await b.ping()).commands).toEqual([]);
      expect((await a.ping()).commands.map((c) => c.id)).toEqual([queued.body.id]);
      // ... until the periodic refresh reads the database.
      await server.app.services.commands.refreshHint();
      expect((await b.ping()).commands.map((c) => c.id)).toEqual(['for-b-elsewhere']);
    });
  });

  describe('long-poll', () => {
    it('holds a ping with wait until a command arrives, then answers at once', async () => {
      const g = game();
      await g.ping();
      const started = Date.now();
      const held = g.ping({ wait: 10 });
      await new Promise((resolve) => setTimeout(resolve, 200));
      const queued = await send({ type: 'heal', serverId: g.options.serverId });
      const res = await held;
      expect(res.commands.map((c) => c.id)).toEqual([queued.body.id]);
      expect(Date.now() - started).toBeLessThan(5_000);
      await g.ping();
    });

    it('answers an empty list when the wait passes without a command', async () => {
      const g = game();
      const started = Date.now();
      const res = await g.ping({ wait: 0.3 });
      expect(res.body).toEqual({ success: true, command: null, commands: [] });
      expect(Date.now() - started).toBeGreaterThanOrEqual(290);
    });

    it('refuses a wait over 20 seconds', async () => {
      const res = await server.call('POST', '/api/game/ping', { body: { key: alice.key, wait: 21 } });
      expect(res.status).toBe(400);
    });
  });

  describe('execution on the game', () => {
    it('runs code on the connected game and answers its output within the wait', async () => {
      const g = game(alice.key, { wait: 5 });
      await g.ping({ wait: 0 });
      g.start();
      try {
        const res = await server.call('POST', '/api/scripts/execute', {
          token: alice.token,
          body: { code: 'print("hello from the game")', serverId: g.options.serverId },
        });
        expect(res.status).toBe(200);
        expect(res.body).toMatchObject({
          queued: true,
          gameConnected: true,
          success: true,
          output: 'hello from the game\n',
          error: null,
          target: 'game',
          serverId: g.options.serverId,
        });
        expect(res.body.pending).toBeUndefined();
        const row = await server.app.database.db
          .selectFrom('executions')
          .selectAll()
          .where('id', '=', res.body.executionId)
          .executeTakeFirstOrThrow();
        expect(row).toMatchObject({ status: 'succeeded', output: 'hello from the game\n', target: 'game' });
      } finally {
        await g.stop();
      }
    });

    // A result not back within the wait (answered queued): queued-runs.api.test.ts.

    it('answers the not-connected shape when no game is connected', async () => {
      const user = await registerUser(server);
      const res = await server.call('POST', '/api/scripts/execute', { token: user.token, body: { code: 'print(1)' } });
      expect(res.body).toMatchObject({ queued: false, gameConnected: false, error: ERRORS.gameNotConnected });
    });
  });

  describe('loader and integration scripts', () => {
    it('serves the integration script for a key as text/plain, and 401 for a bad key', async () => {
      const res = await server.call('GET', `/api/game/loader?key=${encodeURIComponent(alice.key)}`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
      expect(res.text).toContain(alice.key);
      expect(res.text).toContain(server.url);
      for (const query of ['', '?key=', '?key=mr_nothing', '?key=a&key=b']) {
        const bad = await server.call('GET', `/api/game/loader${query}`);
        expect(bad.status, query).toBe(401);
        expect(bad.body).toEqual({ error: ERRORS.invalidApiKey });
      }
    });

    it('answers the three integration scripts for the signed-in user', async () => {
      const res = await server.call('GET', '/api/game/integration-scripts', { token: alice.token });
      expect(res.status).toBe(200);
      expect(res.body.quickLoader).toContain(`${server.url}/api/game/loader?key=`);
      // They carry the user's game key (scope `game` alone), never the personal key.
      expect(res.body.gameIntegration).not.toContain(alice.key);
      const gameKey = /key=(mr_\w+)/.exec(res.body.quickLoader)![1]!;
      expect(res.body.gameIntegration).toContain(gameKey);
      expect(res.body.teleportExample.length).toBeGreaterThan(0);
      expect((await server.call('GET', '/api/game/integration-scripts')).status).toBe(401);
    });
  });
});

describe('game ping rate limit', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(
      {
        name: 'SQLite',
        create: async (dir) => ({ config: { kind: 'sqlite', file: `${dir}/m.db` }, drop: async () => {} }),
      },
      { RATE_LIMIT_PER_MINUTE: '10', RATE_LIMIT_GAME_PING_PER_MINUTE: '40' },
    );
  });
  afterAll(() => server.close());

  it("spends the game server's own budget: 30 pings leave the user's 10-a-minute budget untouched", async () => {
    const user = await registerUser(server);
    const g = new SimulatedGame({ url: server.url, key: user.user.apiKey, serverId: 'busy' });
    for (let i = 0; i < 30; i += 1) expect((await g.ping()).status).toBe(200);
    const scripts = await server.call('GET', '/api/scripts', { token: user.user.apiKey });
    expect(scripts.status).toBe(200);
    expect(scripts.headers.get('ratelimit-remaining')).toBe('9');
  });

  it('limits each game server separately, with 429 and Retry-After past its budget', async () => {
    const user = await registerUser(server);
    const g = new SimulatedGame({ url: server.url, key: user.user.apiKey, serverId: 'flood' });
    for (let i = 0; i < 40; i += 1) expect((await g.ping()).status).toBe(200);
    const over = await g.ping();
    expect(over.status).toBe(429);
    const other = new SimulatedGame({ url: server.url, key: user.user.apiKey, serverId: 'calm' });
    expect((await other.ping()).status).toBe(200);
  });
});
