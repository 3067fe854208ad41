import { io as connect, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SOCKET_PATH, type GameServersEvent } from '@moonrelay/contract/events';
import { engines } from '../../test/engines.ts';
import { SimulatedGame } from '../../test/simulated-game.ts';
import { registerUser, startTestServer, type TestServer } from '../../test/test-server.ts';

describe('live push (Socket.IO)', () => {
  let server: TestServer;
  const sockets: Socket[] = [];
  beforeAll(async () => {
    // Open sockets are checked against their sessions every 200 ms here (15 s by default).
    server = await startTestServer(engines[0]!, { SOCKET_RECHECK_MS: '200' });
  });
  afterAll(async () => {
    for (const socket of sockets) socket.disconnect();
    await server.close();
  });

  const open = (token: string | undefined) => {
    const socket = connect(server.url, {
      path: SOCKET_PATH,
      auth: token ? { token } : {},
      transports: ['websocket'],
      reconnection: false,
    });
    sockets.push(socket);
    return socket;
  };
  const connected = (socket: Socket) =>
    new Promise<void>((resolve, reject) => {
      socket.once('connect', () => resolve());
      socket.once('connect_error', reject);
    });
  /** The next `game:servers` event carrying a change of this user's game servers. */
  const changeOf = (socket: Socket, userId: string) =>
    next<GameServersEvent>(socket, 'game:servers', (e) => e.changes.some((change) => change.userId === userId)).then(
      (e) => e.changes.find((change) => change.userId === userId)!,
    );
  const next = <T>(socket: Socket, event: string, match: (payload: T) => boolean = () => true) =>
    new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no ${event} within 3 s`)), 3_000);
      const handler = (payload: T) => {
        if (!match(payload)) return;
        clearTimeout(timer);
        socket.off(event, handler);
        resolve(payload);
      };
      socket.on(event, handler);
    });

  it('refuses a handshake without a valid session token', async () => {
    await expect(connected(open(undefined))).rejects.toThrow('Authentication failed');
    await expect(connected(open('mrs_not-a-session'))).rejects.toThrow('Authentication failed');
  });

  it('refuses API keys: only a session opens a socket, so revoking a key has no socket to close', async () => {
    const user = await registerUser(server);
    const scoped = await server.call('POST', '/api/user/api-keys', {
      token: user.token,
      body: { name: 'socket probe', scopes: ['scripts:read'] },
    });
    expect(scoped.status).toBe(200);
    for (const key of [user.user.apiKey as string, scoped.body.key as string]) {
      await expect(connected(open(key))).rejects.toThrow('Authentication failed');
    }
  });

  it("pushes the user's game status, command steps and late results to that user only", async () => {
    const alice = await registerUser(server);
    const bob = await registerUser(server);
    const aliceSocket = open(alice.token);
    const bobSocket = open(bob.token);
    await Promise.all([connected(aliceSocket), connected(bobSocket)]);
    const bobEvents: string[] = [];
    bobSocket.onAny((name) => bobEvents.push(name));

    const game = new SimulatedGame({ url: server.url, key: alice.user.apiKey, serverId: 'live-1' });
    const change = changeOf(aliceSocket, alice.user.id);
    await game.ping();
    expect(await change).toMatchObject({ servers: [{ serverId: 'live-1', connected: true }], gone: [] });

    const queued = next<{ command: { type: string; status: string } }>(
      aliceSocket,
      'command:update',
      (e) => e.command.status === 'queued',
    );
    const succeeded = next<{ command: { status: string } }>(
      aliceSocket,
      'command:update',
      (e) => e.command.status === 'succeeded',
    );
    await server.call('POST', '/api/game/command', { token: alice.token, body: { type: 'heal' } });
    expect((await queued).command.type).toBe('heal');
    await game.ping();
    await game.ping();
    await succeeded;
    expect(bobEvents).toEqual([]);
  });

  it('sends every user’s events to admins', async () => {
    // The first account of this server is an admin; earlier tests registered it.
    const admin = await server.app.database.db
      .selectFrom('users')
      .select('id')
      .where('isAdmin', '=', 1)
      .executeTakeFirstOrThrow();
    expect(admin.id).toBeTruthy();
    const adminLogin = await server.app.database.db
      .selectFrom('users')
      .select('email')
      .where('id', '=', admin.id)
      .executeTakeFirstOrThrow();
    const login = await server.call('POST', '/api/auth/login', {
      body: { emailOrUsername: adminLogin.email, password: 'correct horse battery' },
    });
    const adminSocket = open(login.body.token);
    await connected(adminSocket);
    const carol = await registerUser(server);
    const seen = changeOf(adminSocket, carol.user.id);
    await new SimulatedGame({ url: server.url, key: carol.user.apiKey, serverId: 'c' }).ping();
    expect((await seen).userId).toBe(carol.user.id);
  });

  it('moves open screens in and out of the admins’ events when a role changes', async () => {
    const admin = await server.app.database.db
      .selectFrom('users')
      .select('email')
      .where('isAdmin', '=', 1)
      .executeTakeFirstOrThrow();
    const adminToken = (
      await server.call('POST', '/api/auth/login', {
        body: { emailOrUsername: admin.email, password: 'correct horse battery' },
      })
    ).body.token as string;
    const dave = await registerUser(server);
    const erin = await registerUser(server);
    const daveSocket = open(dave.token);
    await connected(daveSocket);
    const seenBy = (socket: Socket, userId: string) => changeOf(socket, userId);
    const game = (key: string, serverId: string) => new SimulatedGame({ url: server.url, key, serverId });

    // Not an admin yet: Erin's game is none of Dave's business.
    await expect(Promise.all([seenBy(daveSocket, erin.user.id), game(erin.user.apiKey, 'e1').ping()])).rejects.toThrow(
      'no game:servers within 3 s',
    );
    const promoted = await server.call('POST', `/api/admin/users/${dave.user.id}/role`, {
      token: adminToken,
      body: { isAdmin: true },
    });
    expect(promoted.status).toBe(200);
    const seen = seenBy(daveSocket, erin.user.id);
    await game(erin.user.apiKey, 'e2').ping();
    expect((await seen).userId).toBe(erin.user.id);

    await server.call('POST', `/api/admin/users/${dave.user.id}/role`, { token: adminToken, body: { isAdmin: false } });
    await expect(Promise.all([seenBy(daveSocket, erin.user.id), game(erin.user.apiKey, 'e3').ping()])).rejects.toThrow(
      'no game:servers within 3 s',
    );
  }, 20_000);

  const setAdmin = (userId: string, isAdmin: boolean) =>
    server.app.database.db
      .updateTable('users')
      .set({ isAdmin: isAdmin ? 1 : 0 })
      .where('id', '=', userId)
      .execute();

  it('closes the socket of a session that signed out, and only that one', async () => {
    const frank = await registerUser(server);
    const second = await server.call('POST', '/api/auth/login', {
      body: { emailOrUsername: frank.input.email, password: frank.password },
    });
    const signedOut = open(frank.token);
    const stillIn = open(second.body.token);
    await Promise.all([connected(signedOut), connected(stillIn)]);
    const reason = new Promise<string>((resolve) => signedOut.once('disconnect', resolve));
    expect((await server.call('POST', '/api/auth/logout', { token: frank.token })).status).toBe(200);
    expect(await reason).toBe('io server disconnect');
    // The other session's screen still gets its events.
    const seen = changeOf(stillIn, frank.user.id);
    await new SimulatedGame({ url: server.url, key: frank.user.apiKey, serverId: 'f1' }).ping();
    expect((await seen).userId).toBe(frank.user.id);
    expect(signedOut.connected).toBe(false);
  });

  it('follows a role changed outside the app (npm run admin) on open screens within the recheck', async () => {
    const grace = await registerUser(server);
    const heidi = await registerUser(server);
    const graceSocket = open(grace.token);
    await connected(graceSocket);
    const heidiGame = (serverId: string) =>
      new SimulatedGame({ url: server.url, key: heidi.user.apiKey, serverId }).ping();
    const seenByGrace = () => changeOf(graceSocket, heidi.user.id);
    /**
     * Changes the role, then waits for a recheck that read it: a second session of grace's, signed
     * out right after the change, has its socket closed by the first recheck whose query came later,
     * and that same pass moves grace's other socket in or out of the admins' room.
     */
    const changeRoleAndAwaitRecheck = async (isAdmin: boolean) => {
      const login = await server.call('POST', '/api/auth/login', {
        body: { emailOrUsername: grace.input.username, password: grace.password },
      });
      const witness = open(login.body.token);
      await connected(witness);
      const closed = new Promise<string>((resolve) => witness.once('disconnect', (reason) => resolve(reason)));
      await setAdmin(grace.user.id, isAdmin);
      expect((await server.call('POST', '/api/auth/logout', { token: login.body.token })).status).toBe(200);
      expect(await closed).toBe('io server disconnect');
    };

    await changeRoleAndAwaitRecheck(true);
    const seen = seenByGrace();
    await heidiGame('h1');
    expect((await seen).userId).toBe(heidi.user.id);

    await changeRoleAndAwaitRecheck(false);
    await expect(Promise.all([seenByGrace(), heidiGame('h2')])).rejects.toThrow('no game:servers within 3 s');
    expect(graceSocket.connected).toBe(true);
  });

  // Last: it restarts the server.
  it('a dashboard socket finds the server again by itself after it restarts', async () => {
    const ivan = await registerUser(server);
    const socket = connect(server.url, {
      path: SOCKET_PATH,
      auth: { token: ivan.token },
      transports: ['websocket'],
      reconnectionDelay: 100,
      reconnectionDelayMax: 200,
    });
    sockets.push(socket);
    await connected(socket);
    const reason = new Promise<string>((resolve) => socket.once('disconnect', resolve));
    await server.stop();
    // Cut, not sent away: "io server disconnect" would stop socket.io-client from reconnecting.
    expect(await reason).toBe('transport close');
    const back = new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    await server.start();
    await back;
    const seen = changeOf(socket, ivan.user.id);
    await new SimulatedGame({ url: server.url, key: ivan.user.apiKey, serverId: 'i1' }).ping();
    expect((await seen).userId).toBe(ivan.user.id);
  });
});
