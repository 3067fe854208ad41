import { Queue } from 'bullmq';
import pg from 'pg';
import { io as connect, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConsoleLine, ConsoleLinesEvent } from '@moonrelay/contract/console';
import { SOCKET_PATH, type GameServersEvent, type MassProgressEvent } from '@moonrelay/contract/events';
import { ERRORS } from '@moonrelay/contract/messages';
import { engines } from '../test/engines.ts';
import { callInstance, startInstance, startRedis, type Instance } from '../test/instances.ts';
import { SimulatedGame } from '../test/simulated-game.ts';

const postgres = engines.find((engine) => engine.name === 'PostgreSQL');

/**
 * The scale-out mode for real: two server instances and a worker process over one PostgreSQL
 * database and a private Redis (its own port, so the test can stop and restart it).
 */
describe.skipIf(!postgres)('scale-out: two instances and a worker over PostgreSQL and Redis', () => {
  let redis: Awaited<ReturnType<typeof startRedis>>;
  let database: { config: { kind: string; url?: string }; drop(): Promise<void> };
  let a: Instance;
  let b: Instance;
  let worker: Instance;
  const sockets: Socket[] = [];
  let env: Record<string, string>;

  beforeAll(async () => {
    redis = await startRedis();
    database = await postgres!.create('');
    env = {
      DATABASE_URL: (database.config as { url: string }).url,
      REDIS_URL: redis.url,
      APP_SECRET: 'scale-out-test-secret-0123456789abcdef',
      RATE_LIMIT_PER_MINUTE: '100000',
      REGISTRATIONS_PER_IP_PER_HOUR: '100000',
      RATE_LIMIT_EXECUTION_PER_MINUTE: '8',
      RATE_LIMIT_GAME_PING_PER_MINUTE: '100000',
      METRICS_TOKEN: 'metrics-token-0123456789',
      ADMIN_EMAILS: 'scale-admin@example.com',
      // A killed worker's jobs run again after about 20 s instead of a minute or more.
      JOB_STALLED_AFTER_SECONDS: '10',
      // The ready line (with the port) is an info line.
      LOG_LEVEL: 'info',
    };
    // One instance first, so the migrations run once before the others start.
    a = await startInstance('server', env);
    [b, worker] = await Promise.all([startInstance('server', env), startInstance('worker', env)]);
  }, 90_000);

  afterAll(async () => {
    for (const socket of sockets) socket.disconnect();
    for (const instance of [a, b, worker]) await instance?.crash().catch(() => undefined);
    await database?.drop();
    await redis?.stop();
  }, 30_000);

  let counter = 0;
  const register = async (instance: Instance) => {
    counter += 1;
    const res = await callInstance(instance, 'POST', '/api/auth/register', undefined, {
      email: `scale${counter}${Date.now()}@example.com`,
      username: `scale${counter}_${Date.now() % 100000}`,
      name: `Scale ${counter}`,
      password: 'correct horse battery',
    });
    expect(res.status, res.text).toBe(200);
    return res.body as { token: string; user: { id: string; apiKey: string } };
  };
  const socketOn = (instance: Instance, token: string) => {
    const socket = connect(instance.url, { path: SOCKET_PATH, auth: { token }, transports: ['websocket'] });
    sockets.push(socket);
    return new Promise<Socket>((resolve, reject) => {
      socket.once('connect', () => resolve(socket));
      socket.once('connect_error', reject);
    });
  };
  const eventually = async (check: () => Promise<boolean>, timeoutMs: number, what: string) => {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      if (await check()) return;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`${what} did not happen within ${timeoutMs} ms`);
  };

  it('a game pinging instance A is connected for a dashboard on instance B, pushed over its socket once', async () => {
    const user = await register(a);
    const socket = await socketOn(b, user.token);
    const statuses: GameServersEvent[] = [];
    socket.on('game:servers', (event: GameServersEvent) => statuses.push(event));
    const game = new SimulatedGame({ url: a.url, key: user.user.apiKey, serverId: 'on-a' });
    expect((await game.ping()).status).toBe(200);
    await eventually(async () => statuses.length > 0, 3_000, 'the game:servers event');
    expect(statuses[0]!.changes).toMatchObject([
      { userId: user.user.id, servers: [{ serverId: 'on-a', connected: true }] },
    ]);
    const status = await callInstance(b, 'GET', '/api/game/status', user.token);
    expect(status.body).toMatchObject({ connected: true, servers: [{ serverId: 'on-a' }] });
    // Each instance emits bus events to its own sockets only: one event, not one per instance.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(statuses).toHaveLength(1);
  });

  it("one user's servers spread over both instances reach a dashboard as coalesced changes", async () => {
    const SERVERS = 200;
    const user = await register(a);
    const socket = await socketOn(b, user.token);
    const seen = new Set<string>();
    let events = 0;
    const all = new Promise<void>((resolve) =>
      socket.on('game:servers', (event: GameServersEvent) => {
        events += 1;
        for (const change of event.changes) {
          expect(change.userId).toBe(user.user.id);
          for (const server of change.servers) seen.add(server.serverId);
        }
        if (seen.size === SERVERS) resolve();
      }),
    );
    const games = Array.from(
      { length: SERVERS },
      (_, i) => new SimulatedGame({ url: (i % 2 ? a : b).url, key: user.user.apiKey, serverId: `spread-${i}` }),
    );
    // Connects a busy instance sheds come again after their Retry-After, as the game script does.
    const pings = await Promise.all(games.map((game) => game.connect()));
    expect(pings.map((ping) => ping.status).filter((status) => status !== 200)).toEqual([]);
    await all;
    // Two instances' pings, merged per user: a handful of events for 200 connects, not one per ping.
    expect(events).toBeLessThan(SERVERS / 10);
    for (const instance of [a, b]) {
      const status = await callInstance(instance, 'GET', '/api/game/status', user.token);
      expect(status.body.servers).toHaveLength(SERVERS);
    }
    // A command for a server that pings the other instance gets there.
    const queued = await callInstance(a, 'POST', '/api/game/command', user.token, {
      type: 'heal',
      serverId: 'spread-0',
    });
    expect(queued.status, queued.text).toBe(200);
    expect((await games[0]!.ping()).commands.map((c) => c.id)).toEqual([queued.body.id]);
  }, 30_000);

  it("console lines of one user's servers on both instances reach that user's dashboard on B, in order, and no one else's", async () => {
    const user = await register(a);
    const other = await register(b);
    const socket = await socketOn(b, user.token);
    const otherSocket = await socketOn(a, other.token);
    const time = Date.now();
    // Each server connects first as the game script does: an instance still busy after the last
    // test's connect storm sheds a new server with 503 and Retry-After.
    const ping = async (instance: Instance, key: string, serverId: string, texts: string[]) => {
      await new SimulatedGame({ url: instance.url, key, serverId }).connect();
      return callInstance(instance, 'POST', '/api/game/ping', undefined, {
        key,
        serverId,
        console: { lines: texts.map((text, i) => ({ time: time + i, level: 'output', text })) },
      });
    };
    const received: ConsoleLine[] = [];
    const all = new Promise<void>((resolve) =>
      socket.on('console:lines', (event: ConsoleLinesEvent) => {
        expect(event.userId).toBe(user.user.id);
        const ids = event.lines.map((line) => Number(line.id));
        expect(ids).toEqual([...ids].sort((x, y) => x - y));
        received.push(...event.lines);
        if (received.length >= 4) resolve();
      }),
    );
    const seenByOther: ConsoleLinesEvent[] = [];
    otherSocket.on('console:lines', (event: ConsoleLinesEvent) => seenByOther.push(event));
    expect((await ping(a, user.user.apiKey, 'console-a', ['a1', 'a2'])).status).toBe(200);
    expect((await ping(b, user.user.apiKey, 'console-b', ['b1', 'b2'])).status).toBe(200);
    await all;
    expect(received.map((line) => `${line.serverId} ${line.text}`).sort()).toEqual([
      'console-a a1',
      'console-a a2',
      'console-b b1',
      'console-b b2',
    ]);
    // Stored in the one database, so either instance answers them all (A's share within its write interval).
    await eventually(
      async () => (await callInstance(b, 'GET', '/api/game/console', user.token)).body.lines.length === 4,
      3_000,
      'all four lines in the API on B',
    );
    // The other user's screen (on A) got nothing of it: its first event is its own line.
    const own = new Promise<void>((resolve) => otherSocket.once('console:lines', () => resolve()));
    expect((await ping(b, other.user.apiKey, 'console-other', ['mine'])).status).toBe(200);
    await own;
    expect(seenByOther.flatMap((event) => event.lines.map((line) => line.text))).toEqual(['mine']);
    expect(
      (await callInstance(a, 'GET', '/api/game/console', other.token)).body.lines.map((l: ConsoleLine) => l.text),
    ).toEqual(['mine']);
  });

  it('a command posted on B reaches the game on A, and a long-poll held by A wakes at once', async () => {
    const user = await register(a);
    const game = new SimulatedGame({ url: a.url, key: user.user.apiKey, serverId: 'poll-a' });
    expect((await game.connect()).status).toBe(200);
    const held = game.ping({ wait: 10 });
    await new Promise((resolve) => setTimeout(resolve, 300));
    const sentAt = Date.now();
    const queued = await callInstance(b, 'POST', '/api/game/command', user.token, { type: 'heal' });
    expect(queued.status).toBe(200);
    const taken = await held;
    // A broadcast to the user's one live server: the game gets that server's copy of it.
    expect(queued.body.servers).toBe(1);
    expect(taken.commands.map((c) => c.type)).toEqual(['heal']);
    expect(Date.now() - sentAt).toBeLessThan(2_000);
  });

  it('runs a sandbox run posted on A in the worker process', async () => {
    const user = await register(a);
    const res = await callInstance(a, 'POST', '/api/scripts/execute', user.token, {
      code: 'print("ran in a worker", 6 * 7)',
      target: 'sandbox',
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ success: true, output: 'ran in a worker 42\n', target: 'sandbox' });
  });

  it('fans a mass command out through the job queue to the worker process, onto games on both instances', async () => {
    const admin = await callInstance(a, 'POST', '/api/auth/register', undefined, {
      email: 'scale-admin@example.com',
      username: 'scale_admin',
      name: 'Scale Admin',
      password: 'correct horse battery',
    });
    expect(admin.body.user.isAdmin).toBe(true);
    const socket = await socketOn(b, admin.body.token);
    const progress: MassProgressEvent['progress'][] = [];
    socket.on('mass:progress', (event: MassProgressEvent) => progress.push(event.progress));

    const [onA, onB, without] = [await register(a), await register(b), await register(a)];
    const games = [
      new SimulatedGame({ url: a.url, key: onA.user.apiKey, serverId: 'mass-a', wait: 5 }),
      new SimulatedGame({ url: b.url, key: onB.user.apiKey, serverId: 'mass-b', wait: 5 }),
    ];
    for (const game of games) {
      game.health = 5;
      await game.ping({ wait: 0 });
      game.start();
    }
    try {
      // Only the worker process takes jobs: server instances enqueue.
      const res = await callInstance(a, 'POST', '/api/admin/mass-execution', admin.body.token, {
        userIds: [onA.user.id, onB.user.id, without.user.id],
        command: { type: 'heal' },
      });
      expect(res.status, res.text).toBe(200);
      const finalOf = (userId: string) => progress.filter((entry) => entry.userId === userId).at(-1)?.status;
      const settled = ['succeeded', 'failed', 'not_connected', 'expired'];
      await eventually(
        async () => [onA, onB, without].every((user) => settled.includes(finalOf(user.user.id) ?? '')),
        20_000,
        'every part of the mass command settling',
      );
      expect([onA, onB, without].map((user) => finalOf(user.user.id))).toEqual([
        'succeeded',
        'succeeded',
        'not_connected',
      ]);
      expect(games.map((game) => game.health)).toEqual([100, 100]);
      expect(progress.every((entry) => entry.batchId === res.body.batchId)).toBe(true);
    } finally {
      for (const game of games) await game.stop();
    }
  });

  it('a worker killed mid-batch: every part still reaches its end, shown from the database, and no part runs twice', async () => {
    // The admin of the mass command test above, registered here when this test runs alone.
    let login = await callInstance(a, 'POST', '/api/auth/login', undefined, {
      emailOrUsername: 'scale_admin',
      password: 'correct horse battery',
    });
    if (login.status === 401) {
      login = await callInstance(a, 'POST', '/api/auth/register', undefined, {
        email: 'scale-admin@example.com',
        username: 'scale_admin',
        name: 'Scale Admin',
        password: 'correct horse battery',
      });
    }
    expect(login.status, login.text).toBe(200);
    const users = await Promise.all(Array.from({ length: 6 }, (_, i) => register(i % 2 ? a : b)));
    const games = users.map(
      (user, i) =>
        new SimulatedGame({ url: (i % 2 ? b : a).url, key: user.user.apiKey, serverId: `kill-${i}`, wait: 5 }),
    );
    // Connected, but not taking commands yet: every job is waiting for its game's result when the worker dies.
    for (const game of games) await game.ping({ wait: 0 });
    const userIds = users.map((user) => user.user.id);
    const db = new pg.Client({ connectionString: env.DATABASE_URL });
    await db.connect();
    const queue = new Queue('moonrelay-jobs', { connection: { url: redis.url } });
    try {
      const res = await callInstance(a, 'POST', '/api/admin/mass-execution', login.body.token, {
        userIds,
        code: 'print("ran once")',
      });
      expect(res.status, res.text).toBe(200);
      const parts = async (instance: Instance) => {
        const answer = await callInstance(
          instance,
          'GET',
          `/api/admin/mass-executions/${res.body.batchId}`,
          login.body.token,
        );
        expect(answer.status, answer.text).toBe(200);
        return answer.body.items as { userId: string; status: string; output: string | null }[];
      };
      await eventually(
        async () => (await parts(a)).every((part) => part.status === 'sent'),
        10_000,
        "every part's run queued by the worker",
      );
      await worker.crash();
      worker = await startInstance('worker', env);
      for (const game of games) game.start();
      await eventually(
        async () => (await parts(b)).every((part) => part.status === 'succeeded'),
        20_000,
        'every part succeeding after the worker died',
      );
      const final = (await parts(a)).map((part) => [part.userId, part.status, part.output]);
      expect(final.sort()).toEqual(userIds.map((userId) => [userId, 'succeeded', 'ran once\n']).sort());
      // The queue runs the dead worker's jobs again once their locks run out; each finds its part taken.
      // BullMQ moves a job only at a stalled check (every JOB_STALLED_AFTER_SECONDS, 10 s here) that
      // finds it unlocked after the last check saw it active: up to its lock plus two checks after the kill.
      await eventually(
        async () => {
          const counts = await queue.getJobCounts('active', 'waiting', 'delayed', 'prioritized');
          return Object.values(counts).every((count) => count === 0);
        },
        60_000,
        "the dead worker's jobs run again",
      );
      const jobs = (await queue.getJobs(['completed'])).filter((job) => job.data.batchId === res.body.batchId);
      // Each job ran twice: on the worker that died, and again (stalled) on the new one.
      expect(jobs.map((job) => [job.stalledCounter, job.attemptsStarted])).toEqual(userIds.map(() => [1, 2]));
      const commands = await db.query<{ user_id: string; count: string }>(
        'SELECT user_id, count(*) AS count FROM game_commands WHERE user_id = ANY($1) GROUP BY user_id',
        [userIds],
      );
      expect(commands.rows.map((row) => Number(row.count))).toEqual(userIds.map(() => 1));
      const runs = await db.query('SELECT id FROM executions WHERE user_id = ANY($1)', [userIds]);
      expect(runs.rowCount).toBe(userIds.length);
      expect(games.map((game) => game.ran.size)).toEqual(userIds.map(() => 1));
    } finally {
      for (const game of games) await game.stop();
      await queue.close();
      await db.end();
    }
  }, 240_000);

  it('runs a dry run posted on A in the worker process, with its summary', async () => {
    const user = await register(a);
    const res = await callInstance(a, 'POST', '/api/scripts/execute', user.token, {
      code: 'Instance.new("Part", workspace)\ntask.wait(1)\nprint("dry run in a worker", os.clock())',
      target: 'dry-run',
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({
      success: true,
      output: 'dry run in a worker 1\n',
      target: 'dry-run',
      dryRun: { created: [{ className: 'Part', count: 1 }], gameSeconds: 1, endedBy: 'idle' },
    });
  });

  it("players of one user's games on both instances are one list; a ban posted on B goes to the game on A, once", async () => {
    const user = await register(a);
    const roster = async (instance: Instance, serverId: string, ids: number[]) => {
      // Connected first, as the game script does (a busy instance sheds a new server with 503).
      await new SimulatedGame({ url: instance.url, key: user.user.apiKey, serverId }).connect();
      return callInstance(instance, 'POST', '/api/game/ping', undefined, {
        key: user.user.apiKey,
        serverId,
        roster: {
          count: ids.length,
          players: ids.map((id) => ({ userId: id, name: `Spread${id}`, displayName: `S${id}` })),
        },
      });
    };
    expect((await roster(a, 'roster-a', [801, 802])).status).toBe(200);
    expect((await roster(b, 'roster-b', [803])).status).toBe(200);
    for (const instance of [a, b]) {
      const online = await callInstance(instance, 'GET', '/api/players/online', user.token);
      expect(online.status, online.text).toBe(200);
      expect((online.body.players as { userId: number }[]).map((p) => p.userId).sort()).toEqual([801, 802, 803]);
    }

    // The player is on B's server; the ban goes to whichever server of the game pings first: here A's.
    const game = new SimulatedGame({ url: a.url, key: user.user.apiKey, serverId: 'roster-a' });
    const banned = await callInstance(b, 'POST', '/api/players/803/ban', user.token, {
      durationSeconds: -1,
      displayReason: 'Exploiting',
    });
    expect(banned.status, banned.text).toBe(200);
    expect(banned.body).toMatchObject({ path: 'game', state: 'pending' });
    const stateOnB = async () =>
      (await callInstance(b, 'GET', '/api/players/803/moderation', user.token)).body.actions[0].state as string;
    await eventually(
      async () => {
        await game.ping();
        return (await stateOnB()) !== 'pending';
      },
      20_000,
      'the ban reported by the game on A',
    );
    expect(await stateOnB()).toBe('applied');
    await game.ping();
    expect(game.banCalls).toEqual([[803]]);
  });

  it('shares the rate limit across instances', async () => {
    const user = await register(a);
    const statuses: number[] = [];
    for (let i = 0; i < 10; i += 1) {
      const instance = i % 2 === 0 ? a : b;
      const res = await callInstance(instance, 'POST', '/api/scripts/execute', user.token, {
        code: 'print(1)',
        target: 'game',
      });
      statuses.push(res.status);
    }
    // 8 a minute for this session, wherever the calls land.
    expect(statuses.filter((s) => s === 200)).toHaveLength(8);
    expect(statuses.slice(8)).toEqual([429, 429]);
  });

  it('reports health and metrics', async () => {
    const health = await callInstance(b, 'GET', '/api/health');
    expect(health.body).toMatchObject({ status: 'ok', mode: 'scale-out', database: 'ok', redis: 'ok' });
    const ready = await callInstance(b, 'GET', '/api/health/ready');
    expect(ready.status).toBe(200);
    expect(ready.body).toMatchObject({ status: 'ok', redis: 'ok', workers: { status: 'ok', count: 1 } });
    expect((await callInstance(b, 'GET', '/metrics')).status).toBe(401);
    const metrics = await fetch(`${b.url}/metrics`, { headers: { authorization: 'Bearer metrics-token-0123456789' } });
    const text = await metrics.text();
    expect(metrics.status).toBe(200);
    expect(text).toMatch(/^moonrelay_http_requests_total\{status="2xx"\} \d+$/m);
    expect(text).toMatch(/^moonrelay_game_servers_connected \d+$/m);
  });

  it('survives Redis restarting: requests answer 503 with Retry-After meanwhile, never 500, then everything works again', async () => {
    const user = await register(a);
    const live = new SimulatedGame({ url: a.url, key: user.user.apiKey, serverId: 'before-restart' });
    expect((await live.ping()).status).toBe(200);
    await redis.stop();
    const during = await callInstance(b, 'GET', '/api/health');
    expect(during.body.redis).toBe('error');
    // Out of rotation while Redis is away, answered at once rather than after the clients' retries.
    const notReady = await callInstance(b, 'GET', '/api/health/ready');
    expect(notReady.status).toBe(503);
    expect(notReady.body).toMatchObject({ status: 'degraded', redis: 'error', workers: { status: 'error' } });
    // What games and users meet meanwhile: a clear, retryable refusal.
    const ping = await live.ping();
    expect(ping).toMatchObject({ status: 503, body: { error: ERRORS.serviceUnavailable } });
    const command = await callInstance(b, 'POST', '/api/game/command', user.token, { type: 'heal' });
    expect(command).toMatchObject({ status: 503, body: { error: ERRORS.serviceUnavailable } });
    expect(command.headers.get('retry-after')).toBe('1');
    redis = await startRedis(redis.port);
    await eventually(
      async () => (await callInstance(b, 'GET', '/api/health')).body.redis === 'ok',
      15_000,
      'B reconnecting',
    );
    await eventually(
      async () => (await callInstance(a, 'GET', '/api/health')).body.redis === 'ok',
      15_000,
      'A reconnecting',
    );
    const socket = await socketOn(b, user.token);
    const seen = new Promise((resolve) => socket.once('game:servers', resolve));
    const game = new SimulatedGame({ url: a.url, key: user.user.apiKey, serverId: 'after-restart' });
    await eventually(async () => (await game.ping()).status === 200, 10_000, 'a ping after the restart');
    await seen;
    const queued = await callInstance(b, 'POST', '/api/game/command', user.token, { type: 'reset' });
    expect(queued.status).toBe(200);
    // A broadcast to the live servers: the game gets its copy.
    await eventually(async () => (await game.ping()).commands.some((c) => c.type === 'reset'), 5_000, 'delivery');
  }, 60_000);

  it('a game whose ping is held across a Redis restart stays connected: a command to it is taken by that held ping', async () => {
    const user = await register(a);
    const holder = new SimulatedGame({ url: a.url, key: user.user.apiKey, serverId: 'held-across-restart' });
    expect((await holder.ping()).status).toBe(200);
    const heldOnA = async () => {
      const metrics = await fetch(`${a.url}/metrics`, {
        headers: { authorization: 'Bearer metrics-token-0123456789' },
      });
      return /^moonrelay_long_polls_held 1$/m.test(await metrics.text());
    };
    // Held on A for up to 20 s: no other ping of this server comes while Redis restarts.
    const holding = holder.ping({ wait: 20, run: false });
    await eventually(heldOnA, 10_000, 'the ping held on A');
    await redis.stop();
    redis = await startRedis(redis.port);
    // Redis came back empty; A puts the server it holds a ping of back into presence.
    const listed = async () =>
      (await callInstance(b, 'GET', '/api/game/status', user.token)).body.servers?.some(
        (server: { serverId: string; connected: boolean }) =>
          server.serverId === 'held-across-restart' && server.connected,
      ) === true;
    await eventually(listed, 10_000, 'the held server known again');
    const queued = await callInstance(b, 'POST', '/api/game/command', user.token, {
      type: 'heal',
      serverId: 'held-across-restart',
    });
    expect(queued.status, queued.text).toBe(200);
    const answer = await holding;
    expect(answer.status).toBe(200);
    expect(answer.commands.map((command) => command.id)).toEqual([queued.body.id]);
  }, 60_000);

  it('loses no acknowledged command when instance A is killed under traffic; B keeps serving', async () => {
    const user = await register(b);
    const acknowledged: string[] = [];
    let failures = 0;
    const send = async (instance: Instance) => {
      try {
        const res = await callInstance(instance, 'POST', '/api/game/command', user.token, { type: 'heal' });
        if (res.status === 200) acknowledged.push(res.body.id);
        else failures += 1;
      } catch {
        failures += 1; // the connection to the killed instance broke: not acknowledged
      }
    };
    let crashed = false;
    const traffic = (async () => {
      // Until well after the crash: 150 more rounds once A is gone.
      for (let after = 0; after < 150; after += crashed ? 1 : 0) await Promise.all([send(a), send(b)]);
    })();
    await eventually(async () => acknowledged.length >= 100, 20_000, '100 acknowledged commands');
    await a.crash();
    crashed = true;
    await traffic;
    expect(failures).toBeGreaterThan(0);
    expect((await callInstance(b, 'GET', '/api/health')).status).toBe(200);
    // Every acknowledged command is in the database, queued for the user's next game.
    const game = new SimulatedGame({ url: b.url, key: user.user.apiKey, serverId: 'collector' });
    const received = new Set<string>();
    // Until a ping finds nothing left (commands committed but never answered by A come along too).
    for (let i = 0; i < 500; i += 1) {
      const { commands } = await game.ping();
      if (commands.length === 0) break;
      for (const command of commands) received.add(command.id);
    }
    expect(acknowledged.length).toBeGreaterThan(100);
    expect(acknowledged.filter((id) => !received.has(id))).toEqual([]);
  }, 90_000);
});
