import { io as connect, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SOCKET_PATH, type GameServersEvent } from '@moonrelay/contract/events';
import { SIMULATED_PLAYER } from '@moonrelay/contract/simulator';
import { engines } from '../../../test/engines.ts';
import { callInstance, startInstance, startRedis, type Instance } from '../../../test/instances.ts';

const postgres = engines.find((engine) => engine.name === 'PostgreSQL');

/**
 * The simulated game server in the scale-out mode: it runs in the instance that started it, pinging
 * that instance; the others see it through the shared presence, answer a second press with it, and
 * stop it over the bus. When its instance stops, it stops with it.
 */
describe.skipIf(!postgres)('simulated game server across two instances', () => {
  let redis: Awaited<ReturnType<typeof startRedis>>;
  let database: { config: { kind: string; url?: string }; drop(): Promise<void> };
  let a: Instance;
  let b: Instance;
  let worker: Instance;
  const sockets: Socket[] = [];

  beforeAll(async () => {
    redis = await startRedis();
    database = await postgres!.create('');
    const env = {
      DATABASE_URL: (database.config as { url: string }).url,
      REDIS_URL: redis.url,
      APP_SECRET: 'simulator-scale-out-secret-0123456789',
      RATE_LIMIT_PER_MINUTE: '100000',
      REGISTRATIONS_PER_IP_PER_HOUR: '100000',
      LOG_LEVEL: 'info',
    };
    a = await startInstance('server', env);
    [b, worker] = await Promise.all([startInstance('server', env), startInstance('worker', env)]);
  }, 90_000);

  afterAll(async () => {
    for (const socket of sockets) socket.disconnect();
    for (const instance of [a, b, worker]) await instance?.crash().catch(() => undefined);
    await database?.drop();
    await redis?.stop();
  }, 30_000);

  let user: { token: string; user: { id: string } };
  const call = (instance: Instance, method: string, path: string, body?: unknown) =>
    callInstance(instance, method, path, user.token, body);
  /** The user's socket on an instance, and the next event of a name that matches. */
  const socketOn = async (instance: Instance) => {
    const socket = connect(instance.url, { path: SOCKET_PATH, auth: { token: user.token }, transports: ['websocket'] });
    sockets.push(socket);
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', () => resolve());
      socket.once('connect_error', reject);
    });
    return socket;
  };
  const next = <T>(socket: Socket, name: string, matches: (event: T) => boolean = () => true) =>
    new Promise<T>((resolve) => {
      const listener = (event: T) => {
        if (!matches(event)) return;
        socket.off(name, listener);
        resolve(event);
      };
      socket.on(name, listener);
    });

  beforeAll(async () => {
    const res = await callInstance(a, 'POST', '/api/auth/register', undefined, {
      email: `simulator${Date.now()}@example.com`,
      username: `simulator_${Date.now() % 100000}`,
      name: 'Simulator',
      password: 'correct horse battery',
    });
    expect(res.status, res.text).toBe(200);
    user = res.body;
  });

  it('started on A, it is the one B tells of and answers a second press with; code posted on B runs on it', async () => {
    const started = await call(a, 'POST', '/api/game/simulator');
    expect(started.status, started.text).toBe(200);
    expect(started.body.running).toBe(true);

    const onB = await call(b, 'GET', '/api/game/simulator');
    expect(onB.body).toMatchObject({ running: true, serverId: started.body.serverId });
    const pressedOnB = await call(b, 'POST', '/api/game/simulator');
    expect(pressedOnB.body).toMatchObject({ running: true, serverId: started.body.serverId });
    const status = await call(b, 'GET', '/api/game/status');
    expect(status.body.servers.map((server: { serverId: string }) => server.serverId)).toEqual([started.body.serverId]);

    // Queued on B, taken by the simulated server's long-poll on A, run in the worker's dry run.
    const ran = await call(b, 'POST', '/api/scripts/execute', { code: 'print("across instances")', target: 'game' });
    expect(ran.body).toMatchObject({ success: true, serverId: started.body.serverId, output: 'across instances\n' });
  });

  it('stopped from B, it stops on A: its player leaves at once and B no longer tells of it', async () => {
    const socket = await socketOn(b);
    const left = next(socket, 'players:changed');
    const stopped = await call(b, 'DELETE', '/api/game/simulator');
    expect(stopped.body).toMatchObject({ running: false, lastStop: { reason: 'stopped' } });
    await left;
    expect((await call(b, 'GET', '/api/players/online')).body.players).toEqual([]);
    expect((await call(a, 'GET', '/api/game/simulator')).body).toMatchObject({
      running: false,
      lastStop: { reason: 'stopped' },
    });
    expect((await call(b, 'GET', '/api/game/simulator')).body.running).toBe(false);
  });

  it('when its instance stops, it stops too: the others see it disconnect, and it can start again there', async () => {
    const started = await call(a, 'POST', '/api/game/simulator');
    expect(started.body.running).toBe(true);
    const socket = await socketOn(b);
    const gone = next<GameServersEvent>(socket, 'game:servers', (event) =>
      event.changes.some((change) => change.gone.some((server) => server.serverId === started.body.serverId)),
    );
    await a.stop();
    expect(a.output()).toContain('simulated game server stopped');
    expect(a.output()).toContain('"reason":"shutdown"');
    await gone;
    const again = await call(b, 'POST', '/api/game/simulator');
    expect(again.body).toMatchObject({ running: true, serverId: started.body.serverId });
    const online = await call(b, 'GET', '/api/players/online');
    expect(online.body.players).toEqual([expect.objectContaining({ name: SIMULATED_PLAYER.name })]);
    await call(b, 'DELETE', '/api/game/simulator');
  }, 60_000);
});
