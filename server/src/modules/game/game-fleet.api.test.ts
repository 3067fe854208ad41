import { io as connect, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { GAME_CONNECTED_WINDOW_MS } from '@moonrelay/contract/constants';
import { SOCKET_PATH, type GameServersEvent } from '@moonrelay/contract/events';
import { engines } from '../../../test/engines.ts';
import { SimulatedGame } from '../../../test/simulated-game.ts';
import { registerUser, startTestServer, type TestServer } from '../../../test/test-server.ts';
import { TOO_MANY_GAME_SERVERS } from './game-link.service.ts';
import { SERVER_CHANGES_TICK_MS } from './server-changes.ts';

/** One owner's fleet: a big experience runs thousands of game servers on one API key. */
const FLEET = 3_000;
/** Pings in flight at once, as from many game servers over a few connections each. */
const LANES = 64;

describe('a fleet of thousands of game servers on one key', () => {
  let server: TestServer;
  const sockets: Socket[] = [];
  beforeAll(async () => {
    server = await startTestServer(engines[0]!, { RATE_LIMIT_GAME_PING_PER_MINUTE: '1000000' });
  });
  afterAll(async () => {
    for (const socket of sockets) socket.disconnect();
    await server.close();
  });

  const openSocket = (token: string) =>
    new Promise<Socket>((resolve, reject) => {
      const socket = connect(server.url, { path: SOCKET_PATH, auth: { token }, transports: ['websocket'] });
      sockets.push(socket);
      socket.once('connect', () => resolve(socket));
      socket.once('connect_error', reject);
    });

  /**
   * Every game pings once, LANES at a time; answers the statuses. A connect shed while the server is
   * busy (503 with Retry-After) comes again after it, as the game script does; the benchmark
   * (bench/game.ts) carries the latency targets.
   */
  async function pingAll(games: SimulatedGame[]): Promise<number[]> {
    const statuses: number[] = [];
    let next = 0;
    await Promise.all(
      Array.from({ length: LANES }, async () => {
        while (next < games.length) {
          const game = games[next++]!;
          const outcome = await game.connect();
          statuses.push(outcome.status);
          answeredAt.set(game.options.serverId, performance.now());
        }
      }),
    );
    return statuses;
  }
  /** When each server's last ping was answered. */
  const answeredAt = new Map<string, number>();

  it('answers every ping, shows every server live in coalesced changes, and delivers a command', async () => {
    // The first account is an admin: its screens get every user's changes, as an admin's would.
    const admin = await registerUser(server);
    const owner = await registerUser(server);
    const [adminSocket, ownerSocket] = await Promise.all([openSocket(admin.token), openSocket(owner.token)]);

    const seenByOwner = new Set<string>();
    const seenByAdmin = new Set<string>();
    let ownerEvents = 0;
    let adminEvents = 0;
    const everyServerSeen = Promise.all([
      new Promise<void>((resolve) =>
        ownerSocket.on('game:servers', ({ changes }: GameServersEvent) => {
          ownerEvents += 1;
          for (const change of changes) for (const s of change.servers) seenByOwner.add(s.serverId);
          if (seenByOwner.size === FLEET) resolve();
        }),
      ),
      new Promise<void>((resolve) =>
        adminSocket.on('game:servers', ({ changes }: GameServersEvent) => {
          adminEvents += 1;
          for (const change of changes) for (const s of change.servers) seenByAdmin.add(s.serverId);
          if (seenByAdmin.size === FLEET) resolve();
        }),
      ),
    ]);

    const games = Array.from(
      { length: FLEET },
      (_, i) => new SimulatedGame({ url: server.url, key: owner.user.apiKey, serverId: `fleet-${i}` }),
    );
    // Every server connects (as after a restart), then pings again, and again.
    const startedAt = performance.now();
    for (let round = 0; round < 3; round += 1) {
      const statuses = await pingAll(games);
      expect(statuses).toHaveLength(FLEET);
      expect(statuses.filter((status) => status !== 200)).toEqual([]);
    }
    await everyServerSeen;
    // Coalesced: at most one event a tick, however long the pings took (longer on a busy machine),
    // so fewer than one per connect.
    const mostEvents = Math.ceil((performance.now() - startedAt) / SERVER_CHANGES_TICK_MS) + 1;
    for (const events of [ownerEvents, adminEvents]) {
      expect(events).toBeLessThanOrEqual(mostEvents);
      expect(events).toBeLessThan(FLEET);
    }

    // A server is listed while its last ping is under 10 s old. A round of 3,000 pings takes a few
    // seconds on a quiet machine (all listed) and can take longer than that when both cores are
    // busy: then the servers of the round's last 8 s must be listed, and none beyond the fleet.
    const askedAt = performance.now();
    const status = await server.call('GET', '/api/game/status', { token: owner.token });
    const listed = new Set(status.body.servers.map((s: { serverId: string }) => s.serverId));
    const recent = [...answeredAt].filter(([, at]) => askedAt - at < GAME_CONNECTED_WINDOW_MS - 2_000);
    expect(recent.length).toBeGreaterThan(0);
    expect(recent.filter(([serverId]) => !listed.has(serverId))).toEqual([]);
    expect(listed.size).toBeLessThanOrEqual(FLEET);

    const target = games[FLEET - 7]!;
    const held = target.ping({ wait: 10 });
    const queued = await server.call('POST', '/api/game/command', {
      token: owner.token,
      body: { type: 'heal', serverId: target.options.serverId },
    });
    expect(queued.status, queued.text).toBe(200);
    expect((await held).commands.map((command) => command.id)).toEqual([queued.body.id]);
    // About 15 s on a quiet machine, near two minutes with both cores busy: a hang detector.
  }, 300_000);
});

describe('game servers per API key', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(engines[0]!, { GAME_MAX_SERVERS_PER_KEY: '3' });
  });
  afterAll(() => server.close());

  it('refuses a server past the limit with 429 and Retry-After; known servers and other keys go on', async () => {
    const owner = await registerUser(server);
    const other = await registerUser(server);
    const game = (key: string, serverId: string) => new SimulatedGame({ url: server.url, key, serverId });
    for (const serverId of ['a', 'b', 'c']) expect((await game(owner.user.apiKey, serverId).ping()).status).toBe(200);

    const refused = await fetch(`${server.url}/api/game/ping`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ key: owner.user.apiKey, serverId: 'made-up-4' }),
    });
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('60');
    expect(await refused.json()).toEqual({ error: TOO_MANY_GAME_SERVERS });

    expect((await game(owner.user.apiKey, 'b').ping()).status).toBe(200);
    expect((await game(other.user.apiKey, 'made-up-4').ping()).status).toBe(200);
    const status = await server.call('GET', '/api/game/status', { token: owner.token });
    expect(status.body.servers.map((s: { serverId: string }) => s.serverId).sort()).toEqual(['a', 'b', 'c']);
    // Its owner is told on the dashboard (the refusal is written behind the answer).
    const warned = await vi.waitFor(async () => {
      const answer = await server.call('GET', '/api/game/status', { token: owner.token });
      expect(answer.body.serverBudget).toBeTruthy();
      return answer.body.serverBudget;
    });
    expect(warned.reason).toBe(`made-up-4: ${TOO_MANY_GAME_SERVERS}`);
  });
});
